package dev.proxypool.server.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.pipeline.PoolPublisher;
import dev.proxypool.sdk.pipeline.Publication;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway keeps idle keep-alive links to each upstream proxy; when a proxy leaves the pool
 * (churn) its idle links are closed at once instead of staying open for the life of the process
 * (found by the soak: file descriptors grew with every churned proxy).
 */
class IdleLinksOfGoneProxiesTest {

    @TempDir
    Path dir;

    @Test
    void idleLinksToAProxyThatLeftThePoolAreClosed() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy gone = FakeHttpProxy.start();
                FakeHttpProxy next = FakeHttpProxy.start()) {
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    clients: [{ name: alice, secret: alice-secret }]
                    security: { allowDestinations: ["127.0.0.0/8"] }
                    health: { active: { enabled: false } }
                    """);
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                    .pool(b -> b.proxies(List.of(proxy(gone))))
                    .start()) {
                String auth = "Basic "
                        + Base64.getEncoder().encodeToString("alice:alice-secret".getBytes(StandardCharsets.UTF_8));
                try (GatewayClient client = new GatewayClient(
                        new InetSocketAddress("127.0.0.1", server.gatewayPort()), origin.authority(), 100, auth)) {
                    for (int i = 0; i < 3; i++) {
                        assertEquals(200, client.exchange());
                    }
                    assertTrue(gone.awaitOpen(1, Duration.ofSeconds(5)), "the gateway keeps an idle link to the proxy");
                    assertEquals(1, gone.openConnections(), "one link, reused by the three requests");

                    PoolEngine engine = EmbeddedProxyPool.engineOf(server.pool());
                    new PoolPublisher(engine, engine.wallClock())
                            .publish(Publication.builder()
                                    .publish("soak", List.of(proxy(next)))
                                    .remove(List.of(proxy(gone).id()))
                                    .build());

                    assertTrue(
                            gone.awaitOpen(0, Duration.ofSeconds(5)),
                            "idle links to the removed proxy still open: " + gone.openConnections());
                    assertEquals(200, client.exchange(), "served by the proxy that replaced it");
                    assertTrue(next.awaitOpen(1, Duration.ofSeconds(5)));
                    assertEquals(0, gone.openConnections());
                }
            }
        }
    }

    private static Proxy proxy(FakeHttpProxy p) {
        return Proxy.builder(new ProxyKey(Protocol.HTTP, "127.0.0.1", p.port(), CredentialRef.NONE))
                .provider("soak")
                .upstream("soak")
                .labels(Labels.of("kind", "gw"))
                .build();
    }
}
