package dev.proxypool.sdk.coordination;

import static dev.proxypool.sdk.coordination.SnapshotDistributionTest.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A control plane's {@link PublishHold} on real Redis (docs/design.md H10b): a held proxy stays out
 * of what the worker gets although the control plane's pool has it, and reaches the worker as soon
 * as the hold lets it go, with no other change of the pool.
 */
class PublishHoldTest {

    private final String prefix = RedisFixture.randomPrefix();
    private final RedisStoreConfig redis = RedisFixture.config(RedisFixture.SHARED_PORT, prefix);
    private final Ticker ticker = Clocks.monotonic();
    private final InstantSource wall = Clocks.wall();
    private final ClusterSettings settings = SnapshotDistributionTest.FAST;

    @AfterEach
    void deleteKeys() {
        RedisFixture.deleteKeys(RedisFixture.SHARED_PORT, prefix);
    }

    private PoolEngine engine(MemoryPoolStore store) {
        return new PoolEngine(List.of(), HealthPolicy.DEFAULTS, store, ticker, wall, 1);
    }

    @Test
    void aHeldProxyReachesTheWorkerOnlyWhenTheHoldLetsItGo() throws Exception {
        List<Proxy> pool = new ArrayList<>();
        for (Proxy p : Proxies.pool(3, 7)) {
            pool.add(p.toBuilder().expiresAt(Proxy.NO_EXPIRY).build());
        }
        Proxy held = pool.getFirst();
        AtomicReference<Set<String>> holding = new AtomicReference<>(Set.of());
        try (MemoryPoolStore controlStore = new MemoryPoolStore();
                MemoryPoolStore unused = new MemoryPoolStore()) {
            PoolEngine control = engine(controlStore);
            PoolEngine workerEngine = engine(unused);
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
                cc.holdBack(holding::get);
                // the proxy is held before the pool change that adds it is published
                holding.set(Set.of(held.id()));
                control.publish(() -> controlStore.upsert(pool, wall.instant()));
                awaitTrue(() -> workerEngine.snapshot().size() == 2, "the two proxies not held reach the worker");
                assertFalse(onWorker(workerEngine, held), "the held proxy is not published");
                assertEquals(3, control.snapshot().size(), "the control plane's own pool has it");

                holding.set(Set.of());
                awaitTrue(() -> onWorker(workerEngine, held), "released, it reaches the worker");
                assertEquals(3, workerEngine.snapshot().size());
            }
        }
    }

    private static boolean onWorker(PoolEngine worker, Proxy p) {
        return worker.snapshot().proxies().stream().anyMatch(q -> q.id().equals(p.id()));
    }
}
