package dev.proxypool.server.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.HealthReason;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.FakeServer;
import dev.proxypool.testkit.FakeSocks4Proxy;
import dev.proxypool.testkit.FakeSocks5Proxy;
import dev.proxypool.testkit.NotAProxy;
import dev.proxypool.testkit.RawHttp;
import dev.proxypool.testkit.TestPorts;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who is blamed for an upstream's answer, end to end through the real gateway ({@link UpstreamBench}):
 * a working proxy that cannot (or will not) reach one destination — HTTP {@code CONNECT} answered
 * 500/403/404, SOCKS5 replies 4/5, SOCKS4 91 — stays HEALTHY and keeps serving every other
 * destination, however often that one destination is asked for; only
 * {@code health.passive.distinctTargetFailures} <em>different</em> destinations failing in a row
 * blame the proxy. A 407, a refused connection, or garbage are still the proxy's fault.
 */
@Timeout(120)
class TargetSideFailuresTest {

    /** More than minSamples (20): the error-rate rule would have cooled the proxy if these counted. */
    private static final int REPEATS = 25;

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

    private <T extends AutoCloseable> T track(T c) {
        open.add(c);
        return c;
    }

    private UpstreamBench bench(String health, ProxyKey... keys) {
        return track(new UpstreamBench(dir, health, List.of(keys)));
    }

    /** One CONNECT on a fresh client connection; when established, a GET through the tunnel must work. */
    private static int connect(UpstreamBench b, String authority) throws IOException {
        try (Socket s = b.client()) {
            InputStream in = RawHttp.buffered(s);
            RawHttp.Response r = RawHttp.exchange(in, s.getOutputStream(), UpstreamBench.connect(authority), true);
            if (r.status() == 200) {
                RawHttp.Response inner = RawHttp.exchange(
                        in, s.getOutputStream(), "GET /bytes?n=500 HTTP/1.1\r\nHost: x\r\n\r\n", false);
                assertEquals(200, inner.status(), "a request through the established tunnel");
                assertEquals(500, inner.body().length);
            }
            return r.status();
        }
    }

    /** The status the gateway answered, after the attempt has reported to health. */
    private static int connectSettled(UpstreamBench b, String authority) throws IOException {
        int status = connect(b, authority);
        b.assertCapacityBackToZero(); // the attempt completes (and reports) just after the client's answer
        return status;
    }

    private static ProxyKey key(Protocol protocol, FakeServer s) {
        return UpstreamBench.key(protocol, s.port());
    }

    // ------------------------------------------------------------------ HTTP CONNECT 500 / 403 / 404

    @Test
    void connectRefusedWith500Or404ByAWorkingProxyKeepsTheOnlyProxyHealthyAndServing() throws Exception {
        FakeHttpProxy squidLike = track(FakeHttpProxy.builder()
                .refuse("nonexistent.invalid", 500) // squid: a name that does not resolve
                .refuse("gone.invalid", 404)
                .start());
        UpstreamBench b = bench("", key(Protocol.HTTP, squidLike));
        ProxyHealth health = b.health(0);
        for (int i = 0; i < REPEATS; i++) {
            assertEquals(
                    502, connectSettled(b, i % 3 == 2 ? "gone.invalid:443" : "nonexistent.invalid:443"), "turn " + i);
            assertEquals(
                    HealthState.HEALTHY, health.state(), "turn " + i + ": the destination's failure, not the proxy's");
            // a good destination in between works at once: the proxy was never out of service
            if (i % 5 == 4) {
                assertEquals(200, connectSettled(b, origin.authority()));
            }
        }
        assertEquals(200, connectSettled(b, origin.authority()));
        assertEquals(HealthState.HEALTHY, health.state());
        assertEquals(0, health.passiveFailureStreak());
        assertEquals(
                0,
                health.windowFailures(
                        EmbeddedProxyPool.engineOf(b.pool).ticker().read()));
        assertFalse(
                health.isBannedFor(
                        "nonexistent.invalid",
                        EmbeddedProxyPool.engineOf(b.pool).ticker().read()),
                "unreachable is not a ban: the destination may come back");
    }

    @Test
    void connectRefusedWith403BansThatDomainOnlyAndTheProxyStaysHealthy() throws Exception {
        FakeHttpProxy acl =
                track(FakeHttpProxy.builder().refuse("blocked.example", 403).start());
        UpstreamBench b = bench("", key(Protocol.HTTP, acl));
        ProxyHealth health = b.health(0);
        assertEquals(502, connectSettled(b, "blocked.example:443"));
        long now = EmbeddedProxyPool.engineOf(b.pool).ticker().read();
        assertTrue(health.isBannedFor("blocked.example", now), "the ACL's refusal bans the proxy for that domain");
        assertFalse(health.isBannedFor(origin.host(), now));
        assertEquals(HealthState.HEALTHY, health.state());
        assertEquals(503, connectSettled(b, "blocked.example:443"), "banned for that domain: no candidate for it");
        assertEquals(1, acl.requests(), "the ban kept the second request off the refusing proxy");
        for (int i = 0; i < 3; i++) {
            assertEquals(200, connectSettled(b, origin.authority()), "every other destination is served");
        }
        assertEquals(HealthState.HEALTHY, health.state());
    }

