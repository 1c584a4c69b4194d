package dev.proxypool.cli.cluster;

import static dev.proxypool.cli.cluster.ServeNodes.admin;
import static dev.proxypool.cli.cluster.ServeNodes.get;
import static dev.proxypool.cli.cluster.ServeNodes.health;
import static dev.proxypool.cli.cluster.ServeNodes.viaGateway;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.cli.cluster.ServeNodes.Node;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.PrivateRedisServer;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Standby control plane, real processes: two {@code proxypool serve --role control} JVMs and one
 * {@code --role worker} on loopback, sharing a Redis (pool, snapshots, the control-plane lease) and
 * a PostgreSQL schema (configuration). Requests flow through the worker's gateway the whole time.
 * An upstream is added through the active control plane's Admin API, and that process is killed
 * with SIGKILL right after the 201: the standby takes the lease and publishes a version above the
 * last one (with a larger fencing token in the head) within 10 s, the added upstream's proxy
 * reaches the worker in a snapshot of the new leader (it re-read the configuration from
 * PostgreSQL), and the worker answered every request across the takeover.
 */
@Tag("slow")
class StandbyControlPlaneProcessesTest {

    private static final Pattern ROLE = Pattern.compile("\"role\"\\s*:\\s*\"(\\w+)\"");

    @TempDir
    Path dir;

    @Test
    void theStandbyTakesOverWithinTenSecondsOfAKillWithoutLosingAnAdminChangeOrARequest() throws Exception {
        try (ServeNodes nodes = ServeNodes.withNewSchema();
                PrivateRedisServer redis = PrivateRedisServer.start();
                FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy upstream = FakeHttpProxy.start();
                FakeHttpProxy added = FakeHttpProxy.start();
                Jedis head = new Jedis("127.0.0.1", redis.port())) {
            Files.writeString(
                    dir.resolve("inv.jsonl"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + upstream.port()
                            + ", \"protocol\": \"http\", \"maxConcurrency\": 100}\n");
            Files.writeString(
                    dir.resolve("added.jsonl"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + added.port()
                            + ", \"protocol\": \"http\", \"maxConcurrency\": 100, \"labels\": {\"kind\": \"added\"}}\n");
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
                    routings: [{ name: added, match: { headers: { X-Route: added } }, filter: { labels: { kind: added } } },
                               { name: first }]
                    cluster: { leaseTtl: 3s }
                    """.formatted(redis.port(), nodes.schema()));

            Node first = nodes.serve(cfg, "control");
            Await.atMost(Duration.ofSeconds(30))
                    .until("the first control plane to be active", () -> role(first), "active"::equals);
            Node second = nodes.serve(cfg, "control");
            assertEquals("standby", role(second), "the second control plane stands by: " + health(second));
            Node worker = nodes.serve(cfg, "worker");
            URI target = origin.uri("/echo");
            Await.atMost(Duration.ofSeconds(30))
                    .until(
                            "the worker to serve through the collected proxy",
                            () -> viaGateway(worker, target, "none").statusCode(),
                            s -> s == 200);
            assertEquals("standby", role(second), "still standing by while the first renews its lease");

            // requests through the worker's gateway the whole time, on their own thread
            AtomicBoolean driving = new AtomicBoolean(true);
            AtomicLong served = new AtomicLong();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            Thread load = Thread.ofVirtual().start(() -> {
                while (driving.get()) {
                    try {
                        HttpResponse<String> r = viaGateway(worker, target, "none");
                        if (r.statusCode() == 200) {
                            served.incrementAndGet();
                        } else {
                            failures.add(r.statusCode() + " "
                                    + r.headers()
                                            .firstValue("X-ProxyPool-Error")
                                            .orElse(""));
                        }
                    } catch (Exception e) {
                        failures.add(e.toString());
                    }
                }
            });
            Await.atMost(Duration.ofSeconds(20)).until("requests flowing", served::get, n -> n >= 20);

            long versionBefore = Long.parseLong(head.hget("pp:snapshot:full", "v"));
            long tokenBefore = Long.parseLong(head.hget("pp:snapshot:full", "f"));
            assertEquals(201, admin(first, "POST", "/v1/admin/providers", """
                            {"name": "added", "type": "jsonl_inventory", "path": "added.jsonl"}""").statusCode());
            assertEquals(201, admin(first, "POST", "/v1/admin/upstreams", """
                            {"name": "added", "provider": "added", "validate": false}""").statusCode());
            long servedAtKill = served.get();
            long killedAt = System.nanoTime();
            first.process().destroyForcibly(); // SIGKILL: no lease release, no goodbye
            assertTrue(first.process().waitFor(10, TimeUnit.SECONDS));

            Await.atMost(Duration.ofSeconds(10))
                    .every(Duration.ofMillis(50))
                    .until(
                            "the standby to publish a version above " + versionBefore + " under a newer token",
                            () -> List.of(
                                    Long.parseLong(head.hget("pp:snapshot:full", "v")),
                                    Long.parseLong(head.hget("pp:snapshot:full", "f"))),
                            h -> h.get(0) > versionBefore && h.get(1) > tokenBefore);
            long takeoverMillis = (System.nanoTime() - killedAt) / 1_000_000;
            assertTrue(takeoverMillis < 10_000, "took over in " + takeoverMillis + " ms");
            assertEquals("active", role(second), "the standby leads now: " + health(second));
            long newToken = Long.parseLong(head.hget("pp:snapshot:full", "f"));

            // the upstream added just before the kill is in the new leader's snapshots
            HttpResponse<String> viaAdded = Await.atMost(Duration.ofSeconds(30))
                    .until(
                            "the added upstream's proxy to serve on the worker",
                            () -> viaGateway(worker, target, "added"),
                            r -> r.statusCode() == 200
                                    && r.headers()
                                            .firstValue("X-ProxyPool-Routing")
                                            .orElse("")
                                            .equals("added"));
            assertEquals(200, viaAdded.statusCode());
            assertTrue(added.requests() > 0, "the request went through the added proxy");
            assertEquals(
                    newToken,
                    Long.parseLong(head.hget("pp:snapshot:full", "f")),
                    "the snapshot carrying the change was published by the new leader");
            assertTrue(
                    Long.parseLong(head.hget("pp:snapshot:full", "v")) > versionBefore,
                    "versions never went backwards");

            Await.atMost(Duration.ofSeconds(20))
                    .until("requests after the takeover", served::get, n -> n >= servedAtKill + 20);
            driving.set(false);
            load.join(Duration.ofSeconds(10));
            assertEquals(List.of(), List.copyOf(failures), "the worker answered every request across the takeover");
            assertTrue(
                    metrics(second).contains("proxypool_control_plane_active 1.0")
                            || metrics(second).matches("(?s).*proxypool_control_plane_active\\{[^}]*} 1\\.0.*"),
                    "the new leader's metric says active");
            System.out.printf(
                    "standby took over %d ms after SIGKILL (version %d -> %s, fencing token %d -> %d); worker"
                            + " served %d requests, 0 failed%n",
                    takeoverMillis,
                    versionBefore,
                    head.hget("pp:snapshot:full", "v"),
                    tokenBefore,
                    newToken,
                    served.get());
        }
    }

    private static String metrics(Node n) throws Exception {
        return get(n, "/observe/metrics");
    }

    private static String role(Node n) throws Exception {
        Matcher m = ROLE.matcher(health(n));
        return m.find() ? m.group(1) : "";
    }
}
