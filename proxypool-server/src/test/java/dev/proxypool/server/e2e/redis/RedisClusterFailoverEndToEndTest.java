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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Distribution API on Redis Cluster through a failover: a real 3-master + 3-replica cluster
 * on loopback, a ProxyPoolServer whose pool is a {@link RedisClusterPoolStore} (16 shards) of
 * 3,000 proxies, 32 JDK HttpClient clients extracting count=1 while one master is SIGKILLed and
 * its replica promoted. With the default {@code waitReplicas} no proxy is handed out twice,
 * extraction resumes after the failover, and at least 90% of the pool is handed out (503s during
 * the failover are retried by the clients). The same drain with {@code waitReplicas: 0} reports how
 * many proxies the failover handed out twice (the reason for WAIT).
 */
@Tag("slow")
class RedisClusterFailoverEndToEndTest {

    private static final int PROXIES = 3000;
    private static final int CLIENTS = 32;
    private static final Duration BOUND = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    /** How one drain through a failover went. */
    record Drain(int distinct, int twice, int afterPromotion, int unavailable, List<String> problems, String outcome) {}

    @Test
    void thirtyTwoHttpClientsDrainTheClusterPoolThroughAMasterFailoverAndNeverGetAProxyTwice() throws Exception {
        Drain d = drainThroughFailover(RedisClusterConfig.WAIT_AUTO);
        System.out.println("REDIS-CLUSTER-HTTP-FAILOVER waitReplicas=auto " + d.outcome());
        assertEquals(List.of(), d.problems(), d.outcome());
        assertEquals(0, d.twice(), "no proxy handed out twice: " + d.outcome());
        assertTrue(d.afterPromotion() > 0, "extraction resumed after the failover: " + d.outcome());
        assertTrue(d.distinct() >= PROXIES * 9 / 10, "at least 90% handed out: " + d.outcome());
    }

    /**
     * The same drain without WAIT ({@code store.waitReplicas: 0}): what the replicas had not received
     * when the master died is extracted again on the promoted replica. How many proxies a failover
     * hands out twice this way depends on the replication lag at the moment of the kill (on loopback
     * it is often 0); the run reports the figure, and the guarantee asserted is only that extraction
     * goes on (docs/reliability.md: exclusivity across a failover depends on {@code waitReplicas}).
     */
    @Test
    void withoutWaitAFailoverMayHandOutAProxyTwiceAndTheRunSaysHowMany() throws Exception {
        Drain d = drainThroughFailover(0);
        System.out.println("REDIS-CLUSTER-HTTP-FAILOVER waitReplicas=0 " + d.outcome());
        assertEquals(List.of(), d.problems(), d.outcome());
        assertTrue(d.afterPromotion() > 0, "extraction resumed after the failover: " + d.outcome());
        assertTrue(d.distinct() >= PROXIES * 9 / 10, "at least 90% handed out: " + d.outcome());
    }

    private Drain drainThroughFailover(int waitReplicas) throws Exception {
        Instant now = Clocks.wall().instant();
        List<Proxy> seeded = RedisE2e.proxies(PROXIES, now);
        Set<String> known = new HashSet<>();
        seeded.forEach(p -> known.add(p.id()));
        try (RedisClusterServer cluster = RedisClusterServer.start();
                RedisClusterPoolStore store = RedisClusterPoolStore.connect(
                        withWait(
                                RedisClusterConfig.of(cluster.nodes())
                                        .withKeyPrefix(RedisE2e.randomPrefix())
                                        .withMaxConnections(48)
                                        .withTimeouts(Duration.ofMillis(500), Duration.ofSeconds(1)),
                                waitReplicas),
                        StoreSettings.DEFAULTS);
                ProxyPoolServer server = ProxyPoolServer.builder(RedisE2e.config(dir, 0))
                        .pool(b -> b.store(store).proxies(seeded))
                        .start()) {
            assertEquals(PROXIES, store.available(RedisE2e.UPSTREAM));
            URI uri = RedisE2e.extractions(server.apiPort());
            Set<String> delivered = ConcurrentHashMap.newKeySet();
            AtomicInteger twice = new AtomicInteger();
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
                            if (!known.contains(ids.get(0))) {
                                synchronized (problems) {
                                    problems.add(ids.get(0) + " was never seeded");
                                }
                            }
                            if (!delivered.add(ids.get(0))) {
                                twice.incrementAndGet();
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
            String outcome = "handed out " + delivered.size() + " of " + PROXIES + ", " + twice.get()
                    + " twice, " + afterPromotion.get() + " after the promotion of " + newMaster + ", "
                    + unavailable.get() + " x 503";
            return new Drain(delivered.size(), twice.get(), afterPromotion.get(), unavailable.get(), problems, outcome);
        }
    }

    private static RedisClusterConfig withWait(RedisClusterConfig c, int waitReplicas) {
        return waitReplicas == RedisClusterConfig.WAIT_AUTO ? c : c.withWait(waitReplicas, Duration.ofMillis(200));
    }
}
