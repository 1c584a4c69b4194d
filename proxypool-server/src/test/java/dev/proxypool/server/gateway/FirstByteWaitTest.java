package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.testkit.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The wait for a connection's first request byte runs with no read timeout, its deadline kept by the
 * gateway's connection watchdog (FirstByteWait, FirstRequestDeadline): the keep-alive idle close and
 * the SOCKS greeting deadline still hold, within one watchdog period; a wait that ended never shuts a later one down;
 * a head cut after its first bytes still gets its 408.
 */
class FirstByteWaitTest {

    private static final Duration IDLE = Duration.ofMillis(800);
    private static final Duration HEAD = Duration.ofMillis(1_600);

    private TestOrigin origin;
    private GatewayFixture gw;
    private GatewayListener socks;
    private long periodMillis;

    @BeforeEach
    void start() throws IOException {
        origin = TestOrigin.http();
        gw = new GatewayFixture(
                new DirectEngine(),
                ProxyAuthenticator.anonymous(),
                GatewayConfig.DEFAULTS
                        .withIdleTimeout(IDLE)
                        .withRequestHeadTimeout(HEAD)
                        .withFirstRequestTimeout(HEAD));
        socks = GatewayListener.startSocks(gw.listener, InetAddress.getLoopbackAddress(), 0);
        periodMillis = IdleWatchdog.periodFor(IDLE) / 1_000_000;
    }

    @AfterEach
    void stop() {
        socks.stop(Duration.ofSeconds(1));
        gw.close();
        origin.close();
    }

    @Test
    void theSweepPeriodIsAnEighthOfTheShorterTimeout() {
        assertEquals(100, periodMillis, "800 ms / 8");
    }

    @Test
    void anIdleKeepAliveConnectionIsClosedAfterTheIdleTimeout() throws IOException {
        try (RawClient c = gw.client()) {
            // the first request has the first-request deadline; the keep-alive wait after it the idle timeout
            assertEquals(
                    200,
                    c.send("GET http://" + origin.authority() + "/hello HTTP/1.1\r\nHost: " + origin.authority()
                                    + "\r\n\r\n")
                            .read()
                            .status());
            long t0 = System.nanoTime();
            assertTrue(c.closedByServer(), "closed by the server");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms >= IDLE.toMillis() - 50, "not before the idle timeout: " + ms + " ms");
            // one sweep period of lateness is the watchdog's design; the rest is scheduling slack on a loaded machine
            assertTrue(ms < IDLE.toMillis() + periodMillis + 4_000, "closed after " + ms + " ms");
        }
        Await.atMost(Duration.ofSeconds(10))
                .until("the connection no longer counted open", gw.gateway::openConnections, n -> n == 0);
    }

    @Test
    void keepAliveRequestsEachWithinTheIdleTimeoutAreAllServed() throws Exception {
        String get = "GET http://" + origin.authority() + "/hello HTTP/1.1\r\nHost: " + origin.authority() + "\r\n\r\n";
        try (RawClient c = gw.client()) {
            long t0 = System.nanoTime();
            // together longer than the idle timeout: each wait has a deadline of its own, and an expiry
            // decided for an ended wait does not touch the next one
            for (int i = 0; i < 5; i++) {
                assertEquals(200, c.send(get).read().status(), "request " + i);
                Thread.sleep(IDLE.toMillis() / 2); // the client's think time, not a wait for the server
            }
            assertTrue((System.nanoTime() - t0) / 1_000_000 > IDLE.toMillis() * 2);
            assertEquals(200, c.send(get).read().status(), "still open");
        }
        assertEquals(6, origin.requests.get());
    }

    @Test
    void aConnectHeadStuckAfterItsFirstSegmentGets408AtTheHeadDeadline() throws IOException {
        try (RawClient c = gw.client()) {
            long t0 = System.nanoTime();
            c.send("CONNECT " + origin.authority() + " HTTP/1.1\r\nHost: "); // and never the rest
            RawClient.Response r = c.read();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals("HTTP/1.1 408 Request Timeout", r.statusLine());
            assertEquals("request_timeout", r.header("X-ProxyPool-Error"));
            assertTrue(ms >= HEAD.toMillis() - 50, "not before the head deadline: " + ms + " ms");
            assertTrue(ms < HEAD.toMillis() + periodMillis + 4_000, "408 after " + ms + " ms");
            assertTrue(c.closedByServer(), "closed after the 408");
        }
    }

    @Test
    void aSilentSocksClientIsClosedAtTheFirstRequestDeadline() throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), socks.port()), 5_000);
            s.setSoTimeout(10_000);
            long t0 = System.nanoTime(); // the deadline runs from the accept, just before this
            assertEquals(-1, s.getInputStream().read(), "closed without an answer");
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms >= HEAD.toMillis() - 50, "not before the handshake deadline: " + ms + " ms");
            assertTrue(ms < HEAD.toMillis() + periodMillis + 4_000, "closed after " + ms + " ms");
        }
    }
}
