package dev.proxypool.core.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.dispatch.Dispatcher;
import dev.proxypool.core.dispatch.NoCandidate;
import dev.proxypool.core.dispatch.PickRequest;
import dev.proxypool.core.dispatch.PickResult;
import dev.proxypool.core.dispatch.Picked;
import dev.proxypool.core.dispatch.Strategy;
import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.health.HealthReason;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.HealthStatus;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.snapshot.PoolFixture;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Reliability scenario 2 of issue #9, <b>health semantics with a fake clock</b>, one test per promise,
 * through the public health and dispatch APIs only (defaults of docs/design.md#health: 3 failures in a row cool,
 * cooldown 3 min doubling to 30 min, probe timeout 30 s, domain ban 10 min, slow start 60 s).
 *
 * <p>Finer-grained tests of the same rules live beside the code: {@code CooldownBackoffTest}
 * (nanosecond-exact deadlines, backoff across probe holders), {@code ProbePermitRaceTest} (three rounds
 * of 1,000 racers, and never two probes outstanding under a moving clock), {@code DomainBanTest},
 * {@code PassiveDetectionTest}, {@code WeightTest} (the ramp as weights).
 */
class HealthSemanticsScenarioTest {

    private static final HealthPolicy P = HealthPolicy.DEFAULTS;
    private static final int CALLERS = 1_000;

    private final ManualClock clock = new ManualClock();
    private final ProxyHealth health = new ProxyHealth(P, clock.read());

    private long now() {
        return clock.read();
    }

    private void fail(FailureKind kind) {
        assertEquals(Admission.ADMITTED, health.tryAdmit(now()));
        health.recordFailure(Admission.ADMITTED, kind, now());
    }

    private void cool() {
        for (int i = 0; i < P.consecutiveFailures(); i++) {
            fail(FailureKind.CONNECT_TIMEOUT);
        }
        assertEquals(HealthState.COOLING, health.state());
    }

    private void toCooldownDeadline() {
        long wait = health.status().cooldownUntilNanos() - now();
        assertTrue(wait > 0, "still cooling");
        clock.advanceNanos(wait);
    }

    @Test
    void consecutiveFailuresCoolTheProxyWithTheirReason() {
        for (int round = 0; round < 3; round++) { // a success in between starts the count again
            for (int i = 1; i < P.consecutiveFailures(); i++) {
                fail(FailureKind.CONNECTION_RESET);
            }
            assertEquals(
                    HealthState.HEALTHY, health.state(), (P.consecutiveFailures() - 1) + " failures are not enough");
            assertEquals(Admission.ADMITTED, health.tryAdmit(now()));
            health.recordSuccess(Admission.ADMITTED, 1_000_000, now());
            assertEquals(0, health.passiveFailureStreak());
        }
        for (int i = 0; i < P.consecutiveFailures(); i++) {
            fail(FailureKind.CONNECTION_RESET);
        }
        HealthStatus s = health.status();
        assertEquals(HealthState.COOLING, s.state());
        assertEquals(
                new HealthReason.Failure(FailureKind.CONNECTION_RESET, HealthReason.Trigger.CONSECUTIVE_FAILURES),
                s.reason());
        assertEquals(P.cooldownInitial().toNanos(), s.cooldownUntilNanos() - now());
        assertEquals(Admission.DENIED, health.tryAdmit(now()), "a cooling proxy carries no request");
    }

    @Test
    void cooldownBackoffDoublesOnEachFailedProbeAndIsCapped() {
        cool();
        List<Duration> cooldowns = new ArrayList<>();
        for (int probe = 0; probe < 7; probe++) {
            HealthStatus s = health.status();
            cooldowns.add(Duration.ofNanos(s.backoffNanos()));
            clock.advanceNanos(s.cooldownUntilNanos() - now() - 1);
            assertEquals(Admission.DENIED, health.tryAdmit(now()), "1 ns before the deadline");
            clock.advanceNanos(1);
            assertEquals(Admission.PROBE, health.tryAdmit(now()));
            health.recordFailure(Admission.PROBE, FailureKind.CONNECT_TIMEOUT, now());
            assertEquals(HealthState.COOLING, health.state());
        }
        cooldowns.add(Duration.ofNanos(health.status().backoffNanos()));
        System.out.println("[reliability] scenario 2 cooldowns after 0..7 failed probes: " + cooldowns);
        assertEquals(
                List.of(
                        Duration.ofMinutes(3),
                        Duration.ofMinutes(6),
                        Duration.ofMinutes(12),
                        Duration.ofMinutes(24),
                        P.cooldownMax(),
                        P.cooldownMax(),
                        P.cooldownMax(),
                        P.cooldownMax()),
                cooldowns);
    }

