package dev.proxypool.server.reliability;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.HealthReason;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.FakeServer;
import dev.proxypool.testkit.FakeSocks5Proxy;
import dev.proxypool.testkit.Faults;
import dev.proxypool.testkit.RawHttp;
import dev.proxypool.testkit.TestPorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reliability scenario 1 of issue #9, <b>upstream faults</b>, one test per fault or promise: the real
 * gateway ({@link UpstreamBench}) in front of test-kit HTTP (and one SOCKS5) proxies of which one misbehaves.
 *
 * <p>The promises: a GET/HEAD that fails on a proxy before any response byte reached the client is
 * retried on another proxy within the routing's budget (at most {@code maxAttempts} = 2); a request with
 * a body and an established CONNECT tunnel are never replayed (the client sees the failure, the faulty
 * proxy saw exactly one attempt); the failing proxy is cooled after {@code consecutiveFailures} (3)
 * failures, with the failure's kind as the reason; in-flight attempts and capacity return to 0; and
 * after 10,000 tunnels the process's open file descriptors are back at their baseline.
 *
 * <p>Earlier, narrower tests: {@code GatewayEndToEndTest#aRefusingUpstreamIsRetriedOnAnotherProxyAndCooled}
 * (refuse through the whole server), {@code GatewayRetryTest} (POST not retried, established tunnel
 * not replayed, against a static upstream list), {@code GatewayStressTest} (capacity under load).
 */
@Tag("slow")
class UpstreamFaultsScenarioTest {

    private static final int COOL_AFTER = 3; // health.passive.consecutiveFailures default
    private static final int CONNECT_REPLY = "HTTP/1.1 200 Connection established\r\n\r\n".length(); // the fake's reply
    private static final int SOCKS5_REPLIES = 2 + 10; // method selection, then the IPv4 connect reply
    private static final int TUNNELS = Integer.getInteger("reliability.tunnels", 10_000);

    @TempDir
    static Path dir;

    static FakeOrigin origin;
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeAll
    static void startOrigin() {
        origin = FakeOrigin.start();
    }

    @AfterAll
    static void stopOrigin() {
        origin.close();
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open.reversed()) {
            c.close();
        }
    }

    private FakeHttpProxy proxy(Faults faults) {
        FakeHttpProxy p = FakeHttpProxy.builder().faults(faults).start();
        open.add(p);
        return p;
    }

    private UpstreamBench bench(String health, int... ports) {
        UpstreamBench b = new UpstreamBench(dir, health, ports);
        open.add(b);
        return b;
    }

    private static void print(String line) {
        System.out.println("[reliability] scenario 1 " + line);
    }

    // ------------------------------------------------------------------ GET/HEAD retried, proxy cooled

    @Test
    void refusedConnectionsAreRetriedOnAnotherProxyAndCoolTheProxy() throws Exception {
        int refused = TestPorts.closedPort();
        assertRetriedUntilCooled("refuse", null, refused, "connection_refused");
    }

    @Test
    void acceptThenHangIsRetriedAfterTheIoTimeoutAndCoolsTheProxy() throws Exception {
        FakeHttpProxy hanging = proxy(Faults.none().hang());
        assertRetriedUntilCooled("accept-then-hang", hanging, hanging.port(), "slow_body");
    }

    @Test
    void aResetInsideTheResponseHeadIsRetriedAndCoolsTheProxy() throws Exception {
        FakeHttpProxy resetting = proxy(Faults.none().resetAfter(12)); // "HTTP/1.1 200" then RST
        assertRetriedUntilCooled("reset mid-response (head)", resetting, resetting.port(), "connection_reset");
    }

    @Test
    void aSocks5ProxyResettingInsideTheResponseHeadIsRetriedAndCoolsTheProxy() throws Exception {
        FakeSocks5Proxy resetting = FakeSocks5Proxy.builder()
                .faults(Faults.none().resetAfter(SOCKS5_REPLIES + 12))
                .start();
        open.add(resetting);
        assertRetriedUntilCooled(
                "reset mid-response (head) via socks5",
                resetting,
                UpstreamBench.key(Protocol.SOCKS5, resetting.port()),
                "connection_reset");
    }

    private void assertRetriedUntilCooled(String fault, FakeServer faulty, int faultyPort, String reason)
            throws Exception {
        assertRetriedUntilCooled(fault, faulty, UpstreamBench.key(Protocol.HTTP, faultyPort), reason);
    }

    /**
     * GET and HEAD alternately until the faulty proxy (first in rotation) is cooling: every one answered
     * 200 with the right body by a good proxy, each failure retried once, the faulty proxy dialled exactly
     * once per failure.
     */
    private void assertRetriedUntilCooled(String fault, FakeServer faulty, ProxyKey faultyKey, String reason)
            throws Exception {
        FakeHttpProxy good1 = proxy(Faults.none());
        FakeHttpProxy good2 = proxy(Faults.none());
        UpstreamBench b = new UpstreamBench(
                dir,
                "",
                List.of(
                        faultyKey,
                        UpstreamBench.key(Protocol.HTTP, good1.port()),
                        UpstreamBench.key(Protocol.HTTP, good2.port())));
        open.add(b);
        ProxyHealth health = b.health(0);
        long t0 = System.nanoTime();
        int requests = 0;
        int retried = 0;
        while (health.state() != HealthState.COOLING && requests < 20) {
            boolean head = requests % 2 == 1;
            RawHttp.Response r =
                    b.send(UpstreamBench.request(head ? "HEAD" : "GET", origin.url("/bytes?n=3000")), head);
            requests++;
            assertEquals(200, r.status(), fault + ": request " + requests);
            assertNotEquals(b.id(0), r.header("X-ProxyPool-Proxy"), "answered by a good proxy");
            assertEquals("3000", r.header("Content-Length"));
            if (!head) {
                assertPattern(r.body(), 3000);
            }
            int attempts = Integer.parseInt(r.header("X-ProxyPool-Attempts"));
            assertTrue(attempts == 1 || attempts == 2, "within maxAttempts 2, got " + attempts);
            retried += attempts - 1;
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        print(fault + ": " + requests + " GET/HEAD all 200, " + retried + " retried, faulty proxy dialled "
                + (faulty == null ? "-" : faulty.acceptedConnections()) + "x, state " + health.state() + " ("
                + health.status().reason().code() + "), " + ms + " ms");
        assertEquals(HealthState.COOLING, health.state(), "cooled after " + requests + " requests");
        HealthReason.Failure why =
                assertInstanceOf(HealthReason.Failure.class, health.status().reason());
        assertEquals(HealthReason.Trigger.CONSECUTIVE_FAILURES, why.trigger());
        assertEquals(reason, why.code());
        assertEquals(COOL_AFTER, retried, "each failure cost exactly one retry");
        if (faulty != null) {
            assertEquals(
                    COOL_AFTER, faulty.acceptedConnections(), "one connection per failed attempt, none after cooling");
        }
        assertEquals(HealthState.HEALTHY, b.health(1).state());
        assertEquals(HealthState.HEALTHY, b.health(2).state());
        b.assertCapacityBackToZero();
    }

    // ------------------------------------------------------------------ never replayed

    @Test
    void aResetMidBodyCutsTheClientIsNeverReplayedAndCoolsTheProxy() throws Exception {
        FakeHttpProxy resetting = proxy(Faults.none().resetAfter(400)); // the head, then part of the body
        FakeHttpProxy good = proxy(Faults.none());
        UpstreamBench b = bench("", resetting.port(), good.port());
        int cut = 0;
        int ok = 0;
        for (int i = 0; i < 12 && b.health(0).state() != HealthState.COOLING; i++) {
            long originBefore = origin.requests();
            long faultyBefore = resetting.requests();
            try {
                RawHttp.Response r = b.send(UpstreamBench.get(origin.url("/bytes?n=200000")), false);
                assertEquals(200, r.status());
                assertPattern(r.body(), 200_000);
                assertEquals(
                        faultyBefore, resetting.requests(), "a complete body never comes from the resetting proxy");
                ok++;
            } catch (IOException expected) { // truncated: the only honest signal once the head was relayed
                cut++;
                assertEquals(faultyBefore + 1, resetting.requests(), "exactly one attempt on the faulty proxy");
                assertEquals(originBefore + 1, origin.requests(), "the request reached the origin once, not replayed");
            }
        }
        print("reset mid-body: " + cut + " clients cut, " + ok + " complete, faulty proxy dialled "
                + resetting.acceptedConnections() + "x, state " + b.health(0).state() + " ("
                + b.health(0).status().reason().code() + ")");
        assertEquals(COOL_AFTER, cut);
        assertEquals(HealthState.COOLING, b.health(0).state());
        assertEquals("connection_reset", b.health(0).status().reason().code());
        assertEquals(COOL_AFTER, resetting.acceptedConnections());
        b.assertCapacityBackToZero();
    }

    @Test
    void aRequestWithABodyIsNeverReplayed() throws Exception {
        FakeHttpProxy resetting = proxy(Faults.none().resetAfter(12));
        FakeHttpProxy good = proxy(Faults.none());
        UpstreamBench b = bench("", resetting.port(), good.port());
        int failed = 0;
        int sent = 0;
        while (failed < 2 && sent < 12) { // round robin; the faulty proxy's turns thin a little as its weight drops
            sent++;
            long goodBefore = good.requests();
            long faultyBefore = resetting.requests();
            String post = "POST " + origin.url("/echo") + " HTTP/1.1\r\nHost: " + origin.authority()
                    + "\r\nContent-Length: 7\r\n\r\npayment";
            RawHttp.Response r = b.send(post, false);
            assertEquals("1", r.header("X-ProxyPool-Attempts"), "one attempt only");
            if (b.id(0).equals(r.header("X-ProxyPool-Proxy"))) {
                failed++;
                assertEquals(502, r.status());
                assertEquals("upstream_failed", r.header("X-ProxyPool-Error"));
                assertEquals(faultyBefore + 1, resetting.requests(), "the faulty proxy saw it once");
                assertEquals(goodBefore, good.requests(), "and no other proxy saw it");
            } else {
                assertEquals(200, r.status());
            }
        }
        print("POST through a resetting proxy: " + failed + " of " + sent
                + " answered 502 after 1 attempt, none replayed");
        assertEquals(2, failed, "POSTs reached the faulty proxy");
        assertEquals(2, resetting.requests(), "each exactly once");
        b.assertCapacityBackToZero();
    }

    @Test
    void aResetMidTunnelIsNeverReplayedAndCoolsTheProxy() throws Exception {
        FakeHttpProxy resetting = proxy(Faults.none().resetAfter(CONNECT_REPLY + 100));
        FakeHttpProxy good = proxy(Faults.none());
        UpstreamBench b = bench("", resetting.port(), good.port());
        long originConnections = origin.acceptedConnections();
        int cut = 0;
        int ok = 0;
        for (int i = 0; i < 12 && b.health(0).state() != HealthState.COOLING; i++) {
            try (Socket s = b.client()) {
                InputStream in = RawHttp.buffered(s);
                RawHttp.Response est =
                        RawHttp.exchange(in, s.getOutputStream(), UpstreamBench.connect(origin.authority()), true);
                assertEquals(200, est.status());
                assertEquals("1", est.header("X-ProxyPool-Attempts"));
                boolean viaFaulty = b.id(0).equals(est.header("X-ProxyPool-Proxy"));
                try {
                    RawHttp.Response r = RawHttp.exchange(
                            in, s.getOutputStream(), "GET /bytes?n=50000 HTTP/1.1\r\nHost: x\r\n\r\n", false);
                    assertPattern(r.body(), 50_000);
                    assertTrue(!viaFaulty, "a complete answer never comes through the resetting proxy");
                    ok++;
                } catch (IOException expected) {
                    assertTrue(viaFaulty, "only the faulty proxy cuts tunnels: " + expected);
                    cut++;
                }
            }
            // the tunnel's attempt completes (and reports to health) just after the client saw the
            // cut: wait for it, so the next turn's COOLING check sees this failure
            b.assertCapacityBackToZero();
        }
        b.assertCapacityBackToZero();
        print("reset mid-tunnel: " + cut + " tunnels cut, " + ok + " complete; tunnels via faulty "
                + resetting.tunnels()
                + ", via good " + good.tunnels() + ", origin connections "
                + (origin.acceptedConnections() - originConnections)
                + "; state " + b.health(0).state() + " ("
                + b.health(0).status().reason().code() + ")");
        assertEquals(COOL_AFTER, cut);
        assertEquals(cut, resetting.tunnels(), "one CONNECT per cut tunnel: never re-dialled");
        assertEquals(ok, good.tunnels(), "a cut tunnel never moved to the good proxy");
        assertEquals(cut + ok, origin.acceptedConnections() - originConnections, "one origin connection per tunnel");
        assertEquals(HealthState.COOLING, b.health(0).state());
        assertEquals("connection_reset", b.health(0).status().reason().code());
    }

    // ------------------------------------------------------------------ slicing and slow bodies are not faults

    @Test
    void oneByteSlicesAreReassembledExactlyAndAreNoFailure() throws Exception {
        FakeHttpProxy sliced = proxy(Faults.none().slicedWrites());
        UpstreamBench b = bench("", sliced.port());
        assertPattern(
                b.send(UpstreamBench.get(origin.url("/bytes?n=4000")), false).body(), 4000);
        assertPattern(
                b.send(UpstreamBench.get(origin.url("/chunked?n=20000")), false).body(), 20_000);
        RawHttp.Response head = b.send(UpstreamBench.request("HEAD", origin.url("/bytes?n=4000")), true);
        assertEquals(200, head.status());
        assertEquals("4000", head.header("Content-Length"));
        try (Socket s = b.client()) {
            InputStream in = RawHttp.buffered(s);
            assertEquals(
                    200,
                    RawHttp.exchange(in, s.getOutputStream(), UpstreamBench.connect(origin.authority()), true)
                            .status());
            assertPattern(
                    RawHttp.exchange(in, s.getOutputStream(), "GET /bytes?n=3000 HTTP/1.1\r\nHost: x\r\n\r\n", false)
                            .body(),
                    3000);
        }
        b.assertCapacityBackToZero();
        ProxyHealth h = b.health(0);
        print("1-byte slicing: 3 forwarded + 1 tunnelled exchange intact, " + sliced.acceptedConnections()
                + " proxy connections, window failures "
                + h.windowFailures(EmbeddedProxyPool.engineOf(b.pool).ticker().read()));
        assertEquals(HealthState.HEALTHY, h.state());
        assertEquals(
                0, h.windowFailures(EmbeddedProxyPool.engineOf(b.pool).ticker().read()));
    }

    @Test
    void aSlowButSteadyBodyIsRelayedIntactAndAStalledOneCutsTheClientAndCoolsTheProxy() throws Exception {
        FakeHttpProxy steady = proxy(Faults.none().trickleAfter(200, 1000, Duration.ofMillis(40)));
        FakeHttpProxy stalling = proxy(Faults.none().trickleAfter(200, 1, UpstreamBench.IO_TIMEOUT.multipliedBy(3)));
        UpstreamBench b = bench("", stalling.port(), steady.port());
        long t0 = System.nanoTime();
        int cut = 0;
        int ok = 0;
        for (int i = 0; i < 12 && b.health(0).state() != HealthState.COOLING; i++) {
            long before = stalling.requests();
            try {
                RawHttp.Response r = b.send(UpstreamBench.get(origin.url("/bytes?n=20000")), false);
                assertPattern(r.body(), 20_000);
                assertEquals(before, stalling.requests());
                ok++;
            } catch (IOException expected) {
                assertEquals(before + 1, stalling.requests(), "cut after the head: one attempt, not replayed");
                cut++;
            }
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        b.assertCapacityBackToZero();
        print("slow body: " + ok + " trickled bodies intact (1000 B / 40 ms), " + cut + " stalled ones cut after the "
                + UpstreamBench.IO_TIMEOUT.toMillis() + " ms I/O timeout; stalling proxy "
                + b.health(0).state() + " ("
                + b.health(0).status().reason().code() + "), steady proxy "
                + b.health(1).state() + ", " + ms + " ms");
        assertTrue(ok >= COOL_AFTER - 1, "steady bodies delivered: " + ok);
        assertEquals(COOL_AFTER, cut);
        assertEquals(HealthState.COOLING, b.health(0).state());
        assertEquals("slow_body", b.health(0).status().reason().code());
        assertEquals(HealthState.HEALTHY, b.health(1).state());
        assertEquals(
                0,
                b.health(1)
                        .windowFailures(
                                EmbeddedProxyPool.engineOf(b.pool).ticker().read()),
                "slow is not failed");
    }

    // ------------------------------------------------------------------ half-close

    @Test
    void aClientThatHalfClosesAfterItsRequestStillGetsTheWholeResponse() throws Exception {
        FakeHttpProxy p = proxy(Faults.none());
        UpstreamBench b = bench("", p.port());
        try (Socket s = b.client()) {
            OutputStream out = s.getOutputStream();
            out.write(UpstreamBench.get(origin.url("/bytes?n=100000")).getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            s.shutdownOutput();
            RawHttp.Response r = RawHttp.read(RawHttp.buffered(s), false);
            assertEquals(200, r.status());
            assertPattern(r.body(), 100_000);
        }
        try (Socket s = b.client()) { // the same through a tunnel: the half-close travels to the origin and back
            InputStream in = RawHttp.buffered(s);
            assertEquals(
                    200,
                    RawHttp.exchange(in, s.getOutputStream(), UpstreamBench.connect(origin.authority()), true)
                            .status());
            s.getOutputStream()
                    .write("GET /bytes?n=100000 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            s.shutdownOutput();
            assertPattern(RawHttp.read(in, false).body(), 100_000);
            assertEquals(-1, in.read(), "the origin's close comes back as the end of the tunnel");
        }
        b.assertCapacityBackToZero();
        assertEquals(HealthState.HEALTHY, b.health(0).state());
        print("client half-close: forwarded and tunnelled 100,000-byte responses complete after shutdownOutput");
    }

    @Test
    void anUpstreamHalfCloseInATunnelEndsTheClientsInputAndKeepsItsOutputFlowing() throws Exception {
        int prefix = 50;
        FakeHttpProxy halfClosing = proxy(Faults.none().halfCloseAfter(CONNECT_REPLY + prefix));
        UpstreamBench b = bench("", halfClosing.port());
        long requestsBefore = origin.requests();
        try (Socket s = b.client()) {
            InputStream in = RawHttp.buffered(s);
            OutputStream out = s.getOutputStream();
            assertEquals(
                    200,
                    RawHttp.exchange(in, out, UpstreamBench.connect(origin.authority()), true)
                            .status());
            out.write("GET /bytes?n=1000 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            byte[] got = in.readAllBytes(); // until the FIN the proxy sent after `prefix` bytes
            assertEquals(prefix, got.length, "exactly the bytes sent before the half-close");
            assertTrue(new String(got, StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 200 OK"));
            out.write("GET /status/204 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            Await.atMost(Duration.ofSeconds(4))
                    .until("the client's next request at the origin", origin::requests, n -> n >= requestsBefore + 2);
            assertEquals(
                    requestsBefore + 2,
                    origin.requests(),
                    "the client's bytes still reach the origin after the upstream FIN");
            s.shutdownOutput();
        }
        b.assertCapacityBackToZero();
        assertEquals(HealthState.HEALTHY, b.health(0).state(), "a half-close is a normal end, not a failure");
        print("upstream half-close in a tunnel: client read " + prefix
                + " bytes then EOF; its next request still reached the origin");
    }

    // ------------------------------------------------------------------ destination answers are not proxy faults

    @Test
    void aDestinations403Or429NeverCoolsTheProxyItOnlyBansItForThatDomain() throws Exception {
        for (int round = 0; round < 5; round++) { // the race the ban must win is short: try it a few times
            FakeHttpProxy p0 = proxy(Faults.none());
            FakeHttpProxy p1 = proxy(Faults.none());
            UpstreamBench b = bench("", p0.port(), p1.port());
            // no pause between the requests: the ban takes effect before the client reads the 429/403
            assertEquals(
                    429,
                    b.send(UpstreamBench.get(origin.url("/status/429")), false).status());
            assertEquals(
                    403,
                    b.send(UpstreamBench.get(origin.url("/status/403")), false).status());
            RawHttp.Response banned = b.send(UpstreamBench.get(origin.url("/echo")), false);
            assertEquals(503, banned.status(), "both proxies banned for 127.0.0.1, round " + round);
            assertEquals("no_candidate", banned.header("X-ProxyPool-Error"));
            String other = "http://localhost:" + origin.port() + "/echo";
            for (int i = 0; i < 4; i++) {
                assertEquals(200, b.send(UpstreamBench.get(other), false).status(), "other destinations are served");
            }
            long now = EmbeddedProxyPool.engineOf(b.pool).ticker().read();
            for (int i = 0; i < 2; i++) {
                ProxyHealth h = b.health(i);
                assertEquals(HealthState.HEALTHY, h.state());
                assertEquals(HealthReason.Lifecycle.CREATED, h.status().reason(), "never left HEALTHY");
                assertEquals(0, h.windowFailures(now));
                assertEquals(1, h.bannedDomainCount());
                assertTrue(h.isBannedFor("127.0.0.1", now));
                assertTrue(!h.isBannedFor("localhost", now));
            }
            b.assertCapacityBackToZero();
        }
        print("destination 429/403 (5 rounds): both proxies HEALTHY with 0 failures, banned for 127.0.0.1 only"
                + " (503 there at once, 200 for localhost)");
    }

    // ------------------------------------------------------------------ 10,000 tunnels: nothing leaks

    @Test
    @Timeout(240)
    void tenThousandTunnelsLeaveCapacityAndFileDescriptorsAtTheirBaseline() throws Exception {
        FakeHttpProxy good1 = proxy(Faults.none());
        FakeHttpProxy good2 = proxy(Faults.none());
        FakeHttpProxy resetting = proxy(Faults.none().resetAfter(CONNECT_REPLY + 40));
        int refused = TestPorts.closedPort();
        // faulty proxies stay in rotation for 1,000 failures, so a share of the tunnels is cut all along
        UpstreamBench b = bench(
                "passive: { consecutiveFailures: 1000, errorRate: 1.0 }",
                good1.port(),
                good2.port(),
                resetting.port(),
                refused);
        List<FakeServer> servers = List.of(good1, good2, resetting, origin);

        TunnelRun warm = runTunnels(b, 300, 32);
        settle(b, servers);
        long baseline = openFds();
        long originBefore = origin.acceptedConnections();
        long tunnelsBefore = good1.tunnels() + good2.tunnels() + resetting.tunnels();

        FdSampler sampler = new FdSampler();
        long t0 = System.nanoTime();
        TunnelRun run;
        try {
            run = runTunnels(b, TUNNELS, 48);
        } finally {
            sampler.stop();
        }
        long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
        settle(b, servers);
        long after;
        try {
            after = Await.atMost(Duration.ofSeconds(15))
                    .until(
                            "open fds back near the baseline " + baseline,
                            UpstreamFaultsScenarioTest::openFds,
                            n -> n <= baseline + 16);
        } catch (AssertionError notBack) {
            after = openFds(); // reported below with the run's figures, then asserted
        }
        print("10,000 tunnels: " + TUNNELS + " CONNECTs in " + elapsedMs + " ms (48 at a time): " + run.echoed
                + " echoed, "
                + run.cut + " cut by a mid-tunnel reset, " + run.refused
                + " answered 502 (refused dial, retry budget spent), "
                + run.retried.get() + " retried; fds baseline " + baseline + ", peak " + sampler.peak + ", after "
                + after
                + "; warm-up " + warm.total() + "; resetting proxy "
                + b.health(2).state() + ", refusing proxy " + b.health(3).state());
        assertEquals(null, run.error.get(), "unexpected client outcome");
        assertEquals(TUNNELS, run.total());
        // a CONNECT refused by its proxy is retried on another one while the routing's 20% budget lasts
        // (answered 502 only once it is spent), each within the routing's 2 attempts (checked per tunnel)
        assertTrue(run.retried.get() > 0, "refused dials are retried on another proxy");
        assertTrue(run.cut > 0 && run.echoed > TUNNELS / 3, "a mix of outcomes");
        long established = good1.tunnels() + good2.tunnels() + resetting.tunnels() - tunnelsBefore;
        assertEquals(run.echoed + run.cut, established, "one upstream CONNECT per established tunnel");
        assertEquals(
                established,
                origin.acceptedConnections() - originBefore,
                "one origin connection per tunnel: none replayed");
        assertEquals(0, b.engine.inFlight());
        assertEquals(0, EmbeddedProxyPool.engineOf(b.pool).inFlight());
        assertTrue(after <= baseline + 16, "open fds back to the baseline: " + baseline + " -> " + after);
    }

    /** Outcome counts of a batch of tunnels. */
    private static final class TunnelRun {
        int echoed;
        int cut;
        int refused;
        final AtomicInteger retried = new AtomicInteger();
        final AtomicReference<String> error = new AtomicReference<>();

        int total() {
            return echoed + cut + refused;
        }
    }

    /**
     * {@code count} tunnels, {@code parallel} at a time: CONNECT, one 64-byte exchange with the origin
     * through the tunnel, then a graceful (FIN) or abortive (RST) close, alternately.
     */
    private static TunnelRun runTunnels(UpstreamBench b, int count, int parallel) throws InterruptedException {
        TunnelRun run = new TunnelRun();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger echoed = new AtomicInteger();
        AtomicInteger cut = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        String resettingId = b.id(2);
        String refusingId = b.id(3);
        byte[] request = "GET /bytes?n=64 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < parallel; w++) {
            workers.add(Thread.ofVirtual().start(() -> {
                for (int i = next.getAndIncrement(); i < count && run.error.get() == null; i = next.getAndIncrement()) {
                    try (Socket s = b.client()) {
                        s.setSoTimeout(10_000);
                        InputStream in = RawHttp.buffered(s);
                        OutputStream out = s.getOutputStream();
                        RawHttp.Response est =
                                RawHttp.exchange(in, out, UpstreamBench.connect(origin.authority()), true);
                        String via = est.header("X-ProxyPool-Proxy");
                        int attempts = Integer.parseInt(est.header("X-ProxyPool-Attempts"));
                        check(run, attempts >= 1 && attempts <= 2, "attempts " + attempts + " (the routing allows 2)");
                        run.retried.addAndGet(attempts - 1);
                        if (est.status() == 502) {
                            check(run, refusingId.equals(via), "502 from " + via);
                            refused.incrementAndGet();
                            continue;
                        }
                        check(run, est.status() == 200, "CONNECT answered " + est.status());
                        try {
                            out.write(request);
                            out.flush();
                            RawHttp.Response r = RawHttp.read(in, false);
                            check(run, r.body().length == 64 && !resettingId.equals(via), "complete answer via " + via);
                            echoed.incrementAndGet();
                        } catch (IOException e) {
                            check(run, resettingId.equals(via), "tunnel via " + via + " cut: " + e);
                            cut.incrementAndGet();
                            continue;
                        }
                        if (i % 2 == 0) {
                            s.shutdownOutput();
                            check(run, in.read() == -1, "graceful end");
                        } else {
                            s.setSoLinger(true, 0); // abortive close: RST
                        }
                    } catch (IOException e) {
                        run.error.compareAndSet(null, "tunnel " + i + ": " + e);
                    }
                }
            }));
        }
        for (Thread t : workers) {
            t.join(Duration.ofSeconds(200));
        }
        run.echoed = echoed.get();
        run.cut = cut.get();
        run.refused = refused.get();
        return run;
    }

    private static void check(TunnelRun run, boolean ok, String what) {
        if (!ok) {
            run.error.compareAndSet(null, what);
        }
    }

    /** Waits (bounded) until the gateway has nothing in flight and every fake is idle. */
    private static void settle(UpstreamBench b, List<FakeServer> servers) {
        b.assertCapacityBackToZero();
        for (FakeServer s : servers) {
            assertTrue(s.awaitIdle(Duration.ofSeconds(15)), s + " idle");
        }
    }

    private static long openFds() throws IOException {
        try (var files = Files.list(Path.of("/proc/self/fd"))) {
            return files.count();
        }
    }

    /** Samples the open-fd count every 20 ms until stopped; keeps the peak. */
    private static final class FdSampler {
        volatile long peak;
        private volatile boolean running = true;
        private final Thread thread = Thread.ofPlatform().daemon().start(() -> {
            while (running) {
                try {
                    peak = Math.max(peak, openFds());
                    Thread.sleep(20); // the sampling pace, not a wait for a condition
                } catch (IOException | InterruptedException e) {
                    return;
                }
            }
        });

        void stop() throws InterruptedException {
            running = false;
            thread.join(1000);
        }
    }

    private static void assertPattern(byte[] body, int n) {
        assertEquals(n, body.length, "body length");
        byte[] expected = new byte[n];
        for (int i = 0; i < n; i++) {
            expected[i] = FakeOrigin.patternByte(i);
        }
        assertArrayEquals(expected, body, "body bytes");
    }
}
