package dev.proxypool.server.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.HealthReason;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.server.gateway.ExchangeRecord;
import dev.proxypool.server.gateway.ExchangeResult;
import dev.proxypool.server.gateway.GatewayConfig;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.Faults;
import dev.proxypool.testkit.RawHttp;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stalled upstream (accepts, reads the request, never answers) through the real gateway: an
 * idempotent request (RFC 9110: GET, HEAD, OPTIONS, TRACE, PUT, DELETE; without a body, or with one of at
 * most 64 KiB, which the gateway then reads first and keeps) whose first
 * response byte has not come within {@code gateway.firstByteTimeout} is retried on another proxy, as a
 * refused connection is, long before {@code gateway.ioTimeout}; the stalled proxy is blamed
 * ({@code slow_body}) and cools after {@code consecutiveFailures} (3). A POST is not replayed: it waits
 * out {@code ioTimeout} and gets {@code 504 upstream_timeout} after one attempt.
 */
@Tag("slow")
class StalledUpstreamTest {

    private static final Duration FIRST_BYTE = Duration.ofMillis(800);
    private static final Duration IO = Duration.ofSeconds(4);
    private static final int COOL_AFTER = 3;

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

    private UpstreamBench bench(FakeHttpProxy... proxies) {
        List<dev.proxypool.core.model.ProxyKey> keys = new ArrayList<>();
        for (FakeHttpProxy p : proxies) {
            keys.add(UpstreamBench.key(Protocol.HTTP, p.port()));
        }
        UpstreamBench b = new UpstreamBench(
                dir,
                "",
                keys,
                256,
                GatewayConfig.builder()
                        .maxAttempts(10)
                        .ioTimeout(IO)
                        .firstByteTimeout(FIRST_BYTE)
                        .build());
        open.add(b);
        return b;
    }