    /** One round of {@code ProbePermitRaceTest}'s race (which runs three, plus a moving-clock variant). */
    @Test
    @Timeout(30)
    void exactlyOneProbeAfterTheDeadlineUnderAThousandConcurrentCallers() throws Exception {
        cool();
        toCooldownDeadline();
        int[] outcomes = race(CALLERS);
        System.out.println("[reliability] scenario 2 race at the deadline: " + CALLERS + " callers -> probe="
                + outcomes[0] + " denied=" + outcomes[1] + " admitted=" + outcomes[2]);
        assertEquals(1, outcomes[0], "exactly one probe");
        assertEquals(CALLERS - 1, outcomes[1]);
        assertEquals(0, outcomes[2]);
        assertEquals(HealthState.PROBE_ALLOWED, health.state());
    }

    @Test
    @Timeout(30)
    void aProbeThatNeverReturnsExpiresAsAFailureAndNeverLeavesTheProxyStuck() throws Exception {
        cool();
        toCooldownDeadline();
        assertEquals(Admission.PROBE, health.tryAdmit(now())); // its holder never reports
        long probeDeadline = health.status().probeDeadlineNanos();
        assertEquals(now() + P.probeTimeout().toNanos(), probeDeadline);

        clock.advanceNanos(probeDeadline - now() - 1);
        assertEquals(0, race(CALLERS)[0], "no second probe while the first may still answer");
        assertEquals(HealthState.PROBE_ALLOWED, health.state());

        clock.advanceNanos(1);
        int[] atExpiry = race(CALLERS);
        assertEquals(0, atExpiry[0] + atExpiry[2], "expiry cools; it grants nothing");
        HealthStatus s = health.status();
        assertEquals(HealthState.COOLING, s.state());
        assertEquals(HealthReason.Lifecycle.PROBE_EXPIRED, s.reason());
        assertEquals(
                2 * P.cooldownInitial().toNanos(), s.backoffNanos(), "counted as a failed probe: the backoff doubles");
        assertEquals(probeDeadline + s.backoffNanos(), s.cooldownUntilNanos());

        health.recordSuccess(Admission.PROBE, 1_000, now()); // the straggler finally reports: too late
        assertEquals(HealthState.COOLING, health.state());

        toCooldownDeadline();
        assertEquals(1, race(CALLERS)[0], "the next cooldown ends in exactly one fresh permit");
        health.recordSuccess(Admission.PROBE, 1_000, now());
        assertEquals(HealthState.HEALTHY, health.state());
        assertEquals(HealthReason.Lifecycle.PROBE_SUCCEEDED, health.status().reason());
    }

    @Test
    void aDestinations403Or429NeverCoolsTheProxyItOnlyBansItForThatDomain() {
        PoolFixture f = new PoolFixture();
        PoolSnapshot snapshot =
                f.build(PoolFixture.proxy("a").build(), PoolFixture.proxy("b").build());
        ProxyHealth a = f.runtime("a").health();
        Dispatcher dispatcher = new Dispatcher();
        PickRequest shop =
                PickRequest.of(CandidateFilter.ANY, Strategy.ROUND_ROBIN).withDomain("shop.example");
        PickRequest other =
                PickRequest.of(CandidateFilter.ANY, Strategy.ROUND_ROBIN).withDomain("other.example");
        for (int i = 0;
                i < 1_000;
                i++) { // each answer is a success of the proxy plus a ban (how the gateway reports it)
            a.recordSuccess(Admission.ADMITTED, 1_000_000, f.now());
            a.banDomain(i % 2 == 0 ? "shop.example" : "SHOP.example", f.now());
        }
        assertEquals(HealthState.HEALTHY, a.state(), "bans never change the state");
        assertEquals(HealthReason.Lifecycle.CREATED, a.status().reason());
        assertEquals(0, a.passiveFailureStreak());
        assertEquals(0, a.windowFailures(f.now()));
        assertEquals(1.0, a.weightFactor(), "nor the weight");
        assertEquals(1, a.bannedDomainCount());
        for (int i = 0; i < 20; i++) {
            assertEquals("b", pickAndRelease(dispatcher, snapshot, shop, f.now()), "excluded for shop.example");
        }
        int aForOthers = 0;
        for (int i = 0; i < 20; i++) {
            aForOthers += pickAndRelease(dispatcher, snapshot, other, f.now()).equals("a") ? 1 : 0;
        }
        assertEquals(10, aForOthers, "full share for every other destination");

        f.runtime("b").health().banDomain("shop.example", f.now());
        assertEquals(
                NoCandidate.Reason.BANNED,
                assertInstanceOf(NoCandidate.class, dispatcher.pick(snapshot, shop, f.now()))
                        .reason());
        f.clock.advance(P.domainBanDuration());
        assertFalse(a.isBannedFor("shop.example", f.now()), "a ban expires");
        pickAndRelease(dispatcher, snapshot, shop, f.now());
    }

