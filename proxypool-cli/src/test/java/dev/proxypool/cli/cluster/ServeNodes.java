package dev.proxypool.cli.cluster;

import dev.proxypool.cli.ServeProcess;
import dev.proxypool.testkit.PrivateRedisServer;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code proxypool serve} processes of one multi-process cluster test, with the PostgreSQL
 * schema they share, and the ways the tests talk to them: through a node's gateway, its Admin API
 * and its observe endpoints. {@link #close()} kills every process it started, then drops the schema;
 * opened first in a test's resources, it closes last, after the Redis and fakes the nodes use.
 */
final class ServeNodes implements AutoCloseable {

    /** The admin token every cluster test config sets ({@code admin.token}). */
    static final String ADMIN = "Bearer admin-token-0123456789";

    /** A started node: its process and the loopback ports of its gateway and API. */
    record Node(Process process, int gatewayPort, int apiPort) {}

    private final String schema;
    private final List<Process> processes = new ArrayList<>();

    private ServeNodes(String schema) {
        this.schema = schema;
    }

    /** Creates a fresh schema in the {@code test} database for the nodes' configuration store. */
    static ServeNodes withNewSchema() throws Exception {
        String schema = "pp_test_" + HexFormat.of().formatHex(SecureRandom.getSeed(6));
        sql("CREATE SCHEMA " + schema);
        return new ServeNodes(schema);
    }

    /** The schema's name, for the configs' {@code database.url}. */
    String schema() {
        return schema;
    }

    /** Starts {@code proxypool serve --config cfg --role role} on free ports (returns once it listens). */
    Node serve(Path cfg, String role) throws Exception {
        int gw = PrivateRedisServer.freePort();
        int api = PrivateRedisServer.freePort();
        ServeProcess started =
                ServeProcess.start(List.of(), null, gw, api, List.of("--config", cfg.toString(), "--role", role));
        processes.add(started.process());
        return new Node(started.process(), gw, api);
    }

    @Override
    public void close() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
        sql("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }

    /** A GET of {@code target} through the node's gateway, with {@code X-Route: route}. */
    static HttpResponse<String> viaGateway(Node n, URI target, String route) throws Exception {
        try (HttpClient c = HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", n.gatewayPort())))
                .build()) {
            return c.send(
                    HttpRequest.newBuilder(target)
                            .header("X-Route", route)
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    /** An Admin API call with the admin token; {@code body} null sends none. */
    static HttpResponse<String> admin(Node n, String method, String path, String body) throws Exception {
        try (HttpClient api = HttpClient.newHttpClient()) {
            return api.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + n.apiPort() + path))
                            .header("Authorization", ADMIN)
                            .header("Content-Type", "application/json")
                            .timeout(Duration.ofSeconds(20))
                            .method(
                                    method,
                                    body == null
                                            ? HttpRequest.BodyPublishers.noBody()
                                            : HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }

    /** The body of an unauthenticated GET of the node's API. */
    static String get(Node n, String path) throws Exception {
        try (HttpClient api = HttpClient.newHttpClient()) {
            return api.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + n.apiPort() + path))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
        }
    }

    /** The node's {@code /observe/health} body. */
    static String health(Node n) throws Exception {
        return get(n, "/observe/health");
    }

    /** Runs one statement on the {@code test} database. */
    static void sql(String statement) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/test", "postgres", "");
                Statement st = c.createStatement()) {
            st.execute(statement);
        }
    }
}
