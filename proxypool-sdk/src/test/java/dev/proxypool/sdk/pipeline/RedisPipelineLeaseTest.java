package dev.proxypool.sdk.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.lock.RedisStageLock;
import dev.proxypool.sdk.lock.StageLock;
import dev.proxypool.sdk.redis.RedisPoolStore;
import dev.proxypool.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two "processes" (each its own store connection, lease client, engine and pipeline) sharing the
 * machine's Redis under a random prefix: one writer at a time, take-over after a dead writer's
 * ttl by Redis' clock, release on close.
 */
class RedisPipelineLeaseTest {

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock();
    private final String prefix = PipelineRedis.randomPrefix();
    private final RedisPoolStore storeA = PipelineRedis.store(prefix);
    private final RedisPoolStore storeB = PipelineRedis.store(prefix);
    private final RedisStageLock leaseA = RedisStageLock.connect(PipelineRedis.config(prefix));
    private final RedisStageLock leaseB = RedisStageLock.connect(PipelineRedis.config(prefix));

    @AfterEach
    void cleanUp() {
        storeA.close();
        storeB.close();
        leaseA.close();
        leaseB.close();
        PipelineRedis.deleteKeys(prefix);
    }

    @Test
    void ofTwoPipelinesSharingARedisLeaseExactlyOnePublishesEachRound() {
        LeasedPipelines setup = new LeasedPipelines(dir, clock);
        try (CollectionPipeline a = setup.pipeline(storeA, leaseA, "process-a", Duration.ofSeconds(10));
                CollectionPipeline b = setup.pipeline(storeB, leaseB, "process-b", Duration.ofSeconds(10))) {
            int writesA = 0;
            int writesB = 0;
            for (int round = 0; round < 6; round++) {
                PipelineRound first = (round % 2 == 0 ? b : a).runOnce();
                PipelineRound second = (round % 2 == 0 ? a : b).runOnce();
                assertTrue(first.writer() != second.writer(), "round " + round + ": exactly one writer");
                PipelineRound writer = first.writer() ? first : second;
                assertEquals(LeasedPipelines.PROXIES, writer.published());
                assertEquals(List.of(), (first.writer() ? second : first).reports());
                writesA += (round % 2 == 0 ? second : first).writer() ? 1 : 0;
                writesB += (round % 2 == 0 ? first : second).writer() ? 1 : 0;
                clock.advance(Duration.ofSeconds(1));
            }
            assertEquals(6, writesB, "b took the lease in the first round and kept it");
            assertEquals(0, writesA);
            assertEquals(
                    LeasedPipelines.PROXIES,
                    a.engine().snapshot().size(),
                    "the follower serves what the writer published");
        }
    }