    /**
     * The other side of a stall: a client that stops reading a large response. Reading from the proxy is
     * paused for it (backpressure), so when {@code ioTimeout} passes the wait is the client's: the client
     * is cut, the proxy is not blamed, as often as it would have cooled for a stall of its own.
     */
    @Test
    void aClientThatStopsReadingIsCutAndTheProxyIsNotBlamed() throws Exception {
        FakeHttpProxy good = proxy(Faults.none());
        UpstreamBench b = bench(good);
        long size = 200L << 20; // far more than the socket buffers on the way hold
        for (int turn = 1; turn <= COOL_AFTER; turn++) {
            int before = b.exchanges.size();
            try (Socket s = new Socket()) {
                s.setReceiveBufferSize(4096);
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), b.port()), 5_000);
                s.setSoTimeout(30_000);
                s.getOutputStream()
                        .write(UpstreamBench.get(origin.url("/bytes?n=" + size)).getBytes(StandardCharsets.US_ASCII));
                InputStream in = s.getInputStream();
                byte[] first = new byte[1024];
                assertTrue(in.read(first) > 0, "turn " + turn + ": the response started");
                // the client reads nothing more until the gateway has given the exchange up
                int t = turn;
                Await.atMost(IO.plusSeconds(10))
                        .until("turn " + t + ": the exchange to end", b.exchanges::size, n -> n > before);
                long read = first.length + in.transferTo(OutputStream.nullOutputStream());
                assertTrue(read < size, "turn " + turn + ": the client was cut, after " + read + " bytes");
            }
            ExchangeRecord e = b.exchanges.stream().skip(before).findFirst().orElseThrow();
            assertEquals(ExchangeResult.ABORTED, e.result(), "turn " + turn);
            assertEquals(HealthState.HEALTHY, b.health(0).state(), "turn " + turn + ": the proxy is not blamed");
        }
        assertEquals(HealthState.HEALTHY, b.health(0).state(), COOL_AFTER + " stopped clients cool nothing");
        b.assertCapacityBackToZero();
    }

    @Test
    void idempotentRequestsLeaveAStalledProxyAfterTheFirstByteTimeoutAndItCools() throws Exception {
        FakeHttpProxy stalled = proxy(Faults.none().hang());
        FakeHttpProxy good = proxy(Faults.none());
        UpstreamBench b = bench(stalled, good);
        ProxyHealth health = b.health(0);
        List<String> methods = List.of("GET", "DELETE", "OPTIONS", "HEAD");
        int requests = 0;
        int retried = 0;
        while (health.state() != HealthState.COOLING && requests < 20) {
            String method = methods.get(requests % methods.size());
            boolean head = method.equals("HEAD");
            long t0 = System.nanoTime();
            RawHttp.Response r = b.send(UpstreamBench.request(method, origin.url("/bytes?n=300")), head);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            requests++;
            assertEquals(200, r.status(), method + ", request " + requests);
            assertEquals(b.id(1), r.header("X-ProxyPool-Proxy"), "answered by the good proxy");
            int attempts = Integer.parseInt(r.header("X-ProxyPool-Attempts"));
            if (attempts == 2) {
                retried++;
                assertTrue(
                        ms >= FIRST_BYTE.toMillis() - 50 && ms < IO.toMillis() - 1_000,
                        method + " left the stalled proxy after the first-byte timeout, not the I/O timeout: " + ms
                                + " ms");
            } else {
                assertEquals(1, attempts);
            }
        }
        assertEquals(HealthState.COOLING, health.state(), "cooled after " + requests + " requests");
        HealthReason.Failure why =
                assertInstanceOf(HealthReason.Failure.class, health.status().reason());
        assertEquals("slow_body", why.code());
        assertEquals(COOL_AFTER, retried, "each stall cost exactly one retry");
        assertEquals(COOL_AFTER, stalled.acceptedConnections(), "none sent to it after it cooled");
        assertEquals(HealthState.HEALTHY, b.health(1).state());
        b.assertCapacityBackToZero();
    }

    @Test
    void aPutWithASmallBodyIsKeptAndReplayedOnAnotherProxyAfterTheFirstByteTimeout() throws Exception {
        FakeHttpProxy stalled = proxy(Faults.none().hang());
        FakeHttpProxy good = proxy(Faults.none());
        UpstreamBench b = bench(stalled, good);
        String put = "PUT " + origin.url("/echo") + " HTTP/1.1\r\nHost: " + origin.authority()
                + "\r\nContent-Length: 7\r\n\r\npayment";
        int replayed = 0;
        for (int i = 0; i < 4 && replayed == 0; i++) { // round robin: until the stalled proxy's turn
            long t0 = System.nanoTime();
            RawHttp.Response r = b.send(put, false);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(200, r.status(), "request " + i);
            assertEquals(b.id(1), r.header("X-ProxyPool-Proxy"), "answered by the good proxy");
            assertTrue(r.bodyText().contains("\"Content-Length\": \"7\""), r.bodyText());
            if ("2".equals(r.header("X-ProxyPool-Attempts"))) {
                replayed++;
                assertTrue(ms < IO.toMillis() - 1_000, "replayed after the first-byte timeout: " + ms + " ms");
            }
        }
        assertEquals(1, replayed, "the PUT that met the stalled proxy was replayed with its body");
        assertEquals(1, stalled.acceptedConnections());
        b.assertCapacityBackToZero();
    }

    @Test
    void aPostToAStalledProxyIsNotReplayedAndGets504AfterTheIoTimeout() throws Exception {
        FakeHttpProxy stalled = proxy(Faults.none().hang());
        FakeHttpProxy good = proxy(Faults.none());
        UpstreamBench b = bench(stalled, good);
        String post = "POST " + origin.url("/echo") + " HTTP/1.1\r\nHost: " + origin.authority()
                + "\r\nContent-Length: 7\r\n\r\npayment";
        RawHttp.Response r = null;
        long ms = 0;
        for (int i = 0; i < 4 && (r == null || r.status() == 200); i++) { // round robin: the stalled proxy's turn
            long t0 = System.nanoTime();
            r = b.send(post, false);
            ms = (System.nanoTime() - t0) / 1_000_000;
        }
        assertEquals(504, r.status());
        assertEquals("upstream_timeout", r.header("X-ProxyPool-Error"));
        assertEquals("1", r.header("X-ProxyPool-Attempts"), "never replayed");
        assertEquals(b.id(0), r.header("X-ProxyPool-Proxy"));
        assertTrue(ms >= IO.toMillis() - 100, "waited the I/O timeout, not the first-byte timeout: " + ms + " ms");
        assertEquals(1, stalled.acceptedConnections(), "the stalled proxy saw it once");
        b.assertCapacityBackToZero();
    }
}
