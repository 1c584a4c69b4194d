package dev.proxypool.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.credentials.CredentialsUnavailableException;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.EngineLease;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProxyPoolTest {

    @TempDir
    Path dir;

    private Path config(int proxies) throws IOException {
        StringBuilder inv = new StringBuilder();
        for (int i = 1; i <= proxies; i++) {
            inv.append("{\"host\": \"203.0.113.")
                    .append(i)
                    .append("\", \"port\": 8000, \"protocol\": \"")
                    .append(i % 2 == 0 ? "http" : "socks5")
                    .append("\", \"labels\": {\"country\": \"")
                    .append(i % 3 == 0 ? "DE" : "US")
                    .append("\"}, \"ttlSeconds\": 3600, \"maxConcurrency\": 2}\n");
        }
        Files.writeString(dir.resolve("inventory.jsonl"), inv);
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                providers: [{ name: lab, type: jsonl_inventory, path: inventory.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                routings:
                  - { name: shop, match: { hosts: ["*.shop.example", "shop.example"] }, sticky: { enabled: true } }
                  - { name: rest }
                distribution: { gatewayReserve: 2 }
                """);
        return cfg;
    }

    @Test
    void theReadmeFlowWorks() throws IOException {
        try (ProxyPool pool = ProxyPool.fromConfig(config(12))) {
            String first;
            try (Lease lease = pool.acquire(Selection.forHost("shop.example").session("s1"))) {
                assertEquals("shop", lease.routing());
                lease.connected();
                lease.succeeded(Duration.ofMillis(120));
                first = lease.proxyId();
            }
            try (Lease again = pool.acquire(Selection.forHost("shop.example").session("s1"))) {
                assertEquals(first, again.proxyId(), "sticky session keeps its proxy");
                again.failed(FailureKind.CONNECT_TIMEOUT);
            }
            ExtractionResponse mine = pool.extract(
                    Extraction.of(3).protocol(Protocol.HTTP).country("US").allOrNothing());
            assertEquals(3, mine.extracted());
            assertTrue(mine.complete());
            assertFalse(mine.replayed());
            Set<String> taken = new HashSet<>();
            for (ExtractedProxyView x : mine.proxies()) {
                taken.add(x.id());
                assertEquals(Protocol.HTTP, x.protocol());
                assertEquals("US", x.labels().get("country"));
                assertEquals("http://" + x.host() + ":8000", x.url(), "no credentials: a plain URL");
                assertTrue(x.remainingTtlSeconds().getAsLong() > 3500, x.toString());
            }
            for (int i = 0; i < 50; i++) {
                try (Lease l = pool.acquire(Selection.forHost("news.example"))) {
                    assertTrue(!taken.contains(l.proxyId()), "an extracted proxy never serves the gateway");
                }
            }
            assertEquals(0, EmbeddedProxyPool.engineOf(pool).inFlight());
        }
    }

    @Test
    void allOrNothingThatCannotBeMetExtractsNothing() throws IOException {
        try (ProxyPool pool = ProxyPool.fromConfig(config(6))) {
            // 6 proxies, reserve 2: at most 4 extractable
            InsufficientProxiesException e = assertThrows(
                    InsufficientProxiesException.class,
                    () -> pool.extract(Extraction.of(5).allOrNothing()));
            assertEquals(5, e.requested());
            assertEquals(4, e.available());
            assertEquals(4, pool.extract(Extraction.of(10)).extracted(), "partial takes what the reserve allows");
            assertEquals(0, pool.extract(Extraction.of(1)).extracted());
        }
    }

    private static Proxy proxy(int i, String credentialRef) {
        return Proxy.builder(new ProxyKey(
                        Protocol.HTTP,
                        "203.0.113." + i,
                        8000,
                        credentialRef == null ? CredentialRef.NONE : CredentialRef.of(credentialRef)))
                .upstream("app")
                .build();
    }

    /** Issue 38.2: maxHealthAge counts this worker's checks (a success is one); a proxy not checked since is kept. */
    @Test
    void extractionHonoursMaxHealthAgeWithTheWorkersChecks() {
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        try (ProxyPool pool = ProxyPool.builder()
                .background(false)
                .clocks(clock, clock)
                .proxies(List.of(proxy(1, null), proxy(2, null)))
                .build()) {
            clock.advance(Duration.ofMinutes(10));
            ProxyHealth fresh = EmbeddedProxyPool.engineOf(pool)
                    .runtime(proxy(1, null).id())
                    .orElseThrow()
                    .health();
            long now = clock.read();
            fresh.recordSuccess(fresh.tryAdmit(now), 1_000_000, now);

            ExtractionResponse r = pool.extract(Extraction.of(2).maxHealthAge(Duration.ofMinutes(1)));
            assertEquals(
                    List.of(proxy(1, null).id()),
                    r.proxies().stream().map(ExtractedProxyView::id).toList());
            assertEquals(
                    List.of(proxy(2, null).id()),
                    pool.extract(Extraction.of(2)).proxies().stream()
                            .map(ExtractedProxyView::id)
                            .toList(),
                    "without maxHealthAge the unchecked one is extractable");
        }
    }

    /** Issue 38.2: a proxy that left HEALTHY is not extracted in process either. */
    @Test
    void aCoolingProxyIsNotExtractedInProcess() {
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        try (ProxyPool pool = ProxyPool.builder()
                .background(false)
                .clocks(clock, clock)
                .proxies(List.of(proxy(1, null), proxy(2, null)))
                .build()) {
            ProxyHealth cooling = EmbeddedProxyPool.engineOf(pool)
                    .runtime(proxy(1, null).id())
                    .orElseThrow()
                    .health();
            for (int i = 0; i < 3; i++) {
                long now = clock.read();
                cooling.recordFailure(cooling.tryAdmit(now), FailureKind.CONNECT_TIMEOUT, now);
            }
            assertEquals(HealthState.COOLING, cooling.state());
            InsufficientProxiesException e = assertThrows(
                    InsufficientProxiesException.class,
                    () -> pool.extract(Extraction.of(2).allOrNothing()));
            assertEquals(1, e.available());
            assertEquals(
                    List.of(proxy(2, null).id()),
                    pool.extract(Extraction.of(2)).proxies().stream()
                            .map(ExtractedProxyView::id)
                            .toList());
            assertEquals(0, pool.extract(Extraction.of(2)).extracted(), "the cooling proxy stays");
        }
    }

    @Test
    void localExtractionHandsOutUrlsWithPercentEncodedCredentialsLikeTheServer() {
        try (ProxyPool pool = ProxyPool.builder()
                .background(false)
                .credential("vendor", "us@er", "p:ss w")
                .proxies(List.of(proxy(1, "vendor")))
                .build()) {
            ExtractedProxyView x = pool.extract(Extraction.of(1)).proxies().get(0);
            assertEquals("http://us%40er:p%3Ass%20w@203.0.113.1:8000", x.url());
            assertTrue(x.hasCredentials());
            assertTrue(x.expiresAt().isEmpty(), "never expires");
            assertTrue(x.remainingTtlSeconds().isEmpty());
            assertFalse(x.toString().contains("p%3Ass"), x.toString());
        }
    }

    @Test
    void aProxyWhoseCredentialsAreUnavailableIsNeverHandedOutWithoutThem() {
        try (ProxyPool pool = ProxyPool.builder()
                .background(false)
                .proxies(List.of(proxy(1, "missing"), proxy(2, null), proxy(3, "missing"), proxy(4, null)))
                .build()) {
            ProxyPoolException e = assertThrows(
                    ProxyPoolException.class,
                    () -> pool.extract(Extraction.of(4).allOrNothing()));
            assertTrue(e.getMessage().contains("2 of the extracted proxies"), e.getMessage());
        }
        try (ProxyPool pool = ProxyPool.builder()
                .background(false)
                .proxies(List.of(proxy(1, "missing"), proxy(2, null)))
                .build()) {
            ExtractionResponse r = pool.extract(Extraction.of(2));
            assertEquals(2, r.requested());
            assertEquals(1, r.extracted(), "withheld, not handed out without credentials");
            assertEquals("http://203.0.113.2:8000", r.proxies().get(0).url());
        }
    }

    @Test
    void httpClientBuilderFailsClosedWhenTheLeasedProxysCredentialsAreUnavailable() {
        try (ProxyPool pool = ProxyPool.builder()
                        .background(false)
                        .proxies(List.of(proxy(1, "missing")))
                        .build();
                Lease lease = pool.acquire(Selection.forHost("shop.example"))) {
            ProxyPoolException e = assertThrows(ProxyPoolException.class, () -> pool.httpClientBuilder(lease));
            assertTrue(e.getMessage().contains("missing"), e.getMessage());
            assertEquals(FailureKind.PROXY_AUTH_REJECTED, EngineLease.kindOf(e));
        }
    }

    @Test
    void aFailureIsClassifiedFromWhatTheAttemptThrew() {
        assertEquals(
                FailureKind.PROXY_AUTH_REJECTED,
                EngineLease.kindOf(new CredentialsUnavailableException(CredentialRef.of("x"), "unknown ref")));
        assertEquals(
                FailureKind.CONNECT_TIMEOUT, EngineLease.kindOf(new HttpConnectTimeoutException("connect timed out")));
        assertEquals(FailureKind.CONNECT_TIMEOUT, EngineLease.kindOf(new IOException(new SocketTimeoutException())));
        assertEquals(FailureKind.SLOW_BODY, EngineLease.kindOf(new HttpTimeoutException("request timed out")));
        assertEquals(FailureKind.CONNECTION_REFUSED, EngineLease.kindOf(new ConnectException()));
        assertEquals(
                FailureKind.TLS_FAILURE, EngineLease.kindOf(new IOException(new SSLHandshakeException("bad cert"))));
        assertEquals(FailureKind.PROTOCOL_ERROR, EngineLease.kindOf(new ProtocolException("bad status line")));
        assertEquals(FailureKind.CONNECTION_RESET, EngineLease.kindOf(new EOFException()));
    }

    @Test
    void snapshotListenersSeeEveryNewSnapshot() {
        try (ProxyPool pool = ProxyPool.builder().background(false).build()) {
            java.util.List<Long> versions = new java.util.concurrent.CopyOnWriteArrayList<>();
            java.util.List<Integer> sizes = new java.util.concurrent.CopyOnWriteArrayList<>();
            pool.addSnapshotListener(s -> {
                versions.add(s.version());
                sizes.add(s.size());
            });
            pool.addSnapshotListener(s -> {
                throw new IllegalStateException("a broken listener does not stop the others");
            });
            pool.addProxies(
                    java.util.List.of(dev.proxypool.core.model.Proxy.builder(new dev.proxypool.core.model.ProxyKey(
                                    Protocol.HTTP, "203.0.113.9", 8000, dev.proxypool.core.model.CredentialRef.NONE))
                            .build()));
            assertEquals(java.util.List.of(1), sizes);
            assertEquals(EmbeddedProxyPool.engineOf(pool).snapshot().version(), versions.get(0));
        }
    }

    @Test
    void nothingToLeaseIsATypedError() {
        try (ProxyPool pool = ProxyPool.builder().background(false).build()) {
            NoProxyAvailableException e =
                    assertThrows(NoProxyAvailableException.class, () -> pool.acquire(Selection.forHost("a.example")));
            assertEquals("no_candidate", e.reason());
            assertEquals("no_match", e.detail());
        }
    }

    @Test
    void badSelectionsAndExtractionsNameTheProblem() {
        assertEquals(
                "selection host must not be empty",
                assertThrows(IllegalArgumentException.class, () -> Selection.forHost(" "))
                        .getMessage());
        assertEquals(
                "count must be between 1 and 1000, got 0",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> Extraction.of(0).toRequest(0))
                        .getMessage());
    }

    @Test
    void differentSessionsSpreadOverTheProxies() throws IOException {
        try (ProxyPool pool = ProxyPool.fromConfig(config(12))) {
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < 12; i++) {
                try (Lease l = pool.acquire(Selection.forHost("shop.example").session("s" + i))) {
                    l.connected();
                    seen.add(l.proxyId());
                }
            }
            assertNotEquals(1, seen.size());
        }
    }
}
