package dev.proxypool.sdk.coordination;

import static dev.proxypool.sdk.coordination.SnapshotDistributionTest.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.engine.AcquireRequest;
import dev.proxypool.sdk.engine.AcquireResult;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Control engine → Redis → worker engines, in one JVM: the roles as the server assembles them. */
class WorkerRoleTest {

    private final String prefix = RedisFixture.randomPrefix();
    private final RedisStoreConfig redis = RedisFixture.config(RedisFixture.SHARED_PORT, prefix);
    private final Ticker ticker = Clocks.monotonic();
    private final InstantSource wall = Clocks.wall();
    private final ClusterSettings settings = SnapshotDistributionTest.FAST.toBuilder()
            .workerTtl(Duration.ofMillis(600))
            .build();

    @AfterEach
    void deleteKeys() {
        RedisFixture.deleteKeys(RedisFixture.SHARED_PORT, prefix);
    }

    private PoolEngine engine(MemoryPoolStore store, int workers) {
        return new PoolEngine(List.of(), HealthPolicy.DEFAULTS, store, ticker, wall, workers);
    }

    @Test
    void workersServeTheControlPlanesContentAndFollowItsChanges() throws Exception {
        List<Proxy> pool = new ArrayList<>();
        for (Proxy p : Proxies.pool(20, 31)) {
            pool.add(p.toBuilder().expiresAt(Proxy.NO_EXPIRY).build());
        }
        try (MemoryPoolStore controlStore = new MemoryPoolStore();
                MemoryPoolStore unused = new MemoryPoolStore()) {
            PoolEngine control = engine(controlStore, 1);
            controlStore.upsert(pool, wall.instant());
            control.refresh();
            PoolEngine workerEngine = engine(unused, 1);
            try (ControlRole cc = ControlRole.start(redis, settings, control, Duration.ofMillis(50), wall, ticker);
                    WorkerRole worker = WorkerRole.start(
                            redis,
                            settings,
                            workerEngine,
                            new WorkerShare.Fixed(),
                            "w1",
                            "127.0.0.1:18080",
                            wall,
                            ticker)) {
                assertTrue(worker.awaitFirstSnapshot(Duration.ofSeconds(10)));
                assertEquals(20, workerEngine.snapshot().size());
                Set<String> ids = new HashSet<>();
                pool.forEach(p -> ids.add(p.id()));
                assertTrue(
                        ids.contains(acquire(workerEngine)), "the worker leases proxies of the control plane's pool");

                // an admin disables one proxy on the control plane: it leaves the workers' snapshots
                Proxy gone = pool.getFirst();
                controlStore.setDisabled(gone.id(), true);
                control.refresh();
                awaitTrue(() -> workerEngine.snapshot().slotOf(gone.id()) < 0, "the disabled proxy left the worker");
                assertEquals(19, workerEngine.snapshot().size());
                assertEquals(cc.publisher().version(), worker.status().version());
            }
        }
    }

    @Test
    void liveShareFollowsTheWorkerCount() throws Exception {
        Proxy p = Proxies.pool(1, 32).getFirst().toBuilder()
                .maxConcurrency(10)
                .expiresAt(Proxy.NO_EXPIRY)
                .build();
        try (MemoryPoolStore controlStore = new MemoryPoolStore();
                MemoryPoolStore unused = new MemoryPoolStore()) {
            PoolEngine control = engine(controlStore, 1);
            controlStore.upsert(List.of(p), wall.instant());
            control.refresh();
            PoolEngine e1 = engine(unused, 1);
            PoolEngine e2 = engine(unused, 1);
            PoolEngine e3 = engine(unused, 1);
            try (ControlRole cc = ControlRole.start(redis, settings, control, Duration.ofMillis(50), wall, ticker);
                    WorkerRole w1 =
                            WorkerRole.start(redis, settings, e1, new WorkerShare.Live(), "w1", "", wall, ticker);
                    WorkerRole w2 =
                            WorkerRole.start(redis, settings, e2, new WorkerShare.Live(), "w2", "", wall, ticker)) {
                awaitTrue(() -> limit(e1, p) == 5 && limit(e2, p) == 5, "two workers: 10 / 2 each");
                WorkerRole w3 = WorkerRole.start(redis, settings, e3, new WorkerShare.Live(), "w3", "", wall, ticker);
                try {
                    awaitTrue(
                            () -> limit(e1, p) == 3 && limit(e2, p) == 3 && limit(e3, p) == 3, "three workers: 10 / 3");
                    // hold two of w1's three units, then re-share: in-flight work keeps its reservations
                    Lease l1 = lease(e1);
                    Lease l2 = lease(e1);
                    w3.close();
                    awaitTrue(() -> limit(e1, p) == 5, "back to two workers");
                    assertEquals(2, e1.inFlight());
                    l1.close();
                    l2.close();
                    assertEquals(0, e1.inFlight());
                    assertEquals(2, w1.sharedAmong());
                } finally {
                    w3.close();
                }
            }
        }
    }

    @Test
    void rolesParseFromTheCommandLine() {
        assertEquals(ServeRole.ALL, ServeRole.parse(null));
        assertEquals(ServeRole.CONTROL, ServeRole.parse(" Control "));
        assertEquals(ServeRole.WORKER, ServeRole.parse("worker"));
        assertTrue(ServeRole.ALL.runsGateway() && ServeRole.ALL.runsControlPlane());
        assertTrue(!ServeRole.CONTROL.runsGateway() && ServeRole.WORKER.followsControlPlane());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ServeRole.parse("leader"));
        assertTrue(e.getMessage().contains("--role 'leader'"), e.getMessage());
    }

    private static int limit(PoolEngine engine, Proxy p) {
        return engine.runtime(p.id()).map(rt -> rt.capacity().limit()).orElse(-1);
    }

    private static Lease lease(PoolEngine engine) {
        RoutingRule rule = engine.routing(PoolEngine.DEFAULT_ROUTING).orElseThrow();
        return assertInstanceOf(
                        AcquireResult.Acquired.class, engine.acquire(rule, AcquireRequest.forHost("example.com")))
                .lease();
    }

    private static String acquire(PoolEngine engine) {
        try (Lease lease = lease(engine)) {
            return lease.proxy().id();
        }
    }
}
