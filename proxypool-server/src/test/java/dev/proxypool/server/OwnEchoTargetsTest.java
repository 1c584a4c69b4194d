package dev.proxypool.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.sdk.config.ProxyPoolConfig;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The default active-check target of {@code proxypool serve}: its own echo, nothing outside it. */
class OwnEchoTargetsTest {

    @Test
    void theDefaultTargetIsOurOwnEcho() throws Exception {
        ProxyPoolConfig c = ProxyPoolServer.Builder.withOwnEcho(
                ProxyPoolConfig.defaults(), InetAddress.getByName("127.0.0.1"), 9191);

        List<String> targets = c.health().activeTargets();
        assertEquals(List.of("http://127.0.0.1:9191/v1/echo"), targets);
        assertEquals("http://127.0.0.1:9191/v1/echo", c.pipeline().echoUrl());
    }

    @Test
    void configuredTargetsAreLeftAlone() throws Exception {
        ProxyPoolConfig d = ProxyPoolConfig.defaults();
        ProxyPoolConfig.Health h = d.health();
        List<String> mine = List.of("http://127.0.0.1:7001/a", "http://127.0.0.1:7002/b");
        ProxyPoolConfig configured = new ProxyPoolConfig(
                d.server(),
                d.store(),
                d.database(),
                d.credentials(),
                d.admin(),
                d.clients(),
                d.providers(),
                d.upstreams(),
                d.routings(),
                new ProxyPoolConfig.Health(
                        h.policy(), h.activeEnabled(), h.activeInterval(), h.activeFailuresToCool(), mine),
                d.pipeline(),
                d.security(),
                d.distribution(),
                d.gateway(),
                d.cluster(),
                d.nodes());

        assertEquals(
                mine,
                ProxyPoolServer.Builder.withOwnEcho(configured, InetAddress.getByName("127.0.0.1"), 9191)
                        .health()
                        .activeTargets());
    }
}
