package dev.proxypool.sdk.coordination;

import static dev.proxypool.sdk.coordination.SnapshotDistributionTest.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.runtime.RuntimeRegistry;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.testkit.Pace;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.SetParams;

class WorkerRegistryTest {

    private final String prefix = RedisFixture.randomPrefix();
    private final RedisStoreConfig redis = RedisFixture.config(RedisFixture.SHARED_PORT, prefix);
    private final ClusterSettings settings =
            ClusterSettings.builder().workerTtl(Duration.ofMillis(600)).build();

    @AfterEach
    void deleteKeys() {
        RedisFixture.deleteKeys(RedisFixture.SHARED_PORT, prefix);
    }

    @Test
    void liveWorkersAreCountedAndLeaveOnCloseOrByTtl() throws Exception {
        try (WorkerRegistry a = WorkerRegistry.open(redis, settings, "worker-a", "127.0.0.1:8080");
                WorkerRegistry b = WorkerRegistry.open(redis, settings, "worker-b", "127.0.0.1:8081");
                WorkerRegistry c = WorkerRegistry.open(redis, settings, "worker-c", "127.0.0.1:8082");
                WorkerRegistry silent = WorkerRegistry.open(redis, settings, "worker-silent", "");
                RedisClient raw = RedisFixture.client(RedisFixture.SHARED_PORT)) {
            assertEquals(0, a.count());
            a.start();
            b.start();
            c.start();
            silent.heartbeat(); // one heartbeat, then nothing: as if the process froze
            assertEquals(List.of("worker-a", "worker-b", "worker-c", "worker-silent"), a.live());
            long pttl = raw.pttl(prefix + "workers:worker-a");
            assertTrue(pttl > 0 && pttl <= 600, "the key's TTL is Redis' to count down: " + pttl);
            assertEquals("pp1 0 0 0 0 127.0.0.1:8081", raw.get(prefix + "workers:worker-b"), "no snapshot yet");

            b.close();
            assertEquals(List.of("worker-a", "worker-c", "worker-silent"), a.live(), "a closed worker leaves at once");
            // the silent worker's key expires on Redis' clock; the heartbeating ones stay (3+ TTLs of waiting)
            awaitTrue(() -> a.count() == 2, "the silent worker expires");
            Pace.sleep(Duration.ofSeconds(1)); // over a TTL more in which the heartbeating workers must stay
            assertEquals(List.of("worker-a", "worker-c"), c.live());
            assertTrue(!raw.sismember(prefix + "workers", "worker-silent"), "expired ids leave the index");
        }
    }

