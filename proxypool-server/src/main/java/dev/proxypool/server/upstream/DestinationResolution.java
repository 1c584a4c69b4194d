package dev.proxypool.server.upstream;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.security.DestinationPolicy;
import dev.proxypool.core.security.DestinationVerdict;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.server.nodes.NodeRegistry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Which proxies get destinations resolved by the gateway ({@code upstreams[].resolveDestinations},
 * {@code nodes.resolveDestinations}): for those, the gateway resolves the request's host name itself,
 * checks every address with the destination policy and sends the proxy the checked address, so a name
 * that leads to a loopback, private or metadata address is refused (403 {@code destination_denied})
 * and a DNS answer that changes between the check and the dial cannot matter.
 *
 * <p>Why per upstream: a proxy on the gateway's own host or network resolves names on that network,
 * where {@code internal.example} may well be 10.0.0.5; a vendor's endpoint resolves on the vendor's
 * network, where the same name leads nowhere of ours, and resolving for it would only add a lookup and
 * send the vendor an address picked by our resolver instead of its own. So the default follows the
 * proxy's address: private or loopback (or a local-only name), resolve; public, let the upstream
 * resolve. Nodes (self-hosted agents) resolve unless {@code nodes.resolveDestinations} is false.
 * Thread-safe; {@link #update} follows configuration changes.
 */
public final class DestinationResolution implements Predicate<Proxy> {

    /** Nobody resolves: the upstream always does (engines built without a configuration). */
    public static final DestinationResolution NEVER = new DestinationResolution(Map.of(), false, false);

    /** The default policy: it denies exactly the private-scope classes a self-hosted proxy lives in. */
    private static final DestinationPolicy CLASSIFIER =
            DestinationPolicy.builder().build();

    private volatile Map<String, Optional<Boolean>> perUpstream;
    private final boolean nodes;
    private final boolean byAddress;
    private final Map<String, Boolean> privateHosts = new ConcurrentHashMap<>();

    private DestinationResolution(Map<String, Optional<Boolean>> perUpstream, boolean nodes, boolean byAddress) {
        this.perUpstream = perUpstream;
        this.nodes = nodes;
        this.byAddress = byAddress;
    }

    /**
     * The settings of a configuration.
     *
     * @param upstreams its upstreams (their {@code resolveDestinations})
     * @param nodes     its {@code nodes} section
     */
    public static DestinationResolution of(List<ProxyPoolConfig.Upstream> upstreams, ProxyPoolConfig.Nodes nodes) {
        return new DestinationResolution(settings(upstreams), nodes.resolveDestinations(), true);
    }

    /** Follows a configuration change of the upstreams. */
    public void update(List<ProxyPoolConfig.Upstream> upstreams) {
        if (this != NEVER) {
            perUpstream = settings(upstreams);
        }
    }

    private static Map<String, Optional<Boolean>> settings(List<ProxyPoolConfig.Upstream> upstreams) {
        Map<String, Optional<Boolean>> m = new HashMap<>();
        for (ProxyPoolConfig.Upstream u : upstreams) {
            m.put(u.name(), u.resolveDestinations());
        }
        return Map.copyOf(m);
    }

    /** True when the gateway resolves destinations for {@code p}. */
    @Override
    public boolean test(Proxy p) {
        if (!byAddress) {
            return false;
        }
        if (NodeRegistry.UPSTREAM.equals(p.upstream())) {
            return nodes;
        }
        Optional<Boolean> set = perUpstream.get(p.upstream());
        if (set != null && set.isPresent()) {
            return set.get();
        }
        return privateOrLoopback(p.host());
    }

    /** Whether a proxy's host is a private, loopback or local-only address or name (cached per host). */
    boolean privateOrLoopback(String host) {
        Boolean known = privateHosts.get(host);
        if (known != null) {
            return known;
        }
        boolean priv = CLASSIFIER.check(host, 80, false) instanceof DestinationVerdict.Denied d
                && d.reason().privateScope();
        if (privateHosts.size() < 65_536) {
            privateHosts.put(host, priv);
        }
        return priv;
    }
}
