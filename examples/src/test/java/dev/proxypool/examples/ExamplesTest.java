package dev.proxypool.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every example runs here, so the documented usage keeps compiling and working. */
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
    void customProvider() throws Exception {
        assertEquals(3, CustomProviderExample.run(dir));
    }

    @Test
    void httpClientWithStickySessions() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
             FakeHttpProxy a = FakeHttpProxy.builder().basicAuth("u", "p").start();
             FakeHttpProxy b = FakeHttpProxy.builder().basicAuth("u", "p").start();
             FakeHttpProxy c = FakeHttpProxy.builder().basicAuth("u", "p").start()) {
            List<Proxy> inventory = List.of(a.asProxy(CredentialRef.of("lab")), b.asProxy(CredentialRef.of("lab")),
                    c.asProxy(CredentialRef.of("lab")));
            List<HttpClientStickyExample.Hop> hops = HttpClientStickyExample.run(inventory,
                    StaticCredentialStore.empty().with("lab", "u", "p"), origin.uri("/echo"), 4, 3);
            assertEquals(12, hops.size());
            Map<String, Set<String>> proxiesBySession = new HashMap<>();
            for (HttpClientStickyExample.Hop h : hops) {
                assertEquals(200, h.status());
                proxiesBySession.computeIfAbsent(h.session(), k -> new HashSet<>()).add(h.proxyId());
            }
            proxiesBySession.forEach((session, ids) -> assertEquals(1, ids.size(), session + " changed exit proxy: " + ids));
            assertEquals(12, a.forwardedRequests() + b.forwardedRequests() + c.forwardedRequests());
        }
    }
}
