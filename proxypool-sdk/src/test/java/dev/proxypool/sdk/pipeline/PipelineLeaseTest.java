package dev.proxypool.sdk.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.lock.LocalStageLock;
import dev.proxypool.sdk.lock.StageLock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One writer per stage (docs/design.md#collection-pipeline, P12) with an in-process lease on a manual clock: every rule, no sleeping. */
class PipelineLeaseTest {

    private static final Duration TTL = Duration.ofSeconds(3);

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock();
    private final MemoryPoolStore store = new MemoryPoolStore(StoreSettings.DEFAULTS);
    private final LocalStageLock lease = new LocalStageLock(clock);

    @Test
    void ofTwoPipelinesSharingALeaseExactlyOnePublishesEachRoundAndTheOtherFollows() {
        LeasedPipelines setup = new LeasedPipelines(dir, clock);
        try (CollectionPipeline a = setup.pipeline(store, lease, "a", TTL);
                CollectionPipeline b = setup.pipeline(store, lease, "b", TTL)) {
            for (int round = 0; round < 6; round++) {
                boolean aFirst = round % 2 == 0;
                PipelineRound first = (aFirst ? a : b).runOnce();
                PipelineRound second = (aFirst ? b : a).runOnce();
                PipelineRound ra = aFirst ? first : second;
                PipelineRound rb = aFirst ? second : first;
                assertTrue(ra.writer() && !rb.writer(), "round " + round + ": a keeps the lease it took first");
                assertEquals(1, ra.reports().size(), "the writer fetches");
                assertEquals(LeasedPipelines.PROXIES, ra.published());
                assertEquals(List.of(), rb.reports(), "the follower fetches nothing");
                assertEquals(0, rb.published());
                assertTrue(a.isWriter() && !b.isWriter());
                clock.advance(Duration.ofSeconds(1));
            }
            assertEquals(
                    LeasedPipelines.PROXIES,
                    b.engine().snapshot().size(),
                    "the follower serves what the writer published");
        }
    }

    @Test
    void whenTheWriterStopsRenewingTheOtherTakesOverExactlyAfterTheTtl() {
        LeasedPipelines setup = new LeasedPipelines(dir, clock);
        try (CollectionPipeline a = setup.pipeline(store, lease, "a", TTL);
                CollectionPipeline b = setup.pipeline(store, lease, "b", TTL)) {
            assertTrue(a.runOnce().writer());
            // a dies here: no more rounds, no release
            clock.advance(TTL.minusMillis(1));
            assertFalse(b.runOnce().writer(), "a's lease is still in force");
            clock.advance(Duration.ofMillis(1));
            PipelineRound takeover = b.runOnce();
            assertTrue(takeover.writer(), "the ttl passed without a renewal");
            assertEquals(1, takeover.reports().size());
            assertEquals(Optional.of("b"), lease.currentHolder(StageLock.PIPELINE));
            assertFalse(a.runOnce().writer(), "a comes back as a follower");
        }
    }

    @Test
    void closingTheWriterReleasesTheLeaseAtOnce() {
        LeasedPipelines setup = new LeasedPipelines(dir, clock);
        try (CollectionPipeline b = setup.pipeline(store, lease, "b", TTL)) {
            CollectionPipeline a = setup.pipeline(store, lease, "a", TTL);
            assertTrue(a.runOnce().writer());
            assertFalse(b.runOnce().writer());
            a.close();
            assertEquals(Optional.empty(), lease.currentHolder(StageLock.PIPELINE));
            assertTrue(b.runOnce().writer(), "no need to wait for the ttl");
        }
    }

    @Test
    void aWriterThatLosesTheLeaseDuringValidationWritesNothing() {
        LeasedPipelines setup = new LeasedPipelines(dir, clock, true);
        ValidationStage slow = candidates -> {
            clock.advance(TTL); // validation outlived the lease...
            assertTrue(lease.tryAcquire(StageLock.PIPELINE, "b", TTL)); // ...and another process took it
            return ValidationStage.NONE.validate(candidates);
        };
        try (CollectionPipeline a = setup.pipeline(store, lease, "a", TTL, slow)) {
            PipelineRound round = a.runOnce();
            assertEquals(1, round.reports().size(), "a fetched and validated while it held the lease");
            assertFalse(round.writer());
            assertEquals(0, round.published());
            assertEquals(0, store.available("lab"), "nothing written after the lease was lost");
            assertFalse(a.isWriter());
        }
        assertEquals(Optional.of("b"), lease.currentHolder(StageLock.PIPELINE), "a's close does not release b's lease");
    }

    @Test
    void aWriterThatCannotReachTheLeaseStoreStopsWriting() {
        LeasedPipelines setup = new LeasedPipelines(dir, clock);
        boolean[] down = {false};
        StageLock flaky = new StageLock() {
            @Override
            public boolean tryAcquire(String stage, String holderId, Duration ttl) {
                check();
                return lease.tryAcquire(stage, holderId, ttl);
            }

            @Override
            public boolean renew(String stage, String holderId, Duration ttl) {
                check();
                return lease.renew(stage, holderId, ttl);
            }

            @Override
            public boolean release(String stage, String holderId) {
                check();
                return lease.release(stage, holderId);
            }

            @Override
            public Optional<String> currentHolder(String stage) {
                return lease.currentHolder(stage);
            }

            private void check() {
                if (down[0]) {
                    throw new dev.proxypool.core.extract.StoreUnavailableException("lease store down");
                }
            }

            @Override
            public void close() {}
        };
        try (CollectionPipeline a = setup.pipeline(store, flaky, "a", TTL)) {
            assertTrue(a.runOnce().writer());
            int before = store.available("lab");
            down[0] = true;
            clock.advance(Duration.ofSeconds(2));
            PipelineRound round = a.runOnce();
            assertFalse(round.writer(), "no lease answer, no writing");
            assertEquals(List.of(), round.reports());
            assertEquals(before, store.available("lab"));
            down[0] = false;
            assertTrue(a.runOnce().writer(), "writes again once the lease store answers");
        }
    }

    @Test
    void withoutALeaseEveryRoundWrites() {
        LeasedPipelines setup = new LeasedPipelines(dir, clock);
        CollectionPipeline p = setup.pipeline(store, lease, "a", TTL);
        assertTrue(p.runOnce().writer());
        p.close();
    }
}
