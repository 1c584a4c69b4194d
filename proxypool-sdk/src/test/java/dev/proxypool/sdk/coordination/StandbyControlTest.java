package dev.proxypool.sdk.coordination;

import static dev.proxypool.sdk.coordination.SnapshotDistributionTest.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.testkit.Pace;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * Two control planes on one Redis: the control-plane lease decides who publishes, its fencing token
 * travels with every version, and the publish script refuses a deposed leader's token.
 */
class StandbyControlTest {

    private final String prefix = RedisFixture.randomPrefix();
    private final CoordinationRedis redis = CoordinationRedis.of(RedisFixture.config(RedisFixture.SHARED_PORT, prefix));
    private final Ticker ticker = Clocks.monotonic();
    private final InstantSource wall = Clocks.wall();
    private final ClusterSettings settings = SnapshotDistributionTest.FAST.toBuilder()
            .leaseTtl(Duration.ofSeconds(1))
            .workerTtl(Duration.ofMillis(600))
            .build();

    @AfterEach
    void deleteKeys() {
        RedisFixture.deleteKeys(RedisFixture.SHARED_PORT, prefix);
    }

    private PoolEngine engine(MemoryPoolStore store) {
        return new PoolEngine(List.of(), HealthPolicy.DEFAULTS, store, ticker, wall, 1);
    }

    private static List<Proxy> pool(int n, long seed) {
        List<Proxy> out = new ArrayList<>();
        for (Proxy p : Proxies.pool(n, seed)) {
            out.add(p.toBuilder().expiresAt(Proxy.NO_EXPIRY).build());
        }
        return out;
    }

    @Test
    void aDeposedLeadersTokenIsRefusedAndVersionsNeverGoBackwards() {
        List<Proxy> content = pool(10, 41);
        try (ControlLeadership lease = ControlLeadership.open(redis);
                RedisClient r = RedisFixture.client(RedisFixture.SHARED_PORT)) {
            long a = lease.acquire("a", Duration.ofSeconds(30));
            assertTrue(a > 0, "a free lease is taken");
            assertEquals(0, lease.acquire("b", Duration.ofSeconds(30)), "a held lease is not taken by another");
            assertEquals(a, lease.acquire("a", Duration.ofSeconds(30)), "the holder keeps its token");
            try (SnapshotPublisher first = SnapshotPublisher.open(redis, settings, wall, ticker, a)) {
                first.publish(content);
                long v1 = first.version();
                assertEquals(Long.toString(a), r.hget(redis.fullSnapshotKey(), "f"));

                // the first leader pauses past its lease: the key lapses and another control plane takes it
                r.del(redis.leaseKey());
                long b = lease.acquire("b", Duration.ofSeconds(30));
                assertTrue(b > a, "a new holder gets a larger token: " + b + " after " + a);
                assertEquals(0, lease.renew("a", Duration.ofSeconds(30)), "the old holder cannot renew");
                try (SnapshotPublisher second = SnapshotPublisher.open(redis, settings, wall, ticker, b)) {
                    second.publish(content.subList(0, 9));
                    long v2 = second.version();
                    assertTrue(v2 > v1, "the new leader continues after the stored head");

                    // the old leader wakes up and publishes: refused, nothing written, and it stays refused
                    assertThrows(SnapshotPublisher.FencedException.class, () -> first.publish(content.subList(0, 8)));
                    assertTrue(first.fenced());
                    assertThrows(SnapshotPublisher.FencedException.class, first::renew);
                    assertEquals(Long.toString(v2), r.hget(redis.fullSnapshotKey(), "v"));
                    assertEquals(Long.toString(b), r.hget(redis.fullSnapshotKey(), "f"));
                    second.publish(content);
                    assertEquals(v2 + 1, second.version(), "the leader goes on");
                }
            }
            assertTrue(lease.release("b"));
            assertTrue(lease.current().isEmpty());
        }
    }

    @Test
    void theStandbyTakesOverWhenTheLeaderStopsAndReadsTheConfigurationFirst() throws Exception {
        try (MemoryPoolStore shared = new MemoryPoolStore();
                MemoryPoolStore unused = new MemoryPoolStore()) {
            List<Proxy> content = pool(12, 42);
            shared.upsert(content, wall.instant());
            PoolEngine engineA = engine(shared);
            PoolEngine engineB = engine(shared);
            engineA.refresh();
            engineB.refresh();
            PoolEngine workerEngine = engine(unused);
            AtomicInteger takeoversA = new AtomicInteger();
            AtomicInteger takeoversB = new AtomicInteger();
            ControlRole a = ControlRole.startLeased(
                    redis, settings, engineA, Duration.ofMillis(50), wall, ticker, "a", takeoversA::incrementAndGet);
            try (ControlRole b = ControlRole.startLeased(
                            redis,
                            settings,
                            engineB,
                            Duration.ofMillis(50),
                            wall,
                            ticker,
                            "b",
                            takeoversB::incrementAndGet);
                    WorkerRole worker = WorkerRole.start(
                            redis, settings, workerEngine, new WorkerShare.Fixed(), "w1", "", wall, ticker)) {
                assertEquals(ControlRole.State.ACTIVE, a.state());
                assertEquals(ControlRole.State.STANDBY, b.state());
                assertEquals(1, takeoversA.get(), "the leader ran its takeover hook before publishing");
                assertTrue(worker.awaitFirstSnapshot(Duration.ofSeconds(10)));
                assertEquals(12, workerEngine.snapshot().size());
                // standing by through several lease periods: the leader renews
                Pace.sleepMillis(settings.leaseTtl().multipliedBy(2).toMillis()); // several renewals; then asserts
                assertEquals(ControlRole.State.STANDBY, b.state(), "the standby waits while the leader renews");
                assertEquals(0, takeoversB.get());
                long tokenA = a.fencingToken();
                long versionA = a.publisher().version();

                // a change in the shared store, then the leader stops: the standby publishes it
                Proxy gone = content.getFirst();
                shared.setDisabled(gone.id(), true);
                a.close();
                awaitTrue(() -> b.state() == ControlRole.State.ACTIVE, "the standby takes over");
                assertEquals(1, takeoversB.get(), "the new leader re-read its configuration first");
                assertTrue(b.fencingToken() > tokenA, "a larger fencing token");
                assertTrue(b.publisher().version() > versionA, "versions go on from the old leader's");
                awaitTrue(() -> workerEngine.snapshot().slotOf(gone.id()) < 0, "the worker follows the new leader");
                assertEquals(11, workerEngine.snapshot().size());
            } finally {
                a.close();
            }
        }
    }

    @Test
    void aTakeoverWhoseConfigurationCannotBeReadReleasesTheLease() throws Exception {
        try (MemoryPoolStore store = new MemoryPoolStore()) {
            store.upsert(pool(3, 43), wall.instant());
            PoolEngine engine = engine(store);
            engine.refresh();
            AtomicInteger attempts = new AtomicInteger();
            try (ControlRole c = ControlRole.startLeased(
                            redis, settings, engine, Duration.ofMillis(50), wall, ticker, "c", () -> {
                                attempts.incrementAndGet();
                                throw new IllegalStateException("configuration database unavailable");
                            });
                    ControlLeadership lease = ControlLeadership.open(redis)) {
                assertEquals(ControlRole.State.STANDBY, c.state(), "no leader without its configuration");
                assertTrue(lease.current().isEmpty(), "the lease was released at once");
                awaitTrue(() -> attempts.get() >= 2, "it keeps trying");
                assertEquals(ControlRole.State.STANDBY, c.state());
                assertEquals(0, c.takeovers());
            }
        }
    }
}
