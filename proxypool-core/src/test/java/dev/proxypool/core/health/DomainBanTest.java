package dev.proxypool.core.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A destination's ban excludes the proxy for that domain only, for a while, and never touches its health state. */
class DomainBanTest {

    @Test
    void aBanNeverChangesTheStateInAnyState() {
        for (HealthState target : HealthState.values()) {
            Fx fx = new Fx();
            switch (target) {
                case HEALTHY -> {}
                case COOLING -> fx.cool();
                case PROBE_ALLOWED -> fx.cool().probeByRequest();
                case DISABLED -> fx.health.disable("x", fx.now());
            }
            HealthStatus before = fx.health.status();
            int transitions = fx.transitions.size();
            for (int i = 0; i < 50; i++) {
                fx.health.banDomain("shop.example", fx.now());
            }
            assertEquals(before, fx.health.status(), target.name());
            assertEquals(transitions, fx.transitions.size());
            assertTrue(fx.health.isBannedFor("shop.example", fx.now()));
        }
    }

    @Test
    void aBanAffectsOnlyItsDomainAndTheProxyStaysAdmitted() {
        Fx fx = new Fx();
        fx.health.banDomain("shop.example", fx.now());
        assertTrue(fx.health.isBannedFor("shop.example", fx.now()));
        assertTrue(fx.health.isBannedFor("SHOP.Example", fx.now()), "domains compare case-insensitively");
        assertFalse(fx.health.isBannedFor("news.example", fx.now()));
        assertFalse(fx.health.isBannedFor("www.shop.example", fx.now()), "a ban names one host, not its subdomains");
        assertEquals(Admission.ADMITTED, fx.health.tryAdmit(fx.now()));
        assertEquals(0, fx.health.windowRequests(fx.now()), "a ban is not a request outcome");
        assertEquals(1.0, fx.health.weightFactor(), "nor a failure");
    }

    @Test
    void aBanExpiresAfterItsDurationAndIsDroppedLazily() {
        Fx fx = new Fx(); // 10 min
        fx.health.banDomain("shop.example", fx.now());
        fx.advance(Duration.ofMinutes(10).minusNanos(1));
        assertTrue(fx.health.isBannedFor("shop.example", fx.now()));
        assertEquals(1, fx.health.bannedDomainCount());
        fx.advance(Duration.ofNanos(1));
        assertFalse(fx.health.isBannedFor("shop.example", fx.now()));
        assertEquals(0, fx.health.bannedDomainCount(), "the read that saw it expired dropped it");
    }

    @Test
    void aRepeatedBanExtendsIt() {
        Fx fx = new Fx();
        fx.health.banDomain("shop.example", fx.now());
        fx.advance(Duration.ofMinutes(8));
        fx.health.banDomain("shop.example", fx.now());
        fx.advance(Duration.ofMinutes(8));
        assertTrue(fx.health.isBannedFor("shop.example", fx.now()));
        assertEquals(1, fx.health.bannedDomainCount());
    }

    @Test
    void bansAreBoundedAndTheSoonestToExpireGoesFirst() {
        Fx.Policy p = new Fx.Policy();
        p.maxBans = 3;
        Fx fx = new Fx(p.build());
        fx.health.banDomain("a.example", fx.now());
        fx.advance(Duration.ofSeconds(1));
        fx.health.banDomain("b.example", fx.now());
        fx.advance(Duration.ofSeconds(1));
        fx.health.banDomain("c.example", fx.now());
        fx.advance(Duration.ofSeconds(1));
        fx.health.banDomain("a.example", fx.now()); // re-ban: a now expires last, b is the soonest
        fx.health.banDomain("d.example", fx.now());

        assertEquals(3, fx.health.bannedDomainCount());
        assertFalse(fx.health.isBannedFor("b.example", fx.now()), "evicted: soonest to expire");
        assertTrue(fx.health.isBannedFor("a.example", fx.now()));
        assertTrue(fx.health.isBannedFor("c.example", fx.now()));
        assertTrue(fx.health.isBannedFor("d.example", fx.now()));
    }

    @Test
    void atTheBoundExpiredBansMakeRoomBeforeLiveOnes() {
        Fx.Policy p = new Fx.Policy();
        p.maxBans = 2;
        p.banDuration = Duration.ofMinutes(1);
        Fx fx = new Fx(p.build());
        fx.health.banDomain("old.example", fx.now());
        fx.advance(Duration.ofSeconds(50));
        fx.health.banDomain("live.example", fx.now());
        fx.advance(Duration.ofSeconds(15)); // old expired, unread
        fx.health.banDomain("new.example", fx.now());
        assertEquals(2, fx.health.bannedDomainCount());
        assertTrue(fx.health.isBannedFor("live.example", fx.now()));
        assertTrue(fx.health.isBannedFor("new.example", fx.now()));
    }

    @Test
    void theBoundHoldsUnderAFloodOfDistinctDomains() {
        Fx.Policy p = new Fx.Policy();
        p.maxBans = 100;
        Fx fx = new Fx(p.build());
        for (int i = 0; i < 10_000; i++) {
            fx.health.banDomain("d" + i + ".example", fx.now());
            fx.clock.advanceNanos(1);
        }
        assertEquals(100, fx.health.bannedDomainCount());
        assertTrue(fx.health.isBannedFor("d9999.example", fx.now()));
        assertTrue(fx.health.isBannedFor("d9900.example", fx.now()));
        assertFalse(fx.health.isBannedFor("d9899.example", fx.now()), "the oldest went first");
    }

    @Test
    @Timeout(20)
    void concurrentBansNeverExceedTheBound() throws Exception {
        Fx.Policy p = new Fx.Policy();
        p.maxBans = 64;
        Fx fx = new Fx(p.build());
        int threads = 8;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            all.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 5_000; i++) {
                    fx.health.banDomain("t" + id + "-" + i + ".example", fx.now());
                    fx.health.isBannedFor("t" + id + "-" + (i / 2) + ".example", fx.now());
                }
            }));
        }
        start.countDown();
        for (Thread t : all) {
            t.join(TimeUnit.SECONDS.toMillis(15));
        }
        assertEquals(64, fx.health.bannedDomainCount());
        assertEquals(HealthState.HEALTHY, fx.health.state());
    }

    @Test
    void aBlankDomainIsRejected() {
        Fx fx = new Fx();
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> fx.health.banDomain("", fx.now()));
        assertEquals("ban domain must not be blank, got ''", e.getMessage());
        assertFalse(fx.health.isBannedFor("anything.example", fx.now()));
    }
}