    /**
     * Expected share of the recovered proxy among {@code n} equal ones: its weight is ramped to
     * r = 10% + 90% × elapsed/slowStart (docs/design.md#slow-start H11, {@code ProxyHealth.effectiveWeight}), so r / (r + n - 1).
     */
    @Test
    void slowStartRampsTheRecoveredProxysPickShareBack() {
        int n = 4;
        int picks = 40_000;
        for (int weight : new int[] {1, 10}) { // 1 is the default weight (docs/design.md#proxy-model, M1)
            PoolFixture f = new PoolFixture();
            List<Proxy> proxies = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                proxies.add(PoolFixture.proxy("p" + i).weight(weight).build());
            }
            PoolSnapshot snapshot = f.build(proxies);
            ProxyHealth recovered = f.runtime("p0").health();
            for (int i = 0; i < P.consecutiveFailures(); i++) {
                recovered.recordFailure(Admission.ADMITTED, FailureKind.CONNECT_TIMEOUT, f.now());
            }
            f.clock.advance(P.cooldownInitial());
            assertEquals(Admission.PROBE, recovered.tryAdmit(f.now()));
            recovered.recordSuccess(Admission.PROBE, 1_000_000, f.now());
            assertEquals(HealthState.HEALTHY, recovered.state());

            Dispatcher dispatcher = new Dispatcher();
            PickRequest request = PickRequest.of(CandidateFilter.ANY, Strategy.WEIGHTED);
            StringBuilder report = new StringBuilder("[reliability] scenario 2 slow start, " + n + " proxies of weight "
                    + weight + ", " + picks + " picks each:");
            for (int quarter = 1; quarter <= 4; quarter++) {
                f.clock.advance(P.slowStart().dividedBy(4));
                double ramp = Math.min(1.0, 0.1 + 0.9 * quarter / 4.0);
                double expected = ramp / (ramp + n - 1);
                int mine = 0;
                for (int i = 0; i < picks; i++) {
                    mine += pickAndRelease(dispatcher, snapshot, request, f.now())
                                    .equals("p0")
                            ? 1
                            : 0;
                }
                double share = mine / (double) picks;
                report.append(String.format(" %d%% -> %.4f (expected %.4f)", quarter * 25, share, expected));
                assertEquals(expected, share, 0.015, "share at " + quarter * 25 + "% of slow start, weight " + weight);
            }
            System.out.println(report);
            assertEquals(HealthState.HEALTHY, recovered.state());
        }
    }

    private static String pickAndRelease(Dispatcher d, PoolSnapshot s, PickRequest r, long now) {
        PickResult result = d.pick(s, r, now);
        Picked p = assertInstanceOf(Picked.class, result, () -> "no pick: " + result);
        p.reservation().release();
        return p.proxy().id();
    }

    /** {@code callers} threads call {@link ProxyHealth#tryAdmit} at once; returns {probe, denied, admitted}. */
    private int[] race(int callers) throws InterruptedException {
        long at = now();
        CountDownLatch ready = new CountDownLatch(callers);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger probe = new AtomicInteger();
        AtomicInteger denied = new AtomicInteger();
        AtomicInteger admitted = new AtomicInteger();
        List<Thread> threads = new ArrayList<>(callers);
        for (int i = 0; i < callers; i++) {
            threads.add(Thread.ofPlatform().start(() -> {
                ready.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                (switch (health.tryAdmit(at)) {
                            case PROBE -> probe;
                            case DENIED -> denied;
                            case ADMITTED -> admitted;
                        })
                        .incrementAndGet();
            }));
        }
        assertTrue(ready.await(20, TimeUnit.SECONDS), "callers ready");
        go.countDown();
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(20));
        }
        assertEquals(callers, probe.get() + denied.get() + admitted.get(), "every caller answered");
        return new int[] {probe.get(), denied.get(), admitted.get()};
    }
}
