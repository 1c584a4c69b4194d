package dev.proxypool.server.e2e.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.redis.RedisClusterConfig;
import dev.proxypool.sdk.redis.RedisClusterPoolStore;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.Pace;
import dev.proxypool.testkit.RedisClusterServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Redis Cluster master killed while clients drain the pool through HTTP, as an operator runs it
 * (issue 37 A): 3 masters + 3 replicas with {@code cluster-node-timeout 2000}, 3,000 proxies in 16
 * shards, 32 JDK HttpClient clients extracting {@code count} 1..10 {@code partial}, the master of
 * a third of the shards SIGKILLed after a third of the pool was handed out. Its replica is promoted
 * without a replica of its own.
 *
 * <ul>
 *   <li>With the default {@code store.waitReplicas} the promoted master's shards serve again with
 *       WAIT 0 (the choice follows the topology as it is now): at least 95 % of the pool is handed
 *       out within 30 s of the promotion, no answer is a 500 at any point (CLUSTERDOWN,
 *       TRYAGAIN, a refused connection to the dead master: 503 {@code store_unavailable} with
 *       {@code Retry-After}), no proxy twice; {@code /observe/health} and
 *       {@code proxypool_store_shard_wait_replicas} show the degraded durability.</li>
 *   <li>With {@code waitReplicas: 1} explicit the promoted master's shards keep refusing (the
 *       operator asked for a replica's acknowledgement), and readiness, the console's Overview
 *       data and {@code proxypool_store_shards_refusing_writes} say which shards and why.</li>
 * </ul>
 */
@Tag("slow")
class RedisClusterPromotionEndToEndTest {

    private static final int PROXIES = 3000;
    private static final int CLIENTS = 32;
    private static final String ADMIN_TOKEN = "admin-token-0123456789";
    private static final Duration NODE_TIMEOUT = Duration.ofMillis(2000);
    private static final Duration AFTER_PROMOTION = Duration.ofSeconds(30);
    private static final Duration BOUND = Duration.ofSeconds(150);
    private static final Pattern SHARD_WAIT =
            Pattern.compile("proxypool_store_shard_wait_replicas\\{[^}]*shard=\"(\\d+)\"[^}]*} ([0-9.]+)");

    @TempDir
    Path dir;

