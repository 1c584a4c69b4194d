package dev.proxypool.server.e2e.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.redis.RedisClusterConfig;
import dev.proxypool.sdk.redis.RedisClusterPoolStore;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Pace;
import dev.proxypool.testkit.RedisClusterServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Distribution API on Redis Cluster through a failover: a real 3-master + 3-replica cluster
 * on loopback, a ProxyPoolServer whose pool is a {@link RedisClusterPoolStore} (16 shards) of
 * 3,000 proxies, 32 JDK HttpClient clients extracting count=1 while one master is SIGKILLed and
 * its replica promoted. With the default {@code waitReplicas} no proxy is handed out twice,
 * extraction resumes after the failover, and at least 90% of the pool is handed out (503s during
 * the failover are retried by the clients).
 */
class RedisClusterFailoverEndToEndTest {

    private static final int PROXIES = 3000;
    private static final int CLIENTS = 32;
    private static final Duration BOUND = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void thirtyTwoHttpClientsDrainTheClusterPoolThroughAMasterFailoverAndNeverGetAProxyTwice() throws Exception {
        Instant now = Clocks.wall().instant();
        List<Proxy> seeded = RedisE2e.proxies(PROXIES, now);
        Set<String> known = new HashSet<>();
        seeded.forEach(p -> known.add(p.id()));
        try (RedisClusterServer cluster = RedisClusterServer.start();
                RedisClusterPoolStore store = RedisClusterPoolStore.connect(
                        RedisClusterConfig.of(cluster.nodes())
                                .withKeyPrefix(RedisE2e.randomPrefix())
                                .withMaxConnections(48)
                                .withTimeouts(Duration.ofMillis(500), Duration.ofSeconds(1)),
                        StoreSettings.DEFAULTS);
                ProxyPoolServer server = ProxyPoolServer.builder(RedisE2e.config(dir, 0))
                        .pool(b -> b.store(store).proxies(seeded))
                        .start()) {
            assertEquals(PROXIES, store.available(RedisE2e.UPSTREAM));
            URI uri = RedisE2e.extractions(server.apiPort());
            Set<String> delivered = ConcurrentHashMap.newKeySet();
            AtomicInteger handedOut = new AtomicInteger();
            AtomicInteger unavailable = new AtomicInteger();
            AtomicInteger afterPromotion = new AtomicInteger();
            AtomicBoolean promoted = new AtomicBoolean();
            List<String> problems = new ArrayList<>();
            long until = System.nanoTime() + BOUND.toNanos();
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                clients.add(Thread.ofPlatform().name("client-" + c).start(() -> {
                    int emptyAfterFailover = 0;
                    try (HttpClient http = HttpClient.newBuilder()
                            .version(HttpClient.Version.HTTP_1_1)
                            .build()) {
                        while (System.nanoTime() < until) {
                            HttpResponse<String> r = RedisE2e.extract(http, uri, 1, false);
                            if (r.statusCode() == 503) {
                                unavailable.incrementAndGet();
                                Pace.sleep(Duration.ofMillis(20));
                                continue;
                            }
                            if (r.statusCode() != 200) {
                                synchronized (problems) {
                                    problems.add(r.statusCode() + " " + r.body());
                                }
                                return;
                            }
                            List<String> ids = RedisE2e.ids(r.body());
                            if (ids.isEmpty()) {
                                if (promoted.get() && ++emptyAfterFailover > 3) {
                                    return; // drained after the failover
                                }
                                Pace.sleep(Duration.ofMillis(20));
                                continue;
                            }
                            handedOut.incrementAndGet();
                            if (promoted.get()) {
                                afterPromotion.incrementAndGet();
                            }
                            if (!delivered.add(ids.get(0))) {
                                synchronized (problems) {
                                    problems.add(ids.get(0) + " handed out twice");
                                }
                            }
                        }
                    } catch (Exception e) {
                        synchronized (problems) {
                            problems.add(e.toString());
                        }
                    }
                }));
            }
            while (handedOut.get() < PROXIES / 3 && System.nanoTime() < until) {
                Pace.sleep(Duration.ofMillis(5));
            }
            int victim = cluster.masterPorts().get(0);
            cluster.kill(victim);
            int newMaster = cluster.awaitPromotion(victim, Duration.ofSeconds(30));
            promoted.set(true);
            for (Thread t : clients) {
                t.join(BOUND.toMillis() + 10_000);
            }
            String outcome = "handed out " + delivered.size() + " of " + PROXIES + ", " + afterPromotion.get()
                    + " after the promotion of " + newMaster + ", " + unavailable.get() + " x 503";
            System.out.println("REDIS-CLUSTER-HTTP-FAILOVER " + outcome);
            assertEquals(List.of(), problems, outcome);
            assertTrue(known.containsAll(delivered), "only seeded proxies are handed out");
            assertTrue(afterPromotion.get() > 0, "extraction resumed after the failover: " + outcome);
            assertTrue(delivered.size() >= PROXIES * 9 / 10, "at least 90% handed out: " + outcome);
        }
    }
}