    /**
     * The heartbeat carries the served snapshot; the control plane reads workers and the published
     * head together, sees who is behind, and shows an older release's plain value as unknown.
     */
    @Test
    void heartbeatsSayWhichSnapshotEachWorkerServesAndTheReaderComparesWithTheHead() throws Exception {
        CoordinationRedis where = CoordinationRedis.of(redis);
        Instant published = Instant.parse("2026-01-02T03:04:05.678Z");
        Instant applied = Instant.parse("2026-01-02T03:04:06.001Z");
        try (WorkerRegistry fresh = WorkerRegistry.open(redis, settings, "worker-fresh", "127.0.0.1:8080");
                WorkerRegistry behind = WorkerRegistry.open(redis, settings, "worker-behind", "10.0.0.2:8080");
                WorkerRegistry empty = WorkerRegistry.open(redis, settings, "worker-empty", "");
                WorkerRegistry.Reader reader = WorkerRegistry.reader(where);
                RedisClient raw = RedisFixture.client(RedisFixture.SHARED_PORT)) {
            WorkerRegistry.Fleet none = reader.read();
            assertEquals(0, none.headVersion());
            assertEquals(List.of(), none.workers());

            // the head as snapshot_publish.lua leaves it: the full at 7, the stream one version further
            raw.hset(prefix + "snapshot:full", Map.of("e", "42", "v", "7"));
            raw.xadd(prefix + "snapshot:deltas", new StreamEntryID(8, 0), Map.of("d", "x"));
            fresh.applied(42, 8, published, applied);
            fresh.heartbeat();
            behind.applied(42, 5, published, applied);
            behind.heartbeat();
            empty.heartbeat();
            assertEquals(
                    "pp1 42 8 " + published.toEpochMilli() + " " + applied.toEpochMilli() + " 127.0.0.1:8080",
                    raw.get(prefix + "workers:worker-fresh"),
                    "a small value: epoch, version, published, applied, description");
            // a worker of an older release: its value is the bare description
            raw.set(
                    prefix + "workers:worker-old",
                    "10.0.0.9:8080",
                    SetParams.setParams().px(60_000));
            raw.sadd(prefix + "workers", "worker-old");

            WorkerRegistry.Fleet fleet = reader.read();
            assertEquals(42, fleet.headEpoch());
            assertEquals(8, fleet.headVersion(), "the head is the newer of the full and the stream");
            assertEquals(
                    List.of("worker-behind", "worker-empty", "worker-fresh", "worker-old"),
                    fleet.workers().stream().map(WorkerRegistry.Worker::id).toList());
            Map<String, WorkerRegistry.Worker> byId = new TreeMap<>();
            fleet.workers().forEach(w -> byId.put(w.id(), w));
            WorkerRegistry.Worker f = byId.get("worker-fresh");
            assertEquals(
                    new WorkerRegistry.Applied(42, 8, published, applied),
                    f.applied().orElseThrow());
            assertEquals("127.0.0.1:8080", f.description());
            assertEquals(Optional.of(0L), fleet.behind(f));
            assertEquals(Optional.of(3L), fleet.behind(byId.get("worker-behind")));
            assertEquals(Optional.of(8L), fleet.behind(byId.get("worker-empty")), "nothing applied: the whole head");
            WorkerRegistry.Worker old = byId.get("worker-old");
            assertEquals(Optional.empty(), old.applied(), "an older format is unknown");
            assertEquals("10.0.0.9:8080", old.description());
            assertEquals(Optional.empty(), fleet.behind(old));

            // another lineage counts as holding none of the head's versions
            behind.applied(41, 900, published, applied);
            behind.heartbeat();
            WorkerRegistry.Fleet relineaged = reader.read();
            assertEquals(
                    Optional.of(8L),
                    relineaged.behind(relineaged.workers().stream()
                            .filter(w -> w.id().equals("worker-behind"))
                            .findFirst()
                            .orElseThrow()));

            // a started worker heartbeats as soon as it applies a version, not a heartbeat period later
            behind.start();
            behind.applied(42, 8, published, applied);
            awaitTrue(
                    () -> reader.read().workers().stream()
                            .anyMatch(w -> w.id().equals("worker-behind")
                                    && w.applied().orElseThrow().version() == 8),
                    "the new version reaches the registry");

            // expired workers leave the read and the index; a joining worker is seen on the next read
            raw.del(prefix + "workers:worker-old");
            try (WorkerRegistry late = WorkerRegistry.open(redis, settings, "worker-late", "")) {
                late.heartbeat();
                List<String> ids = reader.read().workers().stream()
                        .map(WorkerRegistry.Worker::id)
                        .toList();
                assertEquals(List.of("worker-behind", "worker-empty", "worker-fresh", "worker-late"), ids);
                assertTrue(!raw.sismember(prefix + "workers", "worker-old"), "an expired id leaves the index");
            }
        }
    }

    /** Values that only look like the format are shown as descriptions (unknown), never half-read. */
    @Test
    void malformedValuesReadAsUnknown() {
        for (String v :
                List.of("pp1 a 1 2 3 x", "pp1 1 -5 0 0 x", "pp1 1 2 3", "pp1 1 2 99999999999999999999 0 x", "")) {
            WorkerRegistry.Worker w = WorkerRegistry.parse("w", v);
            assertEquals(Optional.empty(), w.applied(), v);
            assertEquals(v, w.description(), v);
        }
        WorkerRegistry.Worker bare = WorkerRegistry.parse("w", "pp1 7 3 1000 2000");
        assertEquals(
                new WorkerRegistry.Applied(7, 3, Instant.ofEpochMilli(1000), Instant.ofEpochMilli(2000)),
                bare.applied().orElseThrow());
        assertEquals("", bare.description(), "an empty description");
    }

    /** docs/design.md#capacity (C5): each worker gets max(1, maxConcurrency / workers) of every proxy. */
    @Test
    void eachWorkerGetsItsShareOfEveryProxysConcurrency() {
        ManualClock clock = new ManualClock();
        Proxy p = Proxies.pool(1, 1).getFirst().toBuilder().maxConcurrency(10).build();
        int[][] table = { // workers, share
            {1, 10}, {2, 5}, {3, 3}, {4, 2}, {10, 1}, {16, 1}, {100, 1}
        };
        for (int[] row : table) {
            RuntimeRegistry registry = new RuntimeRegistry(HealthPolicy.DEFAULTS, clock, row[0]);
            assertEquals(row[1], registry.runtimeFor(p).capacity().limit(), row[0] + " workers");
        }
    }

    @Test
    void badWorkerIdsNameTheProblem() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> WorkerRegistry.open(redis, settings, "bad id", ""));
        assertTrue(e.getMessage().contains("'bad id'"), e.getMessage());
    }
}
