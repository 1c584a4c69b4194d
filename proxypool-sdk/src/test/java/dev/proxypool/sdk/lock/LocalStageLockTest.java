package dev.proxypool.sdk.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.ManualClock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LocalStageLockTest extends StageLeaseContract {

    private final ManualClock clock = new ManualClock();

    @Override
    StageLock create() {
        return new LocalStageLock(clock);
    }

    @Override
    void lapse(StageLock lease, String stage) {
        clock.advance(TTL);
    }

    @Test
    void aLeaseHoldsUntilItsTtlAndARenewalMovesTheDeadline() {
        assertTrue(lease.tryAcquire(stage, "a", Duration.ofSeconds(3)));
        clock.advance(Duration.ofMillis(2_999));
        assertEquals(Optional.of("a"), lease.currentHolder(stage));
        assertTrue(lease.renew(stage, "a", Duration.ofSeconds(3)));
        clock.advance(Duration.ofMillis(2_999));
        assertFalse(lease.tryAcquire(stage, "b", Duration.ofSeconds(3)), "renewed 2.999 s ago");
        clock.advance(Duration.ofMillis(1));
        assertEquals(Optional.empty(), lease.currentHolder(stage), "lapses exactly at the deadline");
        assertTrue(lease.tryAcquire(stage, "b", Duration.ofSeconds(3)));
    }
}
