package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.testkit.Await;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The shared idle sweeper of established tunnels: what it expires, and that its thread does not linger. */
class IdleWatchdogTest {

    private static final long IDLE = Duration.ofSeconds(10).toNanos();

    /** A watched party with a settable last activity that counts its expiries. */
    private static final class Party implements IdleWatchdog.Watched {
        volatile long last;
        final long idle;
        final AtomicInteger expired = new AtomicInteger();

        Party(long last) {
            this(last, IDLE);
        }

        Party(long last, long idle) {
            this.last = last;
            this.idle = idle;
        }

        @Override
        public long lastActivity() {
            return last;
        }

        @Override
        public long idleNanos() {
            return idle;
        }

        @Override
        public void expire() {
            expired.incrementAndGet();
        }
    }

    @Test
    void aSweepExpiresOnlyPartiesIdleForTheirTimeoutAndEachOnce() {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        IdleWatchdog w = new IdleWatchdog(now::get, Duration.ofHours(1)); // the sweeper thread stays parked
        Party quiet = new Party(now.get());
        Party busy = new Party(now.get());
        w.watch(quiet);
        w.watch(busy);
        now.addAndGet(IDLE - 1);
        busy.last = now.get();
        assertEquals(0, w.sweep(), "nobody idle for the full timeout yet");
        now.incrementAndGet();
        assertEquals(1, w.sweep());
        assertEquals(1, quiet.expired.get());
        assertEquals(0, busy.expired.get(), "activity on the busy party moved its deadline");
        assertEquals(0, w.sweep(), "an expired party is not expired twice");
        assertEquals(1, w.watching());
        w.unwatch(busy);
        now.addAndGet(2 * IDLE);
        assertEquals(0, w.sweep(), "an unwatched party is never expired");
        assertEquals(0, busy.expired.get());
    }

    @Test
    void theSweeperRunsWhileSomethingIsWatchedAndThenEnds() {
        IdleWatchdog w = new IdleWatchdog(System::nanoTime, Duration.ofMillis(80)); // 10 ms sweeps
        Party p = new Party(System.nanoTime(), Duration.ofMillis(50).toNanos());
        w.watch(p);
        Await.atMost(Duration.ofSeconds(10))
                .until("the real sweeper to expire the idle party", p.expired::get, n -> n == 1);
        Await.atMost(Duration.ofSeconds(10)).until("the sweeper to end once nothing is watched", w::sweeping, s -> !s);
        Party again = new Party(System.nanoTime(), Duration.ofMillis(50).toNanos());
        w.watch(again); // a new sweeper starts for it
        Await.atMost(Duration.ofSeconds(10))
                .until("a restarted sweeper to expire the next idle party", again.expired::get, n -> n == 1);
        assertEquals(1, p.expired.get());
    }
}
