package dev.proxypool.core.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The sliding-hour ledger under a manual clock: grants, settlement, the window edge, Retry-After, races. */
class QuotaLedgerTest {

    private final ManualClock clock = new ManualClock();

    private static QuotaLedger.Granted granted(QuotaLedger.Decision d) {
        return assertInstanceOf(QuotaLedger.Granted.class, d);
    }

    private static QuotaLedger.Exceeded exceeded(QuotaLedger.Decision d) {
        return assertInstanceOf(QuotaLedger.Exceeded.class, d);
    }

    @Test
    void clientsWithoutALimitAreUnlimitedAndUntracked() {
        QuotaLedger ledger = new QuotaLedger(Map.of("alice", 0), clock);
        for (String client : List.of("alice", "nobody")) {
            QuotaLedger.Granted g = granted(ledger.reserve(client, 1000, 1000));
            assertEquals(1000, g.proxies());
            g.settle(1000);
            assertEquals(0, ledger.used(client));
            assertEquals(0, ledger.limit(client));
        }
    }

    @Test
    void newLimitsKeepTheHourAlreadyUsedAndDroppedClientsAreUntracked() {
        QuotaLedger ledger = new QuotaLedger(Map.of("alice", 2, "bob", 5), clock);
        granted(ledger.reserve("alice", 2, 2)).settle(2);
        granted(ledger.reserve("bob", 1, 1)).settle(1);
        exceeded(ledger.reserve("alice", 1, 1));

        ledger.update(Map.of("alice", 3, "carol", 1));
        assertEquals(3, ledger.limit("alice"));
        assertEquals(2, ledger.used("alice"), "the hour's extractions still count against the new limit");
        granted(ledger.reserve("alice", 5, 1)).settle(1);
        exceeded(ledger.reserve("alice", 1, 1));
        assertEquals(0, ledger.limit("bob"), "bob dropped: unlimited and untracked");
        assertEquals(0, ledger.used("bob"));
        assertEquals(1, ledger.limit("carol"));

        assertThrows(IllegalArgumentException.class, () -> ledger.update(Map.of("alice", -1)));
        assertEquals(3, ledger.limit("alice"), "a refused update changes nothing");
        assertEquals(1, ledger.limit("carol"));
    }

    @Test
    void partialGetsWhatIsLeftAndAllOrNothingNeedsItsWholeCount() {
        QuotaLedger ledger = new QuotaLedger(Map.of("alice", 10), clock);
        granted(ledger.reserve("alice", 7, 7)).settle(7);
        QuotaLedger.Exceeded all = exceeded(ledger.reserve("alice", 4, 4));
        assertEquals(10, all.limit());
        assertEquals(7, all.used());
        QuotaLedger.Granted partial = granted(ledger.reserve("alice", 4, 1));
        assertEquals(3, partial.proxies(), "min(count, remaining)");
        partial.settle(3);
        assertEquals(10, ledger.used("alice"));
        exceeded(ledger.reserve("alice", 1, 1));
    }

    @Test
    void settlementFreesWhatWasNotHandedOut() {
        QuotaLedger ledger = new QuotaLedger(Map.of("alice", 10), clock);
        QuotaLedger.Granted g = granted(ledger.reserve("alice", 10, 1));
        assertEquals(10, ledger.used("alice"), "a reservation in flight counts");
        g.settle(4);
        assertEquals(4, ledger.used("alice"));
        granted(ledger.reserve("alice", 6, 6)).settle(0);
        assertEquals(4, ledger.used("alice"), "a failed extraction costs nothing");
        assertThrows(IllegalArgumentException.class, () -> g.settle(11));
    }

    @Test
    void windowSlidesOneHourExactly() {
        QuotaLedger ledger = new QuotaLedger(Map.of("alice", 5), clock);
        granted(ledger.reserve("alice", 3, 3)).settle(3); // t0
        clock.advance(Duration.ofMinutes(10));
        granted(ledger.reserve("alice", 2, 2)).settle(2); // t0 + 10 min
        clock.advance(Duration.ofMinutes(50).minusNanos(1));
        assertEquals(5, ledger.used("alice"), "t0 + 1 h - 1 ns: both entries count");
        clock.advanceNanos(1);
        assertEquals(2, ledger.used("alice"), "t0 + 1 h: the first entry left the window");
        clock.advance(Duration.ofMinutes(10));
        assertEquals(0, ledger.used("alice"));
    }

    @Test
    void retryAfterIsWhenEnoughOfTheWindowFreesUp() {
        QuotaLedger ledger = new QuotaLedger(Map.of("alice", 10), clock);
        granted(ledger.reserve("alice", 4, 4)).settle(4); // frees at t0 + 60 min
        clock.advance(Duration.ofMinutes(20));
        granted(ledger.reserve("alice", 6, 6)).settle(6); // frees at t0 + 80 min
        clock.advance(Duration.ofMinutes(10).plusMillis(500)); // now t0 + 30 min 0.5 s

        assertEquals(1800, exceeded(ledger.reserve("alice", 1, 1)).retryAfterSeconds(), "rounded up");
        assertEquals(1800, exceeded(ledger.reserve("alice", 4, 4)).retryAfterSeconds());
        assertEquals(3000, exceeded(ledger.reserve("alice", 5, 5)).retryAfterSeconds(), "needs the second entry too");
        assertEquals(
                3000,
                exceeded(ledger.reserve("alice", 11, 11)).retryAfterSeconds(),
                "more than the limit: never fits, so the time until the window is empty");
    }

    @Test
    void negativeLimitIsRefusedNamingTheClient() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new QuotaLedger(Map.of("alice", -1), clock));
        assertTrue(e.getMessage().contains("clients[alice].quota.extractionsPerHour"), e.getMessage());
    }

    @Test
    void wallClockSteppingBackKeepsTheQueueOrdered() {
        AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T01:00:00Z"));
        InstantSource wall = now::get;
        QuotaLedger ledger = new QuotaLedger(Map.of("alice", 5), wall);
        granted(ledger.reserve("alice", 3, 3)).settle(3);
        now.set(Instant.parse("2026-01-01T00:30:00Z")); // NTP stepped back 30 min
        granted(ledger.reserve("alice", 2, 2)).settle(2);
        now.set(Instant.parse("2026-01-01T02:00:00Z"));
        assertEquals(0, ledger.used("alice"), "both entries leave: the second was recorded at 01:00, not 00:30");
    }

    @Test
    void concurrentReservationsNeverOvershootTheLimit() throws Exception {
        QuotaLedger ledger = new QuotaLedger(Map.of("alice", 500), clock);
        AtomicInteger handedOut = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            int seed = t;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 400; i++) {
                    int wanted = 1 + (seed + i) % 7;
                    if (ledger.reserve("alice", wanted, i % 2 == 0 ? wanted : 1) instanceof QuotaLedger.Granted g) {
                        int keep = (seed + i) % 3 == 0 ? 0 : g.proxies(); // some extractions fail
                        g.settle(keep);
                        handedOut.addAndGet(keep);
                    }
                }
            }));
        }
        go.countDown();
        for (Thread t : threads) {
            t.join(20_000);
        }
        assertEquals(500, handedOut.get(), "the limit is met exactly, never passed");
        assertEquals(500, ledger.used("alice"));
    }
}
