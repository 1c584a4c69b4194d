package dev.proxypool.sdk.coordination;

import static dev.proxypool.sdk.coordination.SnapshotDistributionTest.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.redis.RedisClusterConfig;
import dev.proxypool.testkit.RedisClusterServer;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Snapshot distribution, the worker registry and the control-plane lease on a real Redis Cluster
 * (3 masters, {@link RedisClusterServer}): every key in the slot of {@code {<prefix>cluster}}, the
 * Jedis cluster client routing each script by its keys.
 */
@Tag("slow")
class ClusterOnRedisClusterTest {

    private static RedisClusterServer cluster;

    private final String prefix = "pptest:" + UUID.randomUUID() + ":";
    private final Ticker ticker = Clocks.monotonic();
    private final InstantSource wall = Clocks.wall();
    private final ClusterSettings settings = SnapshotDistributionTest.FAST.toBuilder()
            .leaseTtl(Duration.ofSeconds(1))
            .workerTtl(Duration.ofMillis(900))
            .build();

    @BeforeAll
    static void startCluster() {
        cluster = RedisClusterServer.start(3, 0);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private CoordinationRedis redis() {
        return CoordinationRedis.of(RedisClusterConfig.of(cluster.nodes()).withKeyPrefix(prefix));
    }

    private PoolEngine engine(MemoryPoolStore store) {
        return new PoolEngine(List.of(), HealthPolicy.DEFAULTS, store, ticker, wall, 1);
    }

    @Test
    void snapshotsWorkersAndTheLeaseRunOnARedisCluster() throws Exception {
        CoordinationRedis redis = redis();
        assertTrue(redis.isCluster());
        List<Proxy> content = new ArrayList<>();
        for (Proxy p : Proxies.pool(30, 51)) {
            content.add(p.toBuilder().expiresAt(Proxy.NO_EXPIRY).build());
        }
        try (MemoryPoolStore shared = new MemoryPoolStore();
                MemoryPoolStore unused = new MemoryPoolStore()) {
            shared.upsert(content, wall.instant());
            PoolEngine engineA = engine(shared);
            PoolEngine engineB = engine(shared);
            engineA.refresh();
            engineB.refresh();
            PoolEngine w1Engine = engine(unused);
            PoolEngine w2Engine = engine(unused);
            ControlRole a = ControlRole.startLeased(
                    redis, settings, engineA, Duration.ofMillis(50), wall, ticker, "a", () -> {});
            try (ControlRole b = ControlRole.startLeased(
                            redis, settings, engineB, Duration.ofMillis(50), wall, ticker, "b", () -> {});
                    WorkerRole w1 = WorkerRole.start(
                            redis, settings, w1Engine, new WorkerShare.Live(), "w1", "127.0.0.1:1", wall, ticker);
                    WorkerRole w2 = WorkerRole.start(
                            redis, settings, w2Engine, new WorkerShare.Live(), "w2", "127.0.0.1:2", wall, ticker)) {
                assertEquals(ControlRole.State.ACTIVE, a.state());
                assertEquals(ControlRole.State.STANDBY, b.state());
                assertTrue(w1.awaitFirstSnapshot(Duration.ofSeconds(15)));
                assertTrue(w2.awaitFirstSnapshot(Duration.ofSeconds(15)));
                assertEquals(30, w1Engine.snapshot().size());
                assertEquals(30, w2Engine.snapshot().size());
                awaitTrue(() -> w1.registry().live().equals(List.of("w1", "w2")), "the registry lists both workers");
                awaitTrue(() -> w1.sharedAmong() == 2 && w2.sharedAmong() == 2, "both workers count two");

                // a change travels as a delta over the pub/sub event (or the poll)
                long fullLoads = w1.status().fullLoads();
                Proxy gone = content.getFirst();
                shared.setDisabled(gone.id(), true);
                engineA.refresh();
                awaitTrue(
                        () -> w1Engine.snapshot().slotOf(gone.id()) < 0
                                && w2Engine.snapshot().slotOf(gone.id()) < 0,
                        "both workers drop the disabled proxy");
                assertTrue(w1.status().deltasApplied() > 0, "applied as a delta");
                assertEquals(fullLoads, w1.status().fullLoads(), "no full reload for one change");

                // the leader stops: the standby takes over with a larger token, the workers follow it
                long version = a.publisher().version();
                long tokenA = a.fencingToken();
                Proxy second = content.get(1);
                shared.setDisabled(second.id(), true);
                a.close();
                awaitTrue(() -> b.state() == ControlRole.State.ACTIVE, "the standby takes over");
                assertTrue(b.fencingToken() > tokenA);
                assertTrue(b.publisher().version() > version);
                awaitTrue(
                        () -> w1Engine.snapshot().size() == 28
                                && w2Engine.snapshot().size() == 28,
                        "both workers follow the new leader");
                // the leader reads which version each worker serves: one script in the cluster's slot
                awaitTrue(
                        () -> {
                            WorkerRegistry.Fleet f = b.workers().read();
                            return f.headVersion() == b.publisher().version()
                                    && f.workers().size() == 2
                                    && f.workers().stream()
                                            .allMatch(w -> f.behind(w).orElse(-1L) == 0
                                                    && w.applied().orElseThrow().version() == f.headVersion());
                        },
                        "both workers report the leader's version to it");

                // a worker leaves: the other counts one
                w2.close();
                awaitTrue(() -> w1.registry().live().equals(List.of("w1")), "the registry drops the leaver");

                // every key of the cluster features shares one slot (one master runs each script)
                Set<Long> slots = new HashSet<>();
                List<String> keys = keys();
                try (Jedis j = new Jedis("127.0.0.1", cluster.masterPorts().getFirst())) {
                    for (String k : keys) {
                        slots.add(j.clusterKeySlot(k));
                    }
                }
                assertTrue(keys.size() >= 5, "snapshot, lease and registry keys exist: " + keys);
                assertEquals(1, slots.size(), "one slot for " + keys);
            } finally {
                a.close();
            }
        }
    }

    /** Every key under this test's tag, from every master. */
    private List<String> keys() {
        List<String> out = new ArrayList<>();
        for (int port : cluster.masterPorts()) {
            try (Jedis j = new Jedis("127.0.0.1", port)) {
                ScanParams params = new ScanParams()
                        .match("{" + prefix.replaceAll("([*?\\[\\]\\\\])", "\\\\$1") + "*")
                        .count(1000);
                String cursor = ScanParams.SCAN_POINTER_START;
                do {
                    ScanResult<String> page = j.scan(cursor, params);
                    out.addAll(page.getResult());
                    cursor = page.getCursor();
                } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
            }
        }
        return out;
    }
}
