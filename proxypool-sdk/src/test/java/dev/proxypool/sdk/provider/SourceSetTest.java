package dev.proxypool.sdk.provider;

import static dev.proxypool.sdk.provider.Fx.assertError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.core.time.Ticker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceSetTest {

    private static final Duration T = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    private static UpstreamSource source(String upstream, ProviderAdapter adapter) {
        return new UpstreamSource(upstream, "prov-" + upstream, adapter, Map.of(), T);
    }

    @Test
    void candidatesAreDedupedAcrossSourcesOnProtocolHostPortAndCredentialRef() {
        Fx fx = new Fx(dir);
        String a = fx.file("a.jsonl", """
                {"host": "203.0.113.1", "port": 8080, "protocol": "http"}
                {"host": "203.0.113.2", "port": 8080, "protocol": "http", "credentialRef": "acct-1"}
                """);
        String b = fx.file("b.txt", """
                203.0.113.1:8080
                203.0.113.1:8081
                socks5://203.0.113.1:8080
                """);
        String c = fx.file("c.jsonl", """
                {"host": "203.0.113.2", "port": 8080, "protocol": "http", "credentialRef": "acct-1"}
                {"host": "203.0.113.2", "port": 8080, "protocol": "http", "credentialRef": "acct-2"}
                """);
        SourceSet set = new SourceSet(
                List.of(
                        source("ua", fx.adapter("jsonl_inventory", Map.of("path", a))),
                        source("ub", fx.adapter("text_list", Map.of("path", b, "protocol", "http"))),
                        source("uc", fx.adapter("jsonl_inventory", Map.of("path", c)))),
                Ticker.system());

        FetchRound round = set.fetchAll();

        assertEquals(
                List.of("ua", "ub", "uc"),
                round.reports().stream().map(FetchReport::upstream).toList());
        assertEquals(2, round.duplicates());
        assertEquals(
                List.of(
                        key(Protocol.HTTP, "203.0.113.1", 8080, ""),
                        key(Protocol.HTTP, "203.0.113.2", 8080, "acct-1"),
                        key(Protocol.HTTP, "203.0.113.1", 8081, ""),
                        key(Protocol.SOCKS5, "203.0.113.1", 8080, ""),
                        key(Protocol.HTTP, "203.0.113.2", 8080, "acct-2")),
                round.candidates().stream().map(Proxy::key).toList());
        assertEquals("ua", round.candidates().get(0).upstream(), "the first upstream in order wins");
    }

    @Test
    void oneFailingSourceNeverStopsTheOthers() {
        Fx fx = new Fx(dir);
        String good = fx.file("good.jsonl", "{\"host\": \"203.0.113.9\", \"port\": 80, \"protocol\": \"http\"}\n");
        CountDownLatch stuck = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        ProviderAdapter hangs = ctx -> {
            try {
                stuck.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
            return FetchReport.failed("x", ctx.upstream(), FetchOutcome.ErrorKind.NETWORK, "late", Duration.ZERO);
        };
        ProviderAdapter throwing = ctx -> {
            throw new IllegalStateException("adapter bug");
        };
        SourceSet set = new SourceSet(
                List.of(
                        source("missing", fx.adapter("jsonl_inventory", Map.of("path", "missing.jsonl"))),
                        new UpstreamSource("hangs", "slow", hangs, Map.of(), Duration.ofMillis(200)),
                        source("throws", throwing),
                        source("good", fx.adapter("jsonl_inventory", Map.of("path", good)))),
                Ticker.system());

        long t0 = Ticker.system().read();
        FetchRound round = set.fetchAll();
        long ms = (Ticker.system().read() - t0) / 1_000_000;
        stuck.countDown();

        assertError(FetchOutcome.ErrorKind.NETWORK, round.reports().get(0));
        assertError(FetchOutcome.ErrorKind.TIMEOUT, round.reports().get(1));
        assertError(FetchOutcome.ErrorKind.NETWORK, round.reports().get(2));
        assertEquals(new FetchOutcome.Success(1), round.reports().get(3).outcome());
        assertEquals(
                List.of("203.0.113.9"),
                round.candidates().stream().map(Proxy::host).toList());
        assertTrue(ms < 3_000, "the round waited for the hung source's timeout only: " + ms + " ms");
    }

    @Test
    void classifyAgainstTheKnownPool() {
        Proxy a = Proxy.builder(key(Protocol.HTTP, "203.0.113.1", 80, "")).build();
        Proxy b = Proxy.builder(key(Protocol.HTTP, "203.0.113.2", 80, "")).build();
        FetchReport two = new FetchReport(
                "p", "u", new FetchOutcome.Success(2), List.of(a, b), Map.of(), List.of(), 10, Duration.ZERO);
        FetchReport none = new FetchReport(
                "p", "u", FetchOutcome.EMPTY, List.of(), Map.of("missing_host", 3), List.of(), 10, Duration.ZERO);
        FetchReport error = FetchReport.failed("p", "u", FetchOutcome.ErrorKind.HTTP_STATUS, "HTTP 500", Duration.ZERO);

        assertEquals(new FetchOutcome.Success(2), FetchReports.classify(two, Set.of()));
        assertEquals(new FetchOutcome.Success(1), FetchReports.classify(two, Set.of(a.key())));
        assertEquals(FetchOutcome.DUPLICATE_ONLY, FetchReports.classify(two, Set.of(a.key(), b.key())));
        assertEquals(FetchOutcome.EMPTY, FetchReports.classify(none, Set.of(a.key())));
        assertEquals(error.outcome(), FetchReports.classify(error, Set.of()));
        assertEquals(
                List.of("success", "duplicate_only", "empty", "error"),
                List.of(
                        FetchReports.classify(two, Set.of()).label(), FetchOutcome.DUPLICATE_ONLY.label(),
                        FetchOutcome.EMPTY.label(), error.outcome().label()));
    }

    @Test
    void anErrorReportCannotCarryCandidatesAndUpstreamsAreUnique() {
        Proxy a = Proxy.builder(key(Protocol.HTTP, "203.0.113.1", 80, "")).build();
        assertThrows(
                IllegalArgumentException.class,
                () -> new FetchReport(
                        "p",
                        "u",
                        new FetchOutcome.Error(FetchOutcome.ErrorKind.PARSE, "x"),
                        List.of(a),
                        Map.of(),
                        List.of(),
                        0,
                        Duration.ZERO));
        ProviderAdapter none = ctx -> null;
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new SourceSet(List.of(source("u", none), source("u", none)), Ticker.system()));
        assertEquals("upstreams[u]: listed twice", e.getMessage());
    }

    private static ProxyKey key(Protocol p, String host, int port, String ref) {
        return new ProxyKey(p, host, port, CredentialRef.of(ref));
    }
}
