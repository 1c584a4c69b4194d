package dev.proxypool.server.access;

import dev.proxypool.core.security.DestinationPolicy;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import java.net.InetSocketAddress;
import java.util.Collection;

/** The configuration's side of the core {@link DestinationPolicy}: the {@code security} keys in, a policy out. */
public final class DestinationPolicies {

    private DestinationPolicies() {}

    /** The policy of {@code security} plus the gateway's own listener sockets. */
    public static DestinationPolicy fromConfig(
            ProxyPoolConfig.Security security, Collection<InetSocketAddress> ownListeners) {
        return DestinationPolicy.builder()
                .allowPrivateDestinations(security.allowPrivateDestinations())
                .connectPorts(security.connectPorts())
                .allowDestinations(security.allowDestinations())
                .ownListeners(ownListeners)
                .build();
    }
}
