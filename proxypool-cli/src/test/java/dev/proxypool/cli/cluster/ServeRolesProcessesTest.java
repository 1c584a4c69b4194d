package dev.proxypool.cli.cluster;

import static dev.proxypool.cli.cluster.ServeNodes.ADMIN;
import static dev.proxypool.cli.cluster.ServeNodes.admin;
import static dev.proxypool.cli.cluster.ServeNodes.health;
import static dev.proxypool.cli.cluster.ServeNodes.viaGateway;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.cli.cluster.ServeNodes.Node;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.Pace;
import dev.proxypool.testkit.PrivateRedisServer;
import dev.proxypool.testkit.TcpRelay;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real processes: one {@code proxypool serve --role control} and two {@code --role worker}
 * JVMs on loopback, sharing a Redis (pool, snapshots) and a PostgreSQL schema (configuration).
 * A routing added through the control plane's Admin API reaches both workers' gateways
 * (propagation printed); a dropped snapshot delta makes both workers resync from the full snapshot;
 * with PostgreSQL cut off from the control plane every admin write answers {@code 503} and the
 * configuration read back afterwards is exactly the one before (no partial write) while gateway
 * traffic is unaffected; with the control process killed, both workers keep serving within the
 * snapshot's validity period and a proxy whose TTL ends meanwhile drops out of their pools.
 */
@Tag("slow")
class ServeRolesProcessesTest {

    @TempDir
    Path dir;

    private static String routing(HttpResponse<?> r) {
        return r.headers().firstValue("X-ProxyPool-Routing").orElse("");
    }

    private static HttpResponse<String> awaitServing(Node n, URI target, String routing, long seconds)
            throws Exception {
        return awaitServing(n, target, "new", routing, seconds);
    }

    private static HttpResponse<String> awaitServing(Node n, URI target, String route, String routing, long seconds)
            throws Exception {
        return Await.atMost(Duration.ofSeconds(seconds))
                .until(
                        "a 200 via routing " + routing + " from port " + n.gatewayPort()
                                + " (an IOException: not up yet)",
                        () -> viaGateway(n, target, route),
                        r -> r.statusCode() == 200 && routing(r).equals(routing));
    }

