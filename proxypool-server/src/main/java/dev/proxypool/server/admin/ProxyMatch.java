package dev.proxypool.server.admin;

import dev.proxypool.core.extract.ProxyState;
import dev.proxypool.core.extract.StoredProxy;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.runtime.ProxyRuntime;
import java.util.Locale;
import java.util.Optional;

/**
 * What the Proxies page filters on beyond the store's own filters: the live health state, the
 * health reason code and a part of the proxy id. Judged per proxy against its runtime; a proxy
 * disabled in the store without a runtime counts as DISABLED for reason {@code operator}.
 *
 * @param health the health state asked for, or empty
 * @param reason a health reason code ({@code proxy_auth_rejected}, {@code operator}, ...), or null
 * @param id     a part of the proxy id (case-insensitive), or null
 */
record ProxyMatch(Optional<HealthState> health, String reason, String id) {

    static final ProxyMatch ANY = new ProxyMatch(Optional.empty(), null, null);

    /** Whether this filters at all (then totals cannot come from the store's counts). */
    boolean filters() {
        return health.isPresent() || reason != null || id != null;
    }

    boolean matches(StoredProxy sp, Optional<ProxyRuntime> runtime) {
        if (id != null && !sp.id().toLowerCase(Locale.ROOT).contains(id.toLowerCase(Locale.ROOT))) {
            return false;
        }
        HealthState state;
        String code;
        if (runtime.isPresent()) {
            state = runtime.get().health().state();
            code = runtime.get().health().status().reason().code();
        } else if (sp.state() == ProxyState.DISABLED) {
            state = HealthState.DISABLED;
            code = "operator";
        } else {
            state = null; // not in this process's snapshot (yet)
            code = null;
        }
        if (health.isPresent() && health.get() != state) {
            return false;
        }
        return reason == null || reason.equals(code);
    }

    /** {@code HEALTHY}, {@code cooling}, {@code probe_allowed}, ...: a health state in either case. */
    static HealthState parseHealth(String v) {
        try {
            return HealthState.valueOf(v.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw AdminException.invalid("health must be HEALTHY, COOLING, PROBE_ALLOWED or DISABLED, got '" + v + "'");
        }
    }
}
