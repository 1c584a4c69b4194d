package dev.proxypool.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import java.net.PasswordAuthentication;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every example runs here, so the documented usage keeps compiling and working. */
@Tag("slow")
class ExamplesTest {

    @TempDir
    Path dir;

    @Test
    void embeddedPool() {
        EmbeddedPoolExample.Outcome o = EmbeddedPoolExample.run();
        assertEquals(5, o.leasedIds().size());
        assertEquals(2, o.extractedIds().size());
        assertTrue(o.extractedIds().stream().allMatch(id -> id.startsWith("p-")));
        assertEquals(0, o.inFlightAfter());
    }

    @Test
    void remoteExtractionWithoutArgumentsPrintsItsUsageInsteadOfThrowing() {
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            RemoteExtractionExample.main(new String[0]);
            RemoteExtractionExample.main(new String[] {"http://127.0.0.1:9090"});
        } finally {
            System.setErr(err);
        }
        String text = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(
                2,
                text.lines()
                        .filter(l -> l.equals(RemoteExtractionExample.USAGE))
                        .count(),
                text);
        assertTrue(RemoteExtractionExample.USAGE.startsWith("usage: RemoteExtractionExample <api-url> <client-token>"));
    }

    @Test
    void remoteExtraction() throws Exception {
        StringBuilder inv = new StringBuilder();
        for (int i = 1; i <= 5; i++) {
            inv.append("{\"host\": \"203.0.113.")
                    .append(i)
                    .append("\", \"port\": 8000, \"protocol\": \"http\",")
                    .append(" \"labels\": {\"country\": \"US\"}}\n");
        }
        java.nio.file.Files.writeString(dir.resolve("inv.jsonl"), inv);
        java.nio.file.Path cfg = dir.resolve("proxypool.yaml");
        java.nio.file.Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                clients: [{ name: app, token: app-token-0123456789 }]
                providers: [{ name: lab, type: jsonl_inventory, path: inv.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                health: { active: { enabled: false } }
                """);
        try (dev.proxypool.server.ProxyPoolServer server = dev.proxypool.server.ProxyPoolServer.builder(
                        dev.proxypool.sdk.config.ConfigLoader.load(cfg, Map.of()))
                .start()) {
            java.net.URI api = java.net.URI.create("http://127.0.0.1:" + server.apiPort());
            List<String> first = RemoteExtractionExample.run(api, "app-token-0123456789", 2, "order-1");
            assertEquals(2, first.size());
            assertEquals(
                    first,
                    RemoteExtractionExample.run(api, "app-token-0123456789", 2, "order-1"),
                    "replayed, not re-extracted");
            assertEquals(
                    2,
                    RemoteExtractionExample.run(api, "app-token-0123456789", 2, "order-2")
                            .size());
            assertEquals(
                    List.of(), RemoteExtractionExample.run(api, "app-token-0123456789", 2, "order-3"), "only 1 left");
        }
    }

    @Test
    void customProvider() throws Exception {
        assertEquals(3, CustomProviderExample.run(dir));
    }

    @Test
    void httpClientWithStickySessions() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy a = FakeHttpProxy.builder().basicAuth("u", "p").start();
                FakeHttpProxy b = FakeHttpProxy.builder().basicAuth("u", "p").start();
                FakeHttpProxy c = FakeHttpProxy.builder().basicAuth("u", "p").start()) {
            List<Proxy> inventory = List.of(
                    a.asProxy(CredentialRef.of("lab")),
                    b.asProxy(CredentialRef.of("lab")),
                    c.asProxy(CredentialRef.of("lab")));
            List<HttpClientStickyExample.Hop> hops = HttpClientStickyExample.run(
                    dir,
                    inventory,
                    Map.of("lab", new PasswordAuthentication("u", "p".toCharArray())),
                    origin.uri("/echo"),
                    4,
                    3);
            assertEquals(12, hops.size());
            Map<String, Set<String>> proxiesBySession = new HashMap<>();
            for (HttpClientStickyExample.Hop h : hops) {
                assertEquals(200, h.status());
                proxiesBySession
                        .computeIfAbsent(h.session(), k -> new HashSet<>())
                        .add(h.proxyId());
            }
            proxiesBySession.forEach(
                    (session, ids) -> assertEquals(1, ids.size(), session + " changed exit proxy: " + ids));
            assertEquals(12, a.forwardedRequests() + b.forwardedRequests() + c.forwardedRequests());
        }
    }
}
