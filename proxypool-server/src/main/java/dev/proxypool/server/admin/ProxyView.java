package dev.proxypool.server.admin;

import dev.proxypool.core.extract.ProxyState;
import dev.proxypool.core.extract.StoredProxy;
import dev.proxypool.core.health.HealthReason;
import dev.proxypool.core.health.HealthStatus;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.AddressMask;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.runtime.ProxyRuntime;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One proxy as the admin API shows it: the address unmasked (admins only) but never credentials
 * (only the {@code credentialRef} name), the store state, and the live runtime (health, in-flight,
 * latency) of this process when the proxy is in its snapshot.
 *
 * <pre>
 * {"id": "...", "protocol": "http", "host": "203.0.113.7", "port": 8000, "upstream": "vendor-a-us",
 *  "provider": "vendor-a", "credentialRef": "vendor-a", "labels": {"country": "US"},
 *  "expiresAt": "2026-11-30T12:00:00Z", "remainingTtlSeconds": 1740, "state": "available",
 *  "checkedAt": null, "health": {"state": "HEALTHY", "reason": "created", "stage": "initial"},
 *  "inFlight": 0, "maxConcurrency": 10, "weight": 4, "effectiveWeight": 3, "weightFactor": 0.72,
 *  "dynamicWeight": {"target": 0.7, "share": 0.72, "successEwma": 0.98, "peerSuccessEwma": 0.99,
 *                    "peerLatencyEwmaMs": 9.5},
 *  "latencyEwmaMs": 12.5, "bannedDomains": {"shop.example": 540}}
 * </pre>
 * {@code weight} is the configured base weight; {@code effectiveWeight} the weight selection uses now
 * (base × {@code weightFactor} × the slow-start ramp, at least 1); {@code weightFactor} the dynamic
 * factor in [0.1, 1], judged against the other healthy proxies of the same upstream
 * ({@code peer*}: their mean smoothed success and latency; {@code peerSuccessEwma} is null while the
 * upstream has no other healthy proxy, {@code peerLatencyEwmaMs} 0 while none has a sample);
 * {@code dynamicWeight.target} is where the factor is heading (it moves at most 10% per outcome),
 * {@code share} the fraction of its base weight the proxy gets now (factor × slow start). The
 * three are null when this process has no runtime for the proxy.
 * {@code bannedDomains}: the domain bans in force, seconds left. Masked ({@code ?masked=true}, the
 * console's view) the host is {@code 203.0.x.x} and {@code "masked": true} is added.
 * {@code health} is {@code null} when this process has no runtime for the proxy (not in the live
 * snapshot), except for a disabled one, which shows {@code DISABLED}/{@code operator}.
 */
final class ProxyView {

    private ProxyView() {}

    /**
     * @param masked    show the host masked ({@link AddressMask}: {@code 203.0.x.x}) and add {@code "masked": true}
     * @param nowNanos  the engine's ticker now, for the remaining time of domain bans
     */
    static Map<String, Object> of(
            StoredProxy sp, Optional<ProxyRuntime> runtime, Instant now, boolean masked, long nowNanos) {
        Proxy p = sp.proxy();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", p.id());
        m.put("protocol", p.protocol().wireName());
        m.put("host", masked ? AddressMask.mask(p.host()) : p.host());
        if (masked) {
            m.put("masked", true);
        }
        m.put("port", p.port());
        m.put("upstream", p.upstream());
        m.put("provider", p.provider());
        m.put("credentialRef", p.credentialRef().isPresent() ? p.credentialRef().name() : null);
        m.put("labels", p.labels().values());
        m.put("expiresAt", p.expires() ? p.expiresAt().toString() : null);
        m.put(
                "remainingTtlSeconds",
                p.expires() ? Math.max(0, Duration.between(now, p.expiresAt()).getSeconds()) : null);
        m.put("state", sp.state().wireName());
        m.put("checkedAt", sp.checkedAt().map(Instant::toString).orElse(null));
        m.put("health", health(sp, runtime));
        m.put("inFlight", runtime.map(rt -> rt.capacity().inFlight()).orElse(0));
        m.put("maxConcurrency", p.maxConcurrency());
        m.put("weight", p.weight());
        m.put(
                "effectiveWeight",
                runtime.map(rt -> rt.health().effectiveWeight(p.weight(), nowNanos))
                        .orElse(null));
        m.put(
                "weightFactor",
                runtime.map(rt -> round3(rt.health().weightFactor())).orElse(null));
        m.put("dynamicWeight", runtime.map(rt -> dynamicWeight(rt, nowNanos)).orElse(null));
        m.put(
                "latencyEwmaMs",
                runtime.map(rt -> Math.round(rt.health().latencyEwmaNanos() / 100_000.0) / 10.0)
                        .orElse(null));
        Map<String, Object> bans = new LinkedHashMap<>();
        runtime.ifPresent(rt -> rt.health()
                .bannedDomains(nowNanos)
                .forEach((domain, left) -> bans.put(domain, Math.max(1, left / 1_000_000_000L))));
        m.put("bannedDomains", bans);
        return m;
    }

    private static Map<String, Object> dynamicWeight(ProxyRuntime rt, long nowNanos) {
        ProxyHealth h = rt.health();
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("target", round3(h.weightTarget()));
        d.put("share", round3(h.weightShare(nowNanos)));
        d.put("successEwma", round3(h.successEwma()));
        double peers = h.peerSuccess();
        d.put("peerSuccessEwma", peers < 0 ? null : round3(peers));
        d.put("peerLatencyEwmaMs", Math.round(h.peerLatencyNanos() / 100_000.0) / 10.0);
        return d;
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static Map<String, Object> health(StoredProxy sp, Optional<ProxyRuntime> runtime) {
        if (runtime.isEmpty()) {
            if (sp.state() == ProxyState.DISABLED) {
                Map<String, Object> h = new LinkedHashMap<>();
                h.put("state", "DISABLED");
                h.put("reason", "operator");
                h.put("stage", "operator");
                return h;
            }
            return null;
        }
        HealthStatus s = runtime.get().health().status();
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("state", s.state().name());
        h.put("reason", s.reason().code());
        if (s.reason() instanceof HealthReason.Operator op) {
            h.put("detail", op.text());
        } else if (s.reason() instanceof HealthReason.OperatorEnabled op) {
            h.put("detail", op.text());
        }
        h.put("stage", s.stage().wireName());
        return h;
    }

    /** The small before/after of an operator action, for the audit log. */
    static Map<String, Object> auditState(ProxyState state, Optional<ProxyRuntime> runtime) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("state", state.wireName());
        m.put("health", runtime.map(rt -> (Object) rt.health().state().name()).orElse(null));
        return m;
    }
}