    @Test
    void whenTheRedisLeaseHolderDiesTheOtherTakesOverAfterTheTtl() throws Exception {
        Duration ttl = Duration.ofMillis(800);
        LeasedPipelines setup = new LeasedPipelines(dir, clock);
        try (CollectionPipeline b = setup.pipeline(storeB, leaseB, "process-b", ttl)) {
            CollectionPipeline a = setup.pipeline(storeA, leaseA, "process-a", ttl);
            assertTrue(a.runOnce().writer());
            long died = System.nanoTime(); // a stops renewing (and never releases)
            assertFalse(b.runOnce().writer());
            Await.atMost(Duration.ofSeconds(10))
                    .every(Duration.ofMillis(20))
                    .until(
                            "b to take over the lease",
                            () -> {
                                clock.advance(Duration.ofSeconds(1));
                                return b.runOnce();
                            },
                            PipelineRound::writer);
            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - died);
            assertTrue(waitedMillis >= ttl.toMillis() - 100, "took over after " + waitedMillis + " ms, before the ttl");
            assertTrue(waitedMillis < ttl.toMillis() + 3_000, "took over only after " + waitedMillis + " ms");
            assertEquals(Optional.of("process-b"), leaseB.currentHolder(StageLock.PIPELINE));
            assertFalse(a.runOnce().writer(), "the old holder comes back as a follower");
            a.close();
            assertEquals(
                    Optional.of("process-b"),
                    leaseB.currentHolder(StageLock.PIPELINE),
                    "a's close releases nothing of b's");
        }
    }

    /**
     * A renew that fails (here the store is unreachable for one call; in the wild, close's own
     * interrupt landing in the Redis call) makes the pipeline stop writing, but Redis still names it
     * the holder: close must release it then too, not leave it to lapse after its ttl.
     */
    @Test
    void aHolderWhoseLastRenewFailedStillReleasesOnClose() throws Exception {
        LeasedPipelines setup = new LeasedPipelines(dir, clock);
        AtomicInteger failRenews = new AtomicInteger();
        StageLock flaky = new StageLock() {
            @Override
            public boolean tryAcquire(String stage, String holderId, Duration ttl) {
                return leaseA.tryAcquire(stage, holderId, ttl);
            }

            @Override
            public boolean renew(String stage, String holderId, Duration ttl) {
                if (failRenews.getAndDecrement() > 0) {
                    throw new StoreUnavailableException("renew cut short");
                }
                return leaseA.renew(stage, holderId, ttl);
            }

            @Override
            public boolean release(String stage, String holderId) {
                return leaseA.release(stage, holderId);
            }

            @Override
            public Optional<String> currentHolder(String stage) {
                return leaseA.currentHolder(stage);
            }

            @Override
            public void close() {}
        };
        CollectionPipeline a = setup.pipeline(storeA, flaky, "process-a", Duration.ofSeconds(30));
        assertTrue(a.runOnce().writer());
        failRenews.set(1);
        assertFalse(a.runOnce().writer(), "a round whose renew failed writes nothing");
        assertEquals(Optional.of("process-a"), leaseA.currentHolder(StageLock.PIPELINE), "Redis still names a");
        a.close();
        assertEquals(Optional.empty(), leaseA.currentHolder(StageLock.PIPELINE), "released on close");
    }

    @Test
    void backgroundPipelinesHaveOneWriterAndReleaseOnClose() throws Exception {
        LeasedPipelines setup = new LeasedPipelines(dir, clock);
        CollectionPipeline a = setup.pipeline(storeA, leaseA, "process-a", Duration.ofSeconds(3));
        CollectionPipeline b = setup.pipeline(storeB, leaseB, "process-b", Duration.ofSeconds(3));
        AtomicInteger writerRoundsA = new AtomicInteger();
        AtomicInteger writerRoundsB = new AtomicInteger();
        AtomicInteger rounds = new AtomicInteger();
        a.addListener(new CollectionPipeline.Listener() {
            @Override
            public void onRound(PipelineRound round) {
                rounds.incrementAndGet();
                if (round.writer()) {
                    writerRoundsA.incrementAndGet();
                }
            }
        });
        b.addListener(new CollectionPipeline.Listener() {
            @Override
            public void onRound(PipelineRound round) {
                rounds.incrementAndGet();
                if (round.writer()) {
                    writerRoundsB.incrementAndGet();
                }
            }
        });
        a.start(Duration.ofMillis(40));
        b.start(Duration.ofMillis(40));
        Await.atMost(Duration.ofSeconds(10)).until("30 pipeline rounds", rounds::get, n -> n >= 30);
        String holder = leaseA.currentHolder(StageLock.PIPELINE).orElseThrow();
        a.close();
        b.close();
        assertTrue(rounds.get() >= 30, "rounds: " + rounds.get());
        assertTrue(
                writerRoundsA.get() == 0 || writerRoundsB.get() == 0,
                "both wrote: a " + writerRoundsA.get() + ", b " + writerRoundsB.get());
        assertEquals(
                holder.equals("process-a") ? writerRoundsA.get() : writerRoundsB.get(),
                writerRoundsA.get() + writerRoundsB.get(),
                "the holder wrote every writer round");
        assertEquals(Optional.empty(), leaseA.currentHolder(StageLock.PIPELINE), "released on close");
    }
}
