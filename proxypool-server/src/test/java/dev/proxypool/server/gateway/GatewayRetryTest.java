package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.Ticker;
import dev.proxypool.server.gateway.staticupstream.StaticUpstream;
import dev.proxypool.server.gateway.staticupstream.StaticUpstreamEngine;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Retries and upstream chaining with the {@link StaticUpstreamEngine}; the upstream HTTP proxy is
 * a second gateway over a {@link DirectEngine} (a real forward proxy on loopback).
 */
class GatewayRetryTest {

    private TestOrigin origin;
    private DirectEngine upstreamEngine;
    private GatewayFixture upstreamProxy;

    @BeforeEach
    void start() throws IOException {
        origin = TestOrigin.http();
        upstreamEngine = new DirectEngine();
        upstreamProxy = new GatewayFixture(upstreamEngine);
    }

    @AfterEach
    void stop() {
        upstreamProxy.close();
        origin.close();
    }

    private StaticUpstreamEngine engine(StaticUpstream... proxies) {
        return new StaticUpstreamEngine("lab", List.of(proxies), 2_000, 16, Ticker.system());
    }

    private StaticUpstream dead() throws IOException {
        return StaticUpstream.of("dead", "127.0.0.1", FreePort.closed());
    }

    private StaticUpstream live() {
        return StaticUpstream.of("live", "127.0.0.1", upstreamProxy.port());
    }

    @Test
    void getIsRetriedOnTheSecondUpstreamAfterTheFirstFails() throws IOException {
        StaticUpstreamEngine e = engine(dead(), live());
        try (GatewayFixture gw = new GatewayFixture(e);
                RawClient c = gw.client()) {
            for (int i = 0; i < 4; i++) { // round robin starts on each proxy in turn
                RawClient.Response r = c.send("GET " + origin.uri("/hello") + " HTTP/1.1\r\nHost: x\r\n\r\n")
                        .read();
                assertEquals(200, r.status());
                assertEquals("hello", r.text());
                assertEquals("live", r.header("X-ProxyPool-Proxy"));
                assertEquals("lab", r.header("X-ProxyPool-Upstream"));
                assertEquals("static", r.header("X-ProxyPool-Routing"));
                assertTrue(r.header("X-ProxyPool-Attempts").equals("1")
                        || r.header("X-ProxyPool-Attempts").equals("2"));
            }
            GatewayFixture.awaitInFlightZero(e);
        }
    }

    @Test
    void postIsNotRetried() throws IOException {
        StaticUpstreamEngine e = new StaticUpstreamEngine("lab", List.of(dead(), live()), 2_000, 16, Ticker.system());
        try (GatewayFixture gw = new GatewayFixture(e)) {
            int failures = 0;
            for (int i = 0; i < 2; i++) {
                try (RawClient c = gw.client()) {
                    RawClient.Response r = c.send("POST " + origin.uri("/echo") + " HTTP/1.1\r\nHost: x\r\n"
                                    + "Content-Length: 4\r\n\r\nbody")
                            .read();
                    if (r.status() == 502) {
                        failures++;
                        assertEquals("upstream_failed", r.header("X-ProxyPool-Error"));
                        assertEquals("dead", r.header("X-ProxyPool-Proxy"));
                        assertEquals("1", r.header("X-ProxyPool-Attempts"));
                        assertEquals("close", r.header("Connection"), "a failed request with a body closes");
                    } else {
                        assertEquals("body", r.text());
                        assertEquals("1", r.header("X-ProxyPool-Attempts"));
                    }
                }
            }
            assertEquals(1, failures, "one of two POSTs went to the dead proxy and was not retried");
            assertEquals(1, origin.requests.get());
            GatewayFixture.awaitInFlightZero(e);
        }
    }

    @Test
    void everyUpstreamDeadGivesUpstreamFailedAfterMaxAttempts() throws IOException {
        StaticUpstreamEngine e = engine(
                dead(),
                StaticUpstream.of("dead2", "127.0.0.1", FreePort.closed()),
                StaticUpstream.of("dead3", "127.0.0.1", FreePort.closed()));
        try (GatewayFixture gw = new GatewayFixture(
                        e,
                        ProxyAuthenticator.anonymous(),
                        GatewayConfig.builder().maxAttempts(3).build());
                RawClient c = gw.client()) {
            RawClient.Response r = c.send("GET " + origin.uri("/hello") + " HTTP/1.1\r\nHost: x\r\n\r\n")
                    .read();
            assertEquals(502, r.status());
            assertEquals("3", r.header("X-ProxyPool-Attempts"));
            GatewayFixture.awaitInFlightZero(e);
        }
    }