    @Test
    void withTheDefaultWaitThePromotedMastersShardsServeAgainAndNinetyFivePercentIsHandedOutWithinThirtySeconds()
            throws Exception {
        Instant now = Clocks.wall().instant();
        List<Proxy> seeded = RedisE2e.proxies(PROXIES, now);
        Set<String> known = new HashSet<>();
        seeded.forEach(p -> known.add(p.id()));
        try (RedisClusterServer cluster = RedisClusterServer.start(3, 1, NODE_TIMEOUT, true);
                RedisClusterPoolStore store = RedisClusterPoolStore.connect(
                        RedisClusterConfig.of(cluster.nodes()).withKeyPrefix(RedisE2e.randomPrefix()),
                        StoreSettings.DEFAULTS);
                ProxyPoolServer server = ProxyPoolServer.builder(RedisE2e.config(dir, 0))
                        .pool(b -> b.store(store).proxies(seeded))
                        .start()) {
            assertEquals(PROXIES, store.available(RedisE2e.UPSTREAM));
            URI uri = RedisE2e.extractions(server.apiPort());
            Set<String> delivered = ConcurrentHashMap.newKeySet();
            AtomicInteger twice = new AtomicInteger();
            Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
            AtomicInteger withoutRetryAfter = new AtomicInteger();
            AtomicLong promotedAt = new AtomicLong(); // nanoTime of the promotion, 0 before
            AtomicLong ninetyFivePercentAt = new AtomicLong();
            List<String> problems = new ArrayList<>();
            long until = System.nanoTime() + BOUND.toNanos();
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                clients.add(Thread.ofPlatform().name("client-" + c).start(() -> {
                    int emptyAfterPromotion = 0;
                    try (HttpClient http = HttpClient.newBuilder()
                            .version(HttpClient.Version.HTTP_1_1)
                            .build()) {
                        while (System.nanoTime() < until) {
                            int count = ThreadLocalRandom.current().nextInt(1, 11);
                            HttpResponse<String> r = RedisE2e.extract(http, uri, count, false);
                            statuses.computeIfAbsent(r.statusCode(), s -> new AtomicInteger())
                                    .incrementAndGet();
                            if (r.statusCode() == 503) {
                                if (r.headers().firstValue("Retry-After").isEmpty()) {
                                    withoutRetryAfter.incrementAndGet();
                                }
                                Pace.sleep(Duration.ofMillis(20));
                                continue;
                            }
                            if (r.statusCode() != 200) {
                                synchronized (problems) {
                                    if (problems.size() < 5) { // the statuses count them all
                                        problems.add(r.statusCode() + " " + r.body());
                                    }
                                }
                                Pace.sleep(Duration.ofMillis(20));
                                continue; // counted; the drain goes on, as a client's retry would
                            }
                            List<String> ids = RedisE2e.ids(r.body());
                            if (ids.isEmpty()) {
                                if (promotedAt.get() != 0 && ++emptyAfterPromotion > 3) {
                                    return; // drained after the promotion
                                }
                                Pace.sleep(Duration.ofMillis(20));
                                continue;
                            }
                            for (String id : ids) {
                                if (!known.contains(id)) {
                                    synchronized (problems) {
                                        problems.add(id + " was never seeded");
                                    }
                                }
                                if (!delivered.add(id)) {
                                    twice.incrementAndGet();
                                }
                            }
                            if (delivered.size() >= PROXIES * 95 / 100) {
                                ninetyFivePercentAt.compareAndSet(0, System.nanoTime());
                            }
                        }
                    } catch (Exception e) {
                        synchronized (problems) {
                            problems.add(e.toString());
                        }
                    }
                }));
            }
            Await.atMost(BOUND)
                    .every(Duration.ofMillis(5))
                    .until("a third of the pool handed out", () -> delivered.size() >= PROXIES / 3);
            int victim = cluster.masterPorts().get(0);
            cluster.kill(victim);
            int newMaster = cluster.awaitPromotion(victim, Duration.ofSeconds(30));
            promotedAt.set(System.nanoTime());
            for (Thread t : clients) {
                t.join(BOUND.toMillis() + 10_000);
            }
            String outcome = "handed out " + delivered.size() + " of " + PROXIES + ", " + twice.get()
                    + " twice, statuses " + new TreeMap<>(statuses) + ", promoted " + newMaster + ", 95 % "
                    + (ninetyFivePercentAt.get() == 0
                            ? "never"
                            : Duration.ofNanos(ninetyFivePercentAt.get() - promotedAt.get()) + " after the promotion")
                    + ", undelivered " + store.undeliveredProxies() + ", uncertain " + store.uncertainExtractions();
            System.out.println("REDIS-CLUSTER-PROMOTION waitReplicas=auto " + outcome);
            assertTrue(
                    Set.of(200, 503).containsAll(statuses.keySet()),
                    "no 500 at any point, only 200 and 503: " + outcome);
            assertEquals(List.of(), problems, outcome);
            assertEquals(0, twice.get(), "no proxy handed out twice: " + outcome);
            assertEquals(0, withoutRetryAfter.get(), "every 503 carries Retry-After: " + outcome);
            assertTrue(ninetyFivePercentAt.get() != 0, "95 % of the pool handed out: " + outcome);
            assertTrue(
                    ninetyFivePercentAt.get() - promotedAt.get() <= AFTER_PROMOTION.toNanos(),
                    "95 % handed out within 30 s of the promotion: " + outcome);

            // the promoted master has no replica: its shards serve with WAIT 0, and say so
            String metrics = get(server.apiPort(), "/observe/metrics");
            Map<Integer, Double> waits = shardWaits(metrics);
            assertEquals(16, waits.size(), "a wait gauge per shard: " + metrics);
            assertTrue(waits.containsValue(0.0), "the promoted master's shards wait for 0: " + waits);
            assertTrue(waits.containsValue(1.0), "the other shards still wait for 1: " + waits);
            assertEquals(
                    0.0,
                    gauge(metrics, "proxypool_store_shards_refusing_writes"),
                    "no shard refuses writes with the default wait: " + grep(metrics, "proxypool_store"));
            assertEquals(
                    (double) waits.values().stream().filter(w -> w == 0.0).count(),
                    gauge(metrics, "proxypool_store_shards_degraded"),
                    "the degraded shards are counted: " + grep(metrics, "proxypool_store"));
            String health = get(server.apiPort(), "/observe/health");
            assertTrue(health.contains("\"store\""), health);
            assertTrue(health.contains("degraded"), "health shows the degraded durability: " + health);
            assertTrue(health.contains("\"status\":\"UP\""), "degraded durability is still ready: " + health);
        }
    }

    /**
     * {@code store.waitReplicas: 1} explicit: after the promotion the new master has no replica, and
     * its shards refuse extractions (503 with Retry-After, never 500) before taking anything out of
     * the pool; readiness, the console's Overview data and the metrics name those shards and why,
     * while the other shards go on serving.
     */
    @Test
    void withAnExplicitWaitThePromotedMastersShardsRefuseWritesVisiblyInReadinessOverviewAndMetrics() throws Exception {
        Instant now = Clocks.wall().instant();
        int size = 600;
        List<Proxy> seeded = RedisE2e.proxies(size, now);
        Path cfg = dir.resolve("proxypool.yaml");
        java.nio.file.Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                clients: [{ name: alice, secret: alice-secret, token: %s }]
                admin: { token: %s }
                health: { active: { enabled: false } }
                """.formatted(RedisE2e.TOKEN, ADMIN_TOKEN));
        try (RedisClusterServer cluster = RedisClusterServer.start(3, 1, NODE_TIMEOUT, true);
                RedisClusterPoolStore store = RedisClusterPoolStore.connect(
                        RedisClusterConfig.of(cluster.nodes())
                                .withKeyPrefix(RedisE2e.randomPrefix())
                                .withWait(1, RedisClusterConfig.DEFAULT_WAIT_TIMEOUT),
                        StoreSettings.DEFAULTS);
                ProxyPoolServer server = ProxyPoolServer.builder(
                                dev.proxypool.sdk.config.ConfigLoader.load(cfg, Map.of()))
                        .pool(b -> b.store(store).proxies(seeded))
                        .start()) {
            int api = server.apiPort();
            String before = get(api, "/observe/health");
            assertTrue(before.contains("\"durability\":\"full\""), "every shard has a replica at start: " + before);
            URI uri = RedisE2e.extractions(api);
            int victim = cluster.masterPorts().get(0);
            cluster.kill(victim);
            int newMaster = cluster.awaitPromotion(victim, Duration.ofSeconds(30));
            Map<Integer, AtomicInteger> statuses = new TreeMap<>();
            AtomicInteger withoutRetryAfter = new AtomicInteger();
            AtomicInteger handedOut = new AtomicInteger();
            try (HttpClient http =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
                // extractions go on: the other shards serve, the promoted master's refuse
                String health = Await.atMost(Duration.ofSeconds(30))
                        .every(Duration.ofMillis(50))
                        .until(
                                "readiness to show the promoted master's shards refusing writes",
                                () -> {
                                    HttpResponse<String> r = RedisE2e.extract(http, uri, 5, false);
                                    statuses.computeIfAbsent(r.statusCode(), c -> new AtomicInteger())
                                            .incrementAndGet();
                                    if (r.statusCode() == 503
                                            && r.headers()
                                                    .firstValue("Retry-After")
                                                    .isEmpty()) {
                                        withoutRetryAfter.incrementAndGet();
                                    }
                                    if (r.statusCode() == 200) {
                                        handedOut.addAndGet(
                                                RedisE2e.ids(r.body()).size());
                                    }
                                    return get(api, "/observe/health");
                                },
                                h -> h.contains("\"durability\":\"refusing\""));
                assertTrue(
                        health.contains("127.0.0.1:" + newMaster + " has 0 replica(s) online, store.waitReplicas is 1"),
                        "readiness says why: " + health);
                assertTrue(health.contains("\"status\":\"UP\""), "the other shards still serve: " + health);
                for (int i = 0; i < 20; i++) {
                    HttpResponse<String> r = RedisE2e.extract(http, uri, 5, false);
                    statuses.computeIfAbsent(r.statusCode(), c -> new AtomicInteger())
                            .incrementAndGet();
                    if (r.statusCode() == 200) {
                        handedOut.addAndGet(RedisE2e.ids(r.body()).size());
                    }
                }
            }
            assertTrue(Set.of(200, 503).containsAll(statuses.keySet()), "never a 500: " + statuses);
            assertEquals(0, withoutRetryAfter.get(), "every 503 carries Retry-After: " + statuses);
            assertTrue(handedOut.get() > 0, "the other shards serve: " + statuses);
            assertEquals(0, store.undeliveredProxies(), "a refused shard takes nothing out of the pool");

            String metrics = get(api, "/observe/metrics");
            double refusingShards = gauge(metrics, "proxypool_store_shards_refusing_writes");
            assertTrue(refusingShards >= 1, "a metric counts the refusing shards: " + grep(metrics, "proxypool_store"));
            assertTrue(
                    shardWaits(metrics).values().stream().allMatch(w -> w == 1.0),
                    "an explicit wait stays 1 on every shard: " + shardWaits(metrics));

            HttpResponse<String> overview;
            try (HttpClient http = HttpClient.newHttpClient()) {
                overview = http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api + "/v1/admin/snapshot"))
                                .header("Authorization", "Bearer " + ADMIN_TOKEN)
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
            }
            assertEquals(200, overview.statusCode(), overview.body());
            assertTrue(overview.body().contains("\"durability\":\"refusing\""), overview.body());
            assertTrue(overview.body().contains("\"state\":\"refusing\""), overview.body());
            assertTrue(
                    overview.body().contains("store.waitReplicas is 1"), "the Overview says why: " + overview.body());
        }
    }

    private static Map<Integer, Double> shardWaits(String metrics) {
        Map<Integer, Double> out = new TreeMap<>();
        Matcher m = SHARD_WAIT.matcher(metrics);
        while (m.find()) {
            out.put(Integer.parseInt(m.group(1)), Double.parseDouble(m.group(2)));
        }
        return out;
    }

    /** The value of an unlabelled gauge in a Prometheus scrape. */
    private static double gauge(String metrics, String name) {
        Matcher m =
                Pattern.compile("(?m)^" + name + "(\\{[^}]*})? ([0-9.eE+-]+)$").matcher(metrics);
        assertTrue(m.find(), name + " in " + grep(metrics, "proxypool_store"));
        return Double.parseDouble(m.group(2));
    }

    private static String grep(String text, String word) {
        return String.join("\n", text.lines().filter(l -> l.contains(word)).toList());
    }

    static String get(int port, String path) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
        }
    }
}
