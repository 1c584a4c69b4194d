package dev.proxypool.sdk.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The rules of {@link StageLock}, run against every implementation. */
abstract class StageLeaseContract {

    static final Duration TTL = Duration.ofMillis(400);

    StageLock lease;
    String stage;

    /** A fresh lease under a namespace of its own. */
    abstract StageLock create();

    /** Lets {@code stage}'s lease lapse (it was last taken or renewed with {@link #TTL}). */
    abstract void lapse(StageLock lease, String stage);

    @BeforeEach
    void open() {
        lease = create();
        stage = "stage-" + System.identityHashCode(this);
    }

    @AfterEach
    void closeLease() {
        lease.close();
    }

    @Test
    void aFreeStageIsTakenAndThenRefusedToOthers() {
        assertEquals(Optional.empty(), lease.currentHolder(stage));
        assertTrue(lease.tryAcquire(stage, "a", TTL));
        assertEquals(Optional.of("a"), lease.currentHolder(stage));
        assertFalse(lease.tryAcquire(stage, "b", TTL));
        assertEquals(Optional.of("a"), lease.currentHolder(stage));
    }

    @Test
    void theHolderMayAcquireAgainAndRenew() {
        assertTrue(lease.tryAcquire(stage, "a", TTL));
        assertTrue(lease.tryAcquire(stage, "a", TTL), "re-acquiring our own lease extends it");
        assertTrue(lease.renew(stage, "a", TTL));
        assertFalse(lease.renew(stage, "b", TTL), "only the holder renews");
        assertEquals(Optional.of("a"), lease.currentHolder(stage));
    }

    @Test
    void renewingAFreeStageFailsAndDoesNotTakeIt() {
        assertFalse(lease.renew(stage, "a", TTL));
        assertEquals(Optional.empty(), lease.currentHolder(stage));
    }

    @Test
    void onlyTheHolderReleases() {
        assertTrue(lease.tryAcquire(stage, "a", TTL));
        assertFalse(lease.release(stage, "b"));
        assertEquals(Optional.of("a"), lease.currentHolder(stage));
        assertTrue(lease.release(stage, "a"));
        assertEquals(Optional.empty(), lease.currentHolder(stage));
        assertFalse(lease.release(stage, "a"), "already released");
        assertTrue(lease.tryAcquire(stage, "b", TTL), "free again at once");
    }

    @Test
    void aLapsedLeaseGoesToTheNextHolderAndTheOldOneCannotRenewOrReleaseIt() {
        assertTrue(lease.tryAcquire(stage, "a", TTL));
        lapse(lease, stage);
        assertEquals(Optional.empty(), lease.currentHolder(stage));
        assertFalse(lease.renew(stage, "a", TTL), "a lapsed lease is not renewed");
        assertTrue(lease.tryAcquire(stage, "b", TTL));
        assertFalse(lease.renew(stage, "a", TTL));
        assertFalse(lease.release(stage, "a"), "the old holder cannot release the new holder's lease");
        assertEquals(Optional.of("b"), lease.currentHolder(stage));
    }

    @Test
    void stagesAreIndependent() {
        assertTrue(lease.tryAcquire(stage, "a", TTL));
        assertTrue(lease.tryAcquire(stage + "-other", "b", TTL));
        assertEquals(Optional.of("b"), lease.currentHolder(stage + "-other"));
        assertTrue(lease.release(stage + "-other", "b"));
    }

    @Test
    void ofManyConcurrentContendersExactlyOneWins() throws Exception {
        int contenders = 16;
        AtomicInteger winners = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < contenders; i++) {
            String holder = "h" + i;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                    if (lease.tryAcquire(stage, holder, Duration.ofSeconds(30))) {
                        winners.incrementAndGet();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        go.countDown();
        for (Thread t : threads) {
            t.join(10_000);
        }
        assertEquals(1, winners.get());
        String holder = lease.currentHolder(stage).orElseThrow();
        assertTrue(lease.release(stage, holder));
    }

    @Test
    void badArgumentsAreRefusedByName() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> lease.tryAcquire("", "a", TTL))
                .getMessage()
                .contains("stage"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> lease.tryAcquire(stage, "a b", TTL))
                .getMessage()
                .contains("holderId"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> lease.renew(stage, "a", Duration.ZERO))
                .getMessage()
                .contains("ttl"));
    }
}