    // ------------------------------------------------------------------ SOCKS replies about the target

    @Test
    void socks5HostUnreachableAndConnectionRefusedKeepTheProxyHealthy() throws Exception {
        int closed = TestPorts.closedPort();
        FakeSocks5Proxy socks = track(
                FakeSocks5Proxy.builder().refuse("nonexistent.invalid", 0x04).start());
        UpstreamBench b = bench("", key(Protocol.SOCKS5, socks));
        ProxyHealth health = b.health(0);
        for (int i = 0; i < REPEATS; i++) {
            // 0x04 host unreachable (forced for a name), 0x05 the target refused (a real closed port)
            String target = i % 2 == 0 ? "nonexistent.invalid:443" : "127.0.0.1:" + closed;
            assertEquals(502, connectSettled(b, target), "turn " + i);
            assertEquals(HealthState.HEALTHY, health.state(), "turn " + i);
        }
        assertEquals(200, connectSettled(b, origin.authority()));
        assertEquals(HealthState.HEALTHY, health.state());
        assertEquals(
                0,
                health.windowFailures(
                        EmbeddedProxyPool.engineOf(b.pool).ticker().read()));
    }

    @Test
    void socks4RequestRejectedOrFailedKeepsTheProxyHealthy() throws Exception {
        int closed = TestPorts.closedPort();
        FakeSocks4Proxy socks = track(FakeSocks4Proxy.builder().start());
        UpstreamBench b = bench("", key(Protocol.SOCKS4, socks));
        ProxyHealth health = b.health(0);
        for (int i = 0; i < REPEATS; i++) {
            assertEquals(502, connectSettled(b, "127.0.0.1:" + closed), "turn " + i); // 91: rejected or failed
            assertEquals(HealthState.HEALTHY, health.state(), "turn " + i);
        }
        assertEquals(200, connectSettled(b, origin.authority()));
        assertEquals(HealthState.HEALTHY, health.state());
    }

    // ------------------------------------------------------------------ the proxy IS at fault

    @Test
    void aProxyRefusingDifferentDestinationsInARowIsCooled() throws Exception {
        FakeHttpProxy broken = track(FakeHttpProxy.builder().forceStatus(500).start()); // its own uplink is down
        UpstreamBench b = bench("passive: { distinctTargetFailures: 4 }", key(Protocol.HTTP, broken));
        ProxyHealth health = b.health(0);
        for (int d = 1; d <= 3; d++) {
            for (int repeat = 0; repeat < 3; repeat++) { // repeats of one destination add nothing
                assertEquals(502, connectSettled(b, "site-" + d + ".example:443"));
            }
        }
        assertEquals(HealthState.HEALTHY, health.state(), "three different destinations, threshold 4");
        assertEquals(3, health.targetFailureStreak());
        assertEquals(502, connectSettled(b, "site-4.example:443"));
        assertEquals(HealthState.COOLING, health.state());
        HealthReason.Failure why =
                assertInstanceOf(HealthReason.Failure.class, health.status().reason());
        assertEquals(HealthReason.Trigger.DISTINCT_TARGETS_FAILED, why.trigger());
        assertEquals(FailureKind.UPSTREAM_UNREACHABLE, why.kind());
        assertEquals(503, connectSettled(b, origin.authority()), "no candidate left while it cools");
    }

    @Test
    void a407StillDisablesTheProxy() throws Exception {
        FakeHttpProxy guarded =
                track(FakeHttpProxy.builder().basicAuth("user", "secret").start());
        UpstreamBench b = bench("", key(Protocol.HTTP, guarded)); // no credentialRef: the proxy answers 407
        assertEquals(502, connectSettled(b, origin.authority()));
        ProxyHealth health = b.health(0);
        assertEquals(HealthState.DISABLED, health.state());
        assertEquals(
                FailureKind.PROXY_AUTH_REJECTED,
                ((HealthReason.Failure) health.status().reason()).kind());
    }

    @Test
    void refusedConnectionsAndGarbageStillCoolTheProxyAfterThree() throws Exception {
        NotAProxy garbage = track(NotAProxy.start(NotAProxy.Behaviour.GARBAGE));
        int refused = TestPorts.closedPort();
        UpstreamBench b = bench("", key(Protocol.HTTP, garbage), UpstreamBench.key(Protocol.HTTP, refused));
        for (int i = 0; i < 6; i++) { // round robin: three attempts on each
            connectSettled(b, origin.authority());
        }
        for (int i = 0; i < 2; i++) {
            ProxyHealth h = b.health(i);
            assertEquals(HealthState.COOLING, h.state(), "proxy " + i);
            HealthReason.Failure why =
                    assertInstanceOf(HealthReason.Failure.class, h.status().reason());
            assertEquals(HealthReason.Trigger.CONSECUTIVE_FAILURES, why.trigger());
            assertEquals(
                    i == 0 ? FailureKind.PROTOCOL_ERROR : FailureKind.CONNECTION_REFUSED, why.kind(), "proxy " + i);
        }
    }
}