    @Test
    void connectIsChainedThroughTheUpstreamAndRetriedWhenItsDialFails() throws Exception {
        StaticUpstreamEngine e = engine(live());
        try (GatewayFixture gw = new GatewayFixture(e);
                RawClient c = gw.client()) {
            RawClient.Response est = c.send("CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n")
                    .read(true);
            assertEquals(200, est.status());
            assertEquals("live", est.header("X-ProxyPool-Proxy"));
            assertEquals(
                    "hello",
                    c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").read().text());
        }
        StaticUpstreamEngine deadFirst = engine(dead(), live());
        try (GatewayFixture gw = new GatewayFixture(deadFirst);
                RawClient c = gw.client()) {
            // nothing reached the client before the 200: the refused dial is retried on the live proxy
            RawClient.Response r = c.send("CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n")
                    .read(true);
            assertEquals(200, r.status());
            assertEquals("live", r.header("X-ProxyPool-Proxy"));
            assertEquals("2", r.header("X-ProxyPool-Attempts"));
            assertEquals(
                    "hello",
                    c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").read().text());
        }
        GatewayFixture.awaitInFlightZero(deadFirst);
    }

    /** Regression guard: an established tunnel whose upstream dies is closed, never re-dialled. */
    @Test
    void establishedTunnelIsNeverReplayed() throws Exception {
        try (RawOrigin raw = new RawOrigin(h -> "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" + RawOrigin.CLOSE)) {
            StaticUpstreamEngine e = engine(live(), live());
            try (GatewayFixture gw = new GatewayFixture(e);
                    RawClient c = gw.client()) {
                assertEquals(
                        200,
                        c.send("CONNECT " + raw.authority() + " HTTP/1.1\r\n\r\n")
                                .read(true)
                                .status());
                assertEquals(
                        "ok", c.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n").read().text());
                assertTrue(c.closedByServer(), "the tunnel ends with the target's close");
                c.close(); // the client's side ends too, so the tunnel need not wait out its close grace
                GatewayFixture.awaitInFlightZero(e);
            }
            assertEquals(1, raw.connections.get());
            assertEquals(1, raw.heads.size());
        }
    }

    @Test
    void upstreamConnectionsArePooledAndAStaleOneIsReplacedTransparently() throws Exception {
        AtomicBoolean closeAfterNext = new AtomicBoolean();
        // the upstream HTTP proxy: answers every forwarded request, and closes its side after one when told
        try (RawOrigin upstream = new RawOrigin(h -> "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
                + (closeAfterNext.getAndSet(false) ? RawOrigin.CLOSE : ""))) {
            StaticUpstreamEngine e = engine(StaticUpstream.of("live", "127.0.0.1", upstream.port()));
            try (GatewayFixture gw = new GatewayFixture(e);
                    RawClient c = gw.client()) {
                for (int i = 0; i < 5; i++) {
                    assertEquals(
                            "ok",
                            c.send("GET http://example.test/" + i + " HTTP/1.1\r\nHost: example.test\r\n\r\n")
                                    .read()
                                    .text());
                }
                assertEquals(5, upstream.heads.size());
                assertEquals(1, upstream.connections.get(), "one pooled upstream connection carried all five");
                // the upstream closes the pooled connection after its next answer: the link goes stale
                closeAfterNext.set(true);
                assertEquals(
                        "ok",
                        c.send("GET http://example.test/5 HTTP/1.1\r\nHost: example.test\r\n\r\n")
                                .read()
                                .text());
                RawClient.Response r = c.send("GET http://example.test/6 HTTP/1.1\r\nHost: example.test\r\n\r\n")
                        .read();
                assertEquals("ok", r.text());
                assertEquals("1", r.header("X-ProxyPool-Attempts"), "a stale pooled link is not an attempt");
                assertEquals(2, upstream.connections.get(), "a fresh connection replaced the closed one");
                assertEquals(7, upstream.heads.size());
                GatewayFixture.awaitInFlightZero(e);
            }
        }
    }

    @Test
    void upstreamProxyRefusingOurCredentialsIsAFailureNotRelayed() throws IOException {
        try (GatewayFixture authProxy = new GatewayFixture(
                upstreamEngine, ProxyAuthenticator.basic(Map.of("gw", "right")), GatewayConfig.DEFAULTS)) {
            StaticUpstreamEngine e = engine(new StaticUpstream("p-auth", "127.0.0.1", authProxy.port(), "gw", "wrong"));
            try (GatewayFixture gw = new GatewayFixture(e);
                    RawClient c = gw.client()) {
                RawClient.Response r = c.send("GET " + origin.uri("/hello") + " HTTP/1.1\r\nHost: x\r\n\r\n")
                        .read();
                assertEquals(502, r.status());
                assertEquals(null, r.header("Proxy-Authenticate"), "the upstream's 407 is not the client's business");
                r = c.send("CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n")
                        .read();
                assertEquals(502, r.status());
                GatewayFixture.awaitInFlightZero(e);
            }
            StaticUpstreamEngine ok =
                    engine(new StaticUpstream("p-auth", "127.0.0.1", authProxy.port(), "gw", "right"));
            try (GatewayFixture gw = new GatewayFixture(ok);
                    RawClient c = gw.client()) {
                assertEquals(
                        "hello",
                        c.send("GET " + origin.uri("/hello") + " HTTP/1.1\r\nHost: x\r\n\r\n")
                                .read()
                                .text());
                assertEquals(
                        200,
                        c.send("CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n")
                                .read(true)
                                .status());
            } // closing the client ends the tunnel; the fixture then checks in-flight is back to 0
        }
    }

    @Test
    void retryAddsTriedProxyToTheRouteRequest() throws Exception {
        List<List<String>> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        DirectEngine direct = new DirectEngine();
        GatewayEngine recording = new GatewayEngine() {
            @Override
            public RouteDecision route(RouteRequest request) {
                seen.add(request.triedProxyIds());
                return direct.route(request);
            }

            @Override
            public int inFlight() {
                return direct.inFlight();
            }
        };
        try (GatewayFixture gw = new GatewayFixture(recording);
                RawClient c = gw.client()) {
            c.send("GET http://127.0.0.1:" + FreePort.closed() + "/ HTTP/1.1\r\nHost: x\r\n\r\n")
                    .read();
        }
        assertEquals(List.of(List.of(), List.of("direct")), seen);
    }
}
