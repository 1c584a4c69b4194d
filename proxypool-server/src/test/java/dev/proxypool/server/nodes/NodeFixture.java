package dev.proxypool.server.nodes;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.nodes.NodeSettings;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.contract.OpenApiContract;
import io.helidon.webserver.WebServer;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real Helidon WebServer on a free loopback port with {@link NodeService} registered at
 * {@link NodeService#PATH}, over a {@link ProxyPool} whose wall clock and the registry's clock are
 * one {@link ManualClock}.
 */
final class NodeFixture implements AutoCloseable {

    static final String ADMIN = "Bearer admin-secret";
    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    static final NodeSettings SETTINGS = new NodeSettings(
            Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(10), Duration.ofSeconds(2));

    final ManualClock clock;
    final ProxyPool pool;
    final NodeRegistry registry;
    final WebServer server;
    final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    final URI base;

    NodeFixture() {
        this(NodeStore.NONE, new ManualClock(START));
    }

    /** A control plane over {@code store} (restored from it), judging time by {@code clock}. */
    NodeFixture(NodeStore store, ManualClock clock) {
        this.clock = clock;
        pool = ProxyPool.builder().background(false).clocks(clock, clock).build();
        registry = new NodeRegistry(pool, clock, SETTINGS, store).restore();
        NodeService service = new NodeService(registry, ADMIN::equals);
        server = WebServer.builder()
                .address(InetAddress.getLoopbackAddress())
                .port(0)
                .shutdownHook(false)
                .routing(r -> r.register(NodeService.PATH, service))
                .build()
                .start();
        base = URI.create("http://127.0.0.1:" + server.port() + NodeService.PATH);
    }

    HttpResponse<String> send(String method, String path, String authorization, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(20))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        HttpRequest request = b.build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        OpenApiContract.get().check(request, body, response);
        return response;
    }

    /** Issues a token through the admin API. */
    String issue(String name) throws Exception {
        HttpResponse<String> r = send("POST", "/tokens", ADMIN, "{\"name\": \"" + name + "\"}");
        if (r.statusCode() != 201) {
            throw new AssertionError("issue: " + r.statusCode() + " " + r.body());
        }
        return field(r.body(), "token");
    }

    HttpResponse<String> register(String token, String host, int port) throws Exception {
        return send(
                "POST",
                "",
                null,
                "{\"token\": \"" + token + "\", \"host\": \"" + host + "\", \"port\": " + port
                        + ", \"protocol\": \"http\", \"labels\": {\"region\": \"eu\"}, \"maxConcurrency\": 5}");
    }

    /** A registration with {@code extra} JSON members appended (e.g. {@code "weight": 3}). */
    HttpResponse<String> register(String token, String host, int port, String labels, String extra) throws Exception {
        return send(
                "POST",
                "",
                null,
                "{\"token\": \"" + token + "\", \"host\": \"" + host + "\", \"port\": " + port
                        + ", \"protocol\": \"http\", \"labels\": " + labels + (extra.isEmpty() ? "" : ", " + extra)
                        + "}");
    }

    /** The node proxy {@code proxyId} in the live snapshot. */
    Proxy inSnapshot(String proxyId) {
        return inSnapshot().stream()
                .filter(p -> p.id().equals(proxyId))
                .findFirst()
                .orElseThrow(() -> new AssertionError("not in the snapshot: " + proxyId));
    }

    HttpResponse<String> heartbeat(String nodeId, String credential, String body) throws Exception {
        return send("POST", "/" + nodeId + "/heartbeat", credential == null ? null : "Bearer " + credential, body);
    }

    /** Node proxies in the live snapshot. */
    List<Proxy> inSnapshot() {
        List<Proxy> out = new ArrayList<>();
        for (Proxy p : EmbeddedProxyPool.engineOf(pool).snapshot().proxies()) {
            if (p.upstream().equals(NodeRegistry.UPSTREAM)) {
                out.add(p);
            }
        }
        return out;
    }

    /** A string or number field of a flat JSON object. */
    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*(\"([^\"]*)\"|([0-9]+))")
                .matcher(json);
        if (!m.find()) {
            throw new AssertionError("no field " + name + " in " + json);
        }
        return m.group(2) != null ? m.group(2) : m.group(3);
    }

    @Override
    public void close() {
        registry.close();
        http.close();
        server.stop();
        pool.close();
    }
}