    @Test
    void aControlAndTwoWorkersShareSnapshotsAndConfiguration() throws Exception {
        try (ServeNodes nodes = ServeNodes.withNewSchema();
                PrivateRedisServer redis = PrivateRedisServer.start();
                TcpRelay workersRedis = new TcpRelay(redis.port());
                TcpRelay controlDatabase = new TcpRelay(5432);
                FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy upstream = FakeHttpProxy.start();
                FakeHttpProxy shortLived = FakeHttpProxy.start()) {
            Files.writeString(
                    dir.resolve("inv.jsonl"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + upstream.port()
                            + ", \"protocol\": \"http\", \"maxConcurrency\": 100}\n");
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1 }
                    store: { type: redis, uri: "redis://127.0.0.1:%d", keyPrefix: "pp:" }
                    database: { type: postgres, url: "jdbc:postgresql://127.0.0.1:5432/test?currentSchema=%s", user: postgres }
                    admin: { token: admin-token-0123456789 }
                    providers: [{ name: lab, type: jsonl_inventory, path: inv.jsonl }]
                    upstreams: [{ name: lab, provider: lab, validate: false }]
                    health: { active: { enabled: false } }
                    security: { allowDestinations: ["127.0.0.0/8"] }
                    routings: [{ name: short, match: { headers: { X-Route: short } }, filter: { labels: { kind: short } } },
                               { name: first }]
                    """.formatted(redis.port(), nodes.schema()));
            // the control plane reaches PostgreSQL through a relay the test can cut
            Path controlCfg = dir.resolve("control.yaml");
            Files.writeString(
                    controlCfg, Files.readString(cfg).replace("127.0.0.1:5432", "127.0.0.1:" + controlDatabase.port()));
            Node control = nodes.serve(controlCfg, "control");
            // the workers reach Redis through a relay the test can cut (to make them miss a delta)
            Path workerCfg = dir.resolve("worker.yaml");
            Files.writeString(
                    workerCfg,
                    Files.readString(cfg)
                            .replace("redis://127.0.0.1:" + redis.port(), "redis://127.0.0.1:" + workersRedis.port()));
            Node w1 = nodes.serve(workerCfg, "worker");
            Node w2 = nodes.serve(workerCfg, "worker");
            URI target = origin.uri("/echo");
            awaitServing(w1, target, "first", 30);
            awaitServing(w2, target, "first", 30);
            try (HttpClient api = HttpClient.newHttpClient()) {
                String health = api.send(
                                HttpRequest.newBuilder(
                                                URI.create("http://127.0.0.1:" + w1.apiPort() + "/observe/health"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body();
                assertTrue(
                        health.contains("\"snapshot\"") && health.contains("\"fullLoads\""),
                        "a worker reports its snapshot in /observe/health: " + health);
            }

            long t0 = System.nanoTime();
            try (HttpClient api = HttpClient.newHttpClient()) {
                HttpResponse<String> created = api.send(
                        HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + control.apiPort() + "/v1/admin/routings"))
                                .header("Authorization", ADMIN)
                                .header("Content-Type", "application/json")
                                .POST(
                                        HttpRequest.BodyPublishers.ofString(
                                                "{\"name\": \"new\", \"position\": 0, \"match\": {\"headers\": {\"X-Route\": \"new\"}}}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(201, created.statusCode(), created.body());
            }
            awaitServing(w1, target, "new", 20);
            awaitServing(w2, target, "new", 20);
            System.out.printf(
                    "routing change propagation to both workers: %d ms%n", (System.nanoTime() - t0) / 1_000_000);

            // A dropped delta: with the workers cut off from Redis, the control plane publishes a new
            // version and its delta is deleted from the stream; back online, the workers find the gap
            // and resync from the full snapshot.
            long full1 = fullLoads(w1);
            long full2 = fullLoads(w2);
            try (redis.clients.jedis.Jedis j = new redis.clients.jedis.Jedis("127.0.0.1", redis.port())) {
                long headBefore = Long.parseLong(j.hget("pp:snapshot:full", "v"));
                workersRedis.cut();
                Files.writeString(
                        dir.resolve("inv.jsonl"),
                        "{\"host\": \"127.0.0.1\", \"port\": " + upstream.port()
                                + ", \"protocol\": \"http\", \"maxConcurrency\": 100}\n{\"host\": \"localhost\", \"port\": "
                                + upstream.port() + ", \"protocol\": \"http\", \"maxConcurrency\": 100}\n");
                try (HttpClient api = HttpClient.newHttpClient()) {
                    HttpResponse<String> fetch = api.send(
                            HttpRequest.newBuilder(URI.create(
                                            "http://127.0.0.1:" + control.apiPort() + "/v1/admin/upstreams/lab/fetch"))
                                    .header("Authorization", ADMIN)
                                    .POST(HttpRequest.BodyPublishers.noBody())
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(202, fetch.statusCode(), fetch.body());
                }
                Await.atMost(Duration.ofSeconds(20))
                        .until(
                                "the control plane to publish a version above " + headBefore,
                                () -> Long.parseLong(j.hget("pp:snapshot:full", "v")),
                                v -> v > headBefore);
                j.xtrim("pp:snapshot:deltas", 0, false); // the delta is lost
                workersRedis.resume();
            }
            Await.atMost(Duration.ofSeconds(30))
                    .every(Duration.ofMillis(100))
                    .until(
                            "both workers to resync (full loads w1, w2; proxies w1, w2)",
                            () -> List.of(fullLoads(w1), fullLoads(w2), proxies(w1), proxies(w2)),
                            l -> l.get(0) > full1 && l.get(1) > full2 && l.get(2) == 2 && l.get(3) == 2);
            assertTrue(fullLoads(w1) > full1 && fullLoads(w2) > full2, "both workers resynced from the full snapshot");
            assertEquals(2, proxies(w1), "worker 1 converged on the new content");
            assertEquals(2, proxies(w2), "worker 2 converged on the new content");

            // PostgreSQL gone for the control plane: every admin write answers 503, gateway traffic is
            // unaffected, and the configuration read back afterwards is exactly the one before
            List<String> before = configuration(control);
            controlDatabase.cut();
            long slowestRefusal = 0;
            for (String[] write : new String[][] {
                {"POST", "/v1/admin/routings", "{\"name\": \"while-down\"}"},
                {
                    "PUT",
                    "/v1/admin/routings/new",
                    "{\"name\": \"new\", \"position\": 0, \"match\": {\"headers\": {\"X-Route\": \"other\"}}}"
                },
                {"DELETE", "/v1/admin/upstreams/lab", null}
            }) {
                long t1 = System.nanoTime();
                HttpResponse<String> refused = admin(control, write[0], write[1], write[2]);
                long millis = (System.nanoTime() - t1) / 1_000_000;
                slowestRefusal = Math.max(slowestRefusal, millis);
                assertEquals(503, refused.statusCode(), write[0] + " " + write[1] + ": " + refused.body());
                assertTrue(refused.body().contains("database_unavailable"), refused.body());
            }
            System.out.printf(
                    "3 admin writes (POST, PUT, DELETE) with PostgreSQL down answered 503, slowest in %d ms%n",
                    slowestRefusal);
            for (Node n : List.of(control, w1, w2)) {
                assertEquals(
                        200,
                        viaGateway(n, target, "new").statusCode(),
                        "gateway traffic unaffected by the database outage");
                assertEquals("new", routing(viaGateway(n, target, "new")), "no refused change took effect");
            }
            controlDatabase.resume();
            // the connection pool reconnects to PostgreSQL by itself
            Await.atMost(Duration.ofSeconds(30))
                    .every(Duration.ofMillis(100))
                    .until(
                            "the admin API to read again",
                            () -> admin(control, "GET", "/v1/admin/routings/short", null),
                            r -> r.statusCode() == 200);
            assertEquals(
                    before, configuration(control), "after the outage the configuration is exactly the one before");

            // a proxy that expires soon reaches both workers; then the control plane dies
            Instant expiresAt = Instant.now().plusSeconds(15);
            Files.writeString(
                    dir.resolve("inv.jsonl"),
                    Files.readString(dir.resolve("inv.jsonl"))
                            + "{\"host\": \"127.0.0.1\", \"port\": " + shortLived.port() + ", \"protocol\": \"http\","
                            + " \"maxConcurrency\": 100, \"labels\": {\"kind\": \"short\"}, \"expiresAt\": \""
                            + expiresAt + "\"}\n");
            assertEquals(
                    202,
                    admin(control, "POST", "/v1/admin/upstreams/lab/fetch", null)
                            .statusCode());
            awaitServing(w1, target, "short", "short", 12);
            awaitServing(w2, target, "short", "short", 12);
            long shortBefore = shortLived.requests();

            control.process().destroyForcibly();
            assertTrue(control.process().waitFor(10, TimeUnit.SECONDS));
            for (int i = 0; i < 5; i++) {
                assertEquals(
                        200, viaGateway(w1, target, "new").statusCode(), "worker 1 serves without the control plane");
                assertEquals(
                        200, viaGateway(w2, target, "new").statusCode(), "worker 2 serves without the control plane");
            }
            for (Node w : List.of(w1, w2)) {
                String health = health(w);
                assertTrue(
                        health.contains("\"snapshot\"") && health.contains("\"status\":\"UP\""),
                        "the snapshot check is UP (within its validity period) without the control plane: " + health);
            }
            boolean servedByShortAfterKill = false;
            Instant droppedAt = null;
            long dropDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
            while (droppedAt == null && System.nanoTime() < dropDeadline) {
                HttpResponse<String> a = viaGateway(w1, target, "short");
                HttpResponse<String> b = viaGateway(w2, target, "short");
                if (a.statusCode() == 200 && b.statusCode() == 200) {
                    servedByShortAfterKill = true;
                    Pace.sleepMillis(100); // the pace of this observation loop (it records what it sees on the way)
                } else if (a.statusCode() == 503 && b.statusCode() == 503) {
                    droppedAt = Instant.now();
                } else {
                    Pace.sleepMillis(20); // one worker's check ran just before the TTL, the other's just after
                }
            }
            assertTrue(droppedAt != null, "the expired proxy dropped out of both workers' pools");
            assertTrue(
                    servedByShortAfterKill && shortLived.requests() > shortBefore,
                    "the short-lived proxy served after the control plane died, until its TTL");
            assertTrue(
                    !droppedAt.isBefore(expiresAt.minusSeconds(1)),
                    "dropped at " + droppedAt + ", expiry " + expiresAt);
            for (Node w : List.of(w1, w2)) {
                HttpResponse<String> gone = viaGateway(w, target, "short");
                assertEquals(503, gone.statusCode());
                assertEquals(
                        "no_candidate",
                        gone.headers().firstValue("X-ProxyPool-Error").orElse(""));
                assertEquals(200, viaGateway(w, target, "new").statusCode(), "the unexpired proxies still serve");
            }
            System.out.printf(
                    "control plane killed: workers kept serving; a proxy expiring at %s dropped out %d ms after its TTL%n",
                    expiresAt, java.time.Duration.between(expiresAt, droppedAt).toMillis());
        }
    }

    /** Every admin list the control plane serves, and the audit log: what "no partial config" compares. */
    private static List<String> configuration(Node control) throws Exception {
        List<String> out = new ArrayList<>();
        for (String path : List.of(
                "/v1/admin/routings",
                "/v1/admin/upstreams",
                "/v1/admin/providers",
                "/v1/admin/clients",
                "/v1/admin/audit")) {
            HttpResponse<String> r = admin(control, "GET", path, null);
            assertEquals(200, r.statusCode(), path + ": " + r.body());
            out.add(path + " " + r.body());
        }
        return out;
    }

    private static long detail(Node n, String name) throws Exception {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"" + name + "\"\\s*:\\s*(\\d+)")
                .matcher(health(n));
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static long fullLoads(Node n) throws Exception {
        return detail(n, "fullLoads");
    }

    private static long proxies(Node n) throws Exception {
        return detail(n, "proxies");
    }
}
