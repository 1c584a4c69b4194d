package dev.proxypool.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.server.gateway.DirectEngine;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The whole process: gateway listener beside the Helidon REST listener, observe endpoints, stop. */
class GatewayServerTest {

    @Test
    void servesGatewayEchoHealthAndMetricsThenStops() throws Exception {
        DirectEngine engine = new DirectEngine();
        GatewayServer server =
                GatewayServer.builder(engine).gatewayPort(0).apiPort(0).start();
        int gatewayPort = server.gatewayPort();
        try (HttpClient direct = HttpClient.newHttpClient();
                HttpClient viaGateway = HttpClient.newBuilder()
                        .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", gatewayPort)))
                        .build()) {
            String api = "http://127.0.0.1:" + server.apiPort();

            HttpResponse<String> echo = direct.send(
                    HttpRequest.newBuilder(URI.create(api + "/v1/echo"))
                            .header("X-Probe", "a\"b")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, echo.statusCode());
            assertEquals(
                    "application/json",
                    echo.headers().firstValue("Content-Type").orElseThrow());
            assertTrue(echo.body().startsWith("{\"ip\":\"127.0.0.1\",\"headers\":{"), echo.body());
            assertTrue(echo.body().contains("\"X-Probe\":\"a\\\"b\""), echo.body());

            // the gateway forwards to the server's own echo endpoint: the echo sees the gateway as peer
            HttpResponse<String> proxied = viaGateway.send(
                    HttpRequest.newBuilder(URI.create(api + "/v1/echo")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, proxied.statusCode());
            assertEquals(
                    "direct", proxied.headers().firstValue("X-ProxyPool-Proxy").orElseThrow());
            assertTrue(!proxied.body().contains("Proxy-Connection"), proxied.body());

            HttpResponse<String> health = direct.send(
                    HttpRequest.newBuilder(URI.create(api + "/observe/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, health.statusCode());
            assertTrue(health.body().contains("\"name\":\"gateway\""), health.body());
            assertTrue(health.body().contains("\"status\":\"UP\""), health.body());

            HttpResponse<String> metrics = direct.send(
                    HttpRequest.newBuilder(URI.create(api + "/observe/metrics"))
                            .header("Accept", "text/plain")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, metrics.statusCode());
            String m = metrics.body();
            assertTrue(m.contains("proxypool_gateway_requests_total{kind=\"http\",result=\"ok\""), m);
            assertTrue(m.contains("proxypool_gateway_latency_seconds"), m);
            assertTrue(m.contains("proxypool_gateway_inflight"), m);
            assertTrue(m.contains("proxypool_gateway_errors_total{reason=\"no_candidate\""), m);
            assertTrue(!m.contains("127.0.0.1"), "no address in any metric");
        } finally {
            server.stop();
        }
        assertEquals(0, engine.inFlight());
        assertThrows(
                ConnectException.class,
                () -> new Socket("127.0.0.1", gatewayPort).close(),
                "the gateway port no longer accepts");
    }

    @Test
    void badPortIsRefusedWithTheKeyName() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> GatewayServer.builder(new DirectEngine()).gatewayPort(70000));
        assertTrue(e.getMessage().contains("server.gatewayPort"), e.getMessage());
    }
}
