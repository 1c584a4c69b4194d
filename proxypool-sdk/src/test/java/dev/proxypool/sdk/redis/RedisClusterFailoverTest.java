package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ExtractedProxy;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.ProxyFixtures;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.testkit.Pace;
import dev.proxypool.testkit.RedisClusterServer;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The failover proof of the Redis Cluster store: 32 concurrent clients drain a 3,000-proxy pool
 * (count=1 extractions) while one master is SIGKILLed and its replica promoted. With the default
 * {@code waitReplicas} (1 while the master has a replica) no proxy is handed out twice and at
 * least 90% of the pool is handed out; with {@code waitReplicas: 0} the same run reports how many
 * proxies a failover handed out twice. Each test on a cluster of its own (killing a master must not
 * disturb other tests).
 */
@Tag("slow")
class RedisClusterFailoverTest {

    private static final Logger LOG = System.getLogger(RedisClusterFailoverTest.class.getName());
    private static final int POOL = 3000;
    private static final int CLIENTS = 32;
    private static final Duration RUN_BOUND = Duration.ofSeconds(90);

    private RedisClusterServer cluster;

    @BeforeEach
    void startCluster() {
        cluster = RedisClusterServer.start();
    }

    @AfterEach
    void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    record Outcome(int delivered, int duplicates, int unavailable, int promotedPort) {}

    @Test
    void aKilledMasterNeverMakesAProxyHandedOutTwiceWithWait() throws Exception {
        Outcome o = drainWhileKillingAMaster(RedisClusterConfig.WAIT_AUTO);
        LOG.log(Level.INFO, "waitReplicas auto: " + o);
        assertEquals(0, o.duplicates(), "proxies handed out twice: " + o);
        assertTrue(o.delivered() >= POOL * 9 / 10, "at least 90% handed out: " + o);
    }

    @Test
    void withoutWaitAFailoverMayHandAProxyOutTwiceReported() throws Exception {
        Outcome o = drainWhileKillingAMaster(0);
        // asynchronous replication: how many a failover repeats depends on the replica's lag at the kill
        LOG.log(Level.INFO, "waitReplicas 0: " + o + " (duplicates are the reason for WAIT)");
        System.out.println("REDIS-CLUSTER-FAILOVER waitReplicas=0 " + o);
        assertTrue(o.delivered() >= POOL * 9 / 10, "at least 90% handed out: " + o);
    }

    private Outcome drainWhileKillingAMaster(int waitReplicas) throws Exception {
        RedisClusterConfig config = RedisClusterConfig.of(cluster.nodes())
                .withKeyPrefix("ppfail:" + waitReplicas + ":" + System.nanoTime() + ":")
                .withWait(waitReplicas, Duration.ofMillis(500))
                .withMaxConnections(CLIENTS + 8)
                .withTimeouts(Duration.ofMillis(500), Duration.ofSeconds(1));
        Instant now = Instant.now();
        List<Proxy> pool = new ArrayList<>(POOL);
        for (int i = 0; i < POOL; i++) {
            pool.add(ProxyFixtures.builder(i)
                    .expiresAt(now.plus(Duration.ofHours(1)))
                    .build());
        }
        try (RedisClusterPoolStore store = RedisClusterPoolStore.connect(config, StoreSettings.DEFAULTS)) {
            assertEquals(POOL, store.upsert(pool, now).added());
            Set<String> delivered = ConcurrentHashMap.newKeySet();
            AtomicInteger total = new AtomicInteger();
            AtomicInteger duplicates = new AtomicInteger();
            AtomicInteger unavailable = new AtomicInteger();
            AtomicInteger emptyAfterKill = new AtomicInteger();
            long until = System.nanoTime() + RUN_BOUND.toNanos();
            ExtractionRequest one = ExtractionRequest.builder(1).build();
            int[] promoted = {-1};
            boolean[] killed = {false};
            ExecutorService pool32 = Executors.newFixedThreadPool(CLIENTS);
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                clients.add(pool32.submit(() -> {
                    while (System.nanoTime() < until) {
                        try {
                            ExtractionResult r = store.extract(one, now);
                            List<ExtractedProxy> got = ((ExtractionResult.Extracted) r).proxies();
                            if (got.isEmpty()) {
                                synchronized (killed) {
                                    if (!killed[0] || promoted[0] < 0) {
                                        continue; // not drained: the killed master's shards are not back yet
                                    }
                                }
                                if (emptyAfterKill.incrementAndGet() > 3) {
                                    return; // drained after the failover
                                }
                                continue;
                            }
                            total.incrementAndGet();
                            if (!delivered.add(got.get(0).id())) {
                                duplicates.incrementAndGet();
                            }
                        } catch (StoreUnavailableException e) {
                            unavailable.incrementAndGet();
                            Pace.sleep(Duration.ofMillis(20));
                        }
                    }
                }));
            }
            // kill once a third is handed out
            while (total.get() < POOL / 3 && System.nanoTime() < until) {
                Pace.sleep(Duration.ofMillis(5));
            }
            int victim = cluster.masterPorts().get(0);
            cluster.kill(victim);
            synchronized (killed) {
                killed[0] = true;
            }
            int p = cluster.awaitPromotion(victim, Duration.ofSeconds(30));
            synchronized (killed) {
                promoted[0] = p;
            }
            pool32.shutdown();
            for (Future<?> f : clients) {
                f.get(RUN_BOUND.toSeconds() + 30, TimeUnit.SECONDS);
            }
            assertTrue(pool32.awaitTermination(10, TimeUnit.SECONDS));
            return new Outcome(delivered.size(), duplicates.get(), unavailable.get(), p);
        }
    }
}
