package dev.proxypool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.sdk.ExtractedProxyView;
import dev.proxypool.sdk.Extraction;
import dev.proxypool.sdk.ExtractionResponse;
import dev.proxypool.sdk.remote.DistributionClient;
import dev.proxypool.sdk.remote.DistributionException;
import dev.proxypool.testkit.TestPorts;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SDK's remote {@link DistributionClient} against a real {@code ProxyPoolServer}: every typed
 * error the server can produce, the happy path with credentials in the URL, and idempotent replay.
 * (It lives in the CLI module because the server module depends on the SDK.)
 */
@Tag("slow")
class DistributionClientServerTest {

    @TempDir
    Path dir;

    ApiServer api;
    DistributionClient alice;

    @BeforeEach
    void start() throws IOException {
        api = ApiServer.start(dir, ApiServer.sixProxies(), "");
        alice = DistributionClient.builder(api.api())
                .token(ApiServer.ALICE)
                .timeout(Duration.ofSeconds(10))
                .build();
    }

    @AfterEach
    void stop() {
        alice.close();
        api.close();
    }

    private DistributionClient client(String token) {
        return DistributionClient.builder(api.api())
                .token(token)
                .timeout(Duration.ofSeconds(10))
                .build();
    }

    @Test
    void extractsWithFiltersAndTheUrlCarriesPercentEncodedCredentials() {
        ExtractionResponse r =
                alice.extract(Extraction.of(4).protocol(Protocol.HTTP).country("US"));
        assertEquals(4, r.requested());
        assertEquals(4, r.extracted());
        assertTrue(r.complete());
        assertFalse(r.replayed());
        Set<String> ids = new HashSet<>();
        for (ExtractedProxyView p : r.proxies()) {
            ids.add(p.id());
            assertEquals(Protocol.HTTP, p.protocol());
            assertEquals("US", p.labels().get("country"));
            assertTrue(p.host().startsWith("203.0.113."));
            if (p.host().equals("203.0.113.1")) {
                assertEquals("http://us%40er:p%3Ass@203.0.113.1:8001", p.url());
                long ttl = p.remainingTtlSeconds().orElseThrow();
                assertTrue(ttl > 1700 && ttl <= 1800, "ttl " + ttl);
                assertTrue(p.expiresAt().isPresent());
                assertFalse(p.toString().contains("p%3Ass"), p.toString());
                assertFalse(p.toString().contains("203.0.113.1"), p.toString());
            } else {
                assertEquals("http://" + p.host() + ":" + p.port(), p.url());
                assertTrue(p.expiresAt().isEmpty());
                assertTrue(p.remainingTtlSeconds().isEmpty());
            }
        }
        assertEquals(4, ids.size());
        // exclusive: they are gone, the rest is socks5 from DE
        ExtractionResponse rest = alice.extract(Extraction.of(10));
        assertEquals(2, rest.extracted());
        assertFalse(rest.complete());
        rest.proxies().forEach(p -> assertEquals(Protocol.SOCKS5, p.protocol()));
    }

    @Test
    void allOrNothingThatCannotBeMetIsInsufficientAndExtractsNothing() {
        var e = assertThrows(
                DistributionException.InsufficientProxies.class,
                () -> alice.extract(Extraction.of(3).country("DE").allOrNothing()));
        assertEquals(3, e.requested());
        assertEquals(2, e.available());
        assertEquals(
                2, alice.extract(Extraction.of(2).country("DE").allOrNothing()).extracted());
    }

    @Test
    void unknownTokenIsUnauthorized() {
        try (DistributionClient stranger = client("not-a-known-token")) {
            var e = assertThrows(DistributionException.Unauthorized.class, () -> stranger.extract(Extraction.of(1)));
            assertEquals(401, e.status());
            assertFalse(e.getMessage().contains("not-a-known-token"));
        }
    }

    @Test
    void aCountAboveTheServersMaximumIsAnInvalidRequestNamingTheField() {
        var e = assertThrows(DistributionException.InvalidRequest.class, () -> alice.extract(Extraction.of(500)));
        assertEquals(400, e.status());
        assertTrue(e.serverMessage().contains("count"), e.serverMessage());
    }

