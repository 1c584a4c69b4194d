package dev.proxypool.server.access;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.core.security.DestinationPolicy;
import dev.proxypool.core.security.DestinationVerdict;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class DestinationPoliciesTest {

    private static String verdict(DestinationPolicy p, String host, int port, boolean connect) {
        return switch (p.check(host, port, connect)) {
            case DestinationVerdict.Allowed a -> "allow";
            case DestinationVerdict.Denied d -> d.reason().code();
        };
    }

    @Test
    void fromConfigUsesEverySecurityKey() throws Exception {
        ProxyPoolConfig.Security s =
                new ProxyPoolConfig.Security(false, List.of(443, 9443), List.of("127.0.0.0/8"), false);
        DestinationPolicy p = DestinationPolicies.fromConfig(
                s, List.of(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 8080)));
        assertEquals("allow", verdict(p, "127.0.0.1", 9443, true));
        assertEquals("connect_port", verdict(p, "127.0.0.1", 8443, true));
        assertEquals("own_listener", verdict(p, "127.0.0.1", 8080, false));
        assertEquals("private", verdict(p, "10.0.0.1", 80, false));
        DestinationPolicy defaults = DestinationPolicies.fromConfig(ProxyPoolConfig.Security.DEFAULTS, List.of());
        assertEquals("allow", verdict(defaults, "example.com", 8443, true));
        assertEquals("loopback", verdict(defaults, "127.0.0.1", 80, false));
    }

    @Test
    void theCoreDefaultConnectPortsAreTheConfigurationDefaults() {
        assertEquals(ProxyPoolConfig.Security.DEFAULTS.connectPorts(), DestinationPolicy.DEFAULT_CONNECT_PORTS);
    }
}
