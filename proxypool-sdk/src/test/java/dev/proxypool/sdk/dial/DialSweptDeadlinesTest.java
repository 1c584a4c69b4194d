package dev.proxypool.sdk.dial;

import static dev.proxypool.core.health.FailureKind.CONNECT_TIMEOUT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.FakeServer;
import dev.proxypool.testkit.Faults;
import dev.proxypool.testkit.Pace;
import dev.proxypool.testkit.RawHttp;
import dev.proxypool.testkit.TestPorts;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link UpstreamDialer#withSweptDeadlines()}: tunnels dialed with no socket timeout, their connect
 * and handshake deadlines kept by one sweeper that closes the socket. Same failure table as the timed
 * dialer, the deadlines hold within one sweep period, the dialer it was made from is unchanged.
 */
@Tag("slow")
class DialSweptDeadlinesTest {

    private static final Duration IDLE = Duration.ofSeconds(5);
    /** The slack a loaded test machine adds to a deadline, on top of the designed one-period lateness. */
    private static final long SLACK_MILLIS = 4_000;

    private static UpstreamDialer swept() {
        return ProxyKind.dialer(ProxyKind.shortTimeouts()).withSweptDeadlines();
    }

    private static long periodMillis() {
        return DeadlineSweeper.periodFor(ProxyKind.shortTimeouts()) / 1_000_000;
    }

    @Test
    void anExplicitOptionThatLeavesTheOriginalDialerTimed() {
        UpstreamDialer timed = ProxyKind.dialer(ProxyKind.shortTimeouts());
        UpstreamDialer swept = timed.withSweptDeadlines();
        assertFalse(timed.sweptDeadlines());
        assertTrue(swept.sweptDeadlines());
        assertEquals(timed.policy(), swept.policy());
        assertEquals(50, periodMillis(), "an eighth of the 400 ms timeouts");
        assertEquals(
                DeadlineSweeper.MAX_PERIOD_MILLIS * 1_000_000,
                DeadlineSweeper.periodFor(DialPolicy.DEFAULTS
                        .withConnectTimeout(Duration.ofMinutes(1))
                        .withHandshakeTimeout(Duration.ofMinutes(1))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.proxypool.sdk.dial.DialFailureTest#scenarios")
    void classifiesLikeTheTimedDialerAndLeaksNothing(DialFailureTest.Scenario sc) throws Exception {
        UpstreamDialer dialer = swept();
        try (FakeOrigin origin = FakeOrigin.start();
                FakeServer fake = sc.fake().get()) {
            Proxy proxy = sc.ref() == null ? sc.kind().proxy(fake) : sc.kind().proxy(fake, sc.ref());
            DialException e = assertThrows(
                    DialException.class,
                    () -> dialer.openTunnel(proxy, "127.0.0.1", origin.port()).close());
            assertEquals(sc.expected(), e.kind(), e.getMessage());
            assertEquals(sc.stage(), e.stage(), e.getMessage());
            assertEquals(proxy.id(), e.proxyId());
            assertFalse(e.getMessage().contains("127.0.0.1"), e.getMessage());
            assertTrue(fake.awaitIdle(IDLE), "the dialer left a connection open");
            assertEquals(0, dialer.sweptDeadlinesWatched(), "every deadline settled");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ProxyKind.class)
    void tunnelsStillWorkAndHaveNoReadTimeout(ProxyKind kind) throws Exception {
        UpstreamDialer dialer = swept();
        try (FakeOrigin origin = FakeOrigin.start();
                FakeServer fake = kind.start(Faults.NONE.slicedWrites().latency(Duration.ofMillis(50)));
                TunnelConnection tunnel = dialer.openTunnel(kind.proxy(fake), "127.0.0.1", origin.port())) {
            assertEquals(0, tunnel.socket().getSoTimeout());
            assertEquals(0, dialer.sweptDeadlinesWatched());
            // past both deadlines: a settled deadline never closes the established tunnel
            Pace.sleepMillis(ProxyKind.shortTimeouts().handshakeTimeout().toMillis() + 3 * periodMillis());
            assertFalse(tunnel.socket().isClosed());
            assertEquals(
                    200,
                    RawHttp.get(tunnel.socket(), origin.authority(), "/echo").status());
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = ProxyKind.class,
            names = {"HTTP", "HTTP_AUTH", "SOCKS4", "SOCKS4_USERID", "SOCKS5", "SOCKS5_AUTH"})
    void aProxyThatNeverAnswersFailsAtTheHandshakeDeadline(ProxyKind kind) throws Exception {
        UpstreamDialer dialer = swept();
        try (FakeOrigin origin = FakeOrigin.start();
                FakeServer fake = kind.start(Faults.NONE.hang())) {
            long t0 = System.nanoTime();
            CompletableFuture<DialException> failed = CompletableFuture.supplyAsync(() -> assertThrows(
                    DialException.class, () -> dialer.openTunnel(kind.proxy(fake), "127.0.0.1", origin.port())));
            Await.atMost(Duration.ofSeconds(10))
                    .until(
                            "the handshake deadline to be on the sweeper",
                            () -> dialer.sweptDeadlinesWatched() == 1 || failed.isDone());
            DialException e = failed.get(30, TimeUnit.SECONDS);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(CONNECT_TIMEOUT, e.kind(), e.getMessage());
            assertEquals(DialStage.HANDSHAKE, e.stage(), e.getMessage());
            long handshake = ProxyKind.shortTimeouts().handshakeTimeout().toMillis();
            assertTrue(ms >= handshake - 20, "not before the deadline: " + ms + " ms");
            assertTrue(ms < handshake + periodMillis() + SLACK_MILLIS, "failed after " + ms + " ms");
            assertTrue(fake.awaitIdle(IDLE), "the dialer left a connection open");
        }
    }

    @Test
    void aConnectToABlackholeFailsAtTheConnectDeadline() {
        UpstreamDialer dialer = swept();
        try (var hole = TestPorts.blackhole()) {
            Proxy proxy = Proxy.builder(new ProxyKey(Protocol.SOCKS5, hole.host(), hole.port(), null))
                    .build();
            long t0 = System.nanoTime();
            DialException e = assertThrows(DialException.class, () -> dialer.openTunnel(proxy, "127.0.0.1", 443));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(CONNECT_TIMEOUT, e.kind(), e.getMessage());
            assertEquals(DialStage.CONNECT, e.stage(), e.getMessage());
            long connect = ProxyKind.shortTimeouts().connectTimeout().toMillis();
            assertTrue(ms >= connect - 20, "not before the deadline: " + ms + " ms");
            assertTrue(ms < connect + periodMillis() + SLACK_MILLIS, "failed after " + ms + " ms");
            assertEquals(0, dialer.sweptDeadlinesWatched());
        }
    }
}