    @Test
    void quotaExceededCarriesLimitUsedAndRetryAfter() {
        try (DistributionClient bob = client(ApiServer.BOB)) {
            assertEquals(2, bob.extract(Extraction.of(2)).extracted());
            var e = assertThrows(DistributionException.QuotaExceeded.class, () -> bob.extract(Extraction.of(1)));
            assertEquals(429, e.status());
            assertEquals(2, e.limit());
            assertEquals(2, e.used());
            assertTrue(
                    e.retryAfter().toSeconds() > 0 && e.retryAfter().toSeconds() <= 3600,
                    e.retryAfter().toString());
        }
    }

    @Test
    void aStoreThatIsDownIsStoreUnavailable() {
        api.store.down = true;
        var e = assertThrows(DistributionException.StoreUnavailable.class, () -> alice.extract(Extraction.of(1)));
        assertEquals(503, e.status());
        api.store.down = false;
        assertEquals(1, alice.extract(Extraction.of(1)).extracted());
    }

    @Test
    void theSameKeyWhileTheFirstRunsIsRequestInProgress() throws Exception {
        api.store.holdExtractions();
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        try {
            Extraction call = Extraction.of(1).idempotencyKey("job-1");
            Future<ExtractionResponse> first = pool.submit(() -> alice.extract(call));
            assertTrue(api.store.extractEntered.await(10, TimeUnit.SECONDS));
            try (DistributionClient second = client(ApiServer.ALICE)) {
                var e = assertThrows(DistributionException.RequestInProgress.class, () -> second.extract(call));
                assertEquals(409, e.status());
                assertEquals("request_in_progress", e.errorCode());
            }
            api.store.release();
            assertEquals(1, first.get(10, TimeUnit.SECONDS).extracted());
        } finally {
            api.store.release();
            pool.shutdownNow();
        }
    }

    @Test
    void theSameKeyAndBodyReplaysTheStoredAnswerWithoutExtractingAgain() {
        Extraction call = Extraction.of(2).country("US").idempotencyKey("retry-safe-7");
        ExtractionResponse first = alice.extract(call);
        ExtractionResponse again = alice.extract(call);
        assertFalse(first.replayed());
        assertTrue(again.replayed());
        assertEquals(ids(first), ids(again));
        assertEquals(first.proxies().get(0).url(), again.proxies().get(0).url());
        // only two were taken: four remain
        assertEquals(4, alice.extract(Extraction.of(10)).extracted());
    }

    @Test
    void theSameKeyWithAnotherBodyIsIdempotencyMismatch() {
        alice.extract(Extraction.of(1).idempotencyKey("k-422"));
        var e = assertThrows(
                DistributionException.IdempotencyMismatch.class,
                () -> alice.extract(Extraction.of(2).idempotencyKey("k-422")));
        assertEquals(422, e.status());
    }

    @Test
    void aClosedPortIsServerUnreachable() {
        URI nowhere = URI.create("http://127.0.0.1:" + TestPorts.closedPort());
        try (DistributionClient c =
                DistributionClient.builder(nowhere).token(ApiServer.ALICE).build()) {
            var e = assertThrows(DistributionException.ServerUnreachable.class, () -> c.extract(Extraction.of(1)));
            assertEquals("connection refused", e.reason());
        }
    }

    @Test
    void concurrentCallersNeverReceiveTheSameProxy() throws Exception {
        ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
        try {
            List<CompletableFuture<ExtractionResponse>> calls = new java.util.ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(CompletableFuture.supplyAsync(() -> alice.extract(Extraction.of(1)), pool));
            }
            Set<String> ids = new HashSet<>();
            int total = 0;
            for (CompletableFuture<ExtractionResponse> f : calls) {
                ExtractionResponse r = f.get(20, TimeUnit.SECONDS);
                total += r.extracted();
                ids.addAll(ids(r));
            }
            assertEquals(6, total);
            assertEquals(6, ids.size());
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<String> ids(ExtractionResponse r) {
        return r.proxies().stream().map(ExtractedProxyView::id).toList();
    }
}
