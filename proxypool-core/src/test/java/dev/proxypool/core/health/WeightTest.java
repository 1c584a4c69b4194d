package dev.proxypool.core.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Slow start after a return to service, the bounded dynamic factor, latency EWMA and last-checked time. */
class WeightTest {

    /** Cooled, probed and recovered at {@code fx.now()}: slow start (60 s) begins now. */
    private static Fx recovered() {
        Fx fx = new Fx().cool().probeByRequest();
        fx.health.recordSuccess(Admission.PROBE, 1_000_000, fx.now());
        assertEquals(HealthState.HEALTHY, fx.health.state());
        return fx;
    }

    @ParameterizedTest(name = "base {0} at {1}s of 60s -> {2}")
    @CsvSource({
        "1000,  0, 100",
        "1000, 15, 325", // 25%: 10% + 90% x 0.25
        "1000, 30, 550", // 50%
        "1000, 45, 775", // 75%
        "1000, 60, 1000",
        "1000, 600, 1000",
        "100,  15, 33", // 32.5 rounds half up
        "100,  30, 55",
        "100,  45, 78",
        "1,     0, 1", // never below 1
        "5,     0, 1",
        "5,    45, 4"
    })
    void slowStartRampsLinearlyFromTenPercent(int base, int seconds, int expected) {
        Fx fx = recovered();
        fx.advance(Duration.ofSeconds(seconds));
        assertEquals(expected, fx.health.effectiveWeight(base, fx.now()));
    }

    @Test
    void aFreshProxyHasNoSlowStartAndAnEnabledOneHas() {
        Fx fx = new Fx();
        assertEquals(1000, fx.health.effectiveWeight(1000, fx.now()));
        fx.health.disable("x", fx.now());
        fx.health.enable("y", fx.now());
        fx.advance(Duration.ofSeconds(30));
        assertEquals(550, fx.health.effectiveWeight(1000, fx.now()));
    }

    @Test
    void zeroSlowStartMeansFullWeightAtOnce() {
        Fx.Policy p = new Fx.Policy();
        p.slowStart = Duration.ZERO;
        Fx fx = new Fx(p.build()).cool().probeByRequest();
        fx.health.recordSuccess(Admission.PROBE, 1, fx.now());
        assertEquals(1000, fx.health.effectiveWeight(1000, fx.now()));
    }

    @Test
    void baseWeightMustBePositive() {
        Fx fx = new Fx();
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> fx.health.effectiveWeight(0, fx.now()));
        assertEquals("baseWeight must be at least 1, got 0", e.getMessage());
    }

    @Test
    void eachUpdateMovesTheFactorByAtMostTenPercent() {
        Fx.Policy p = new Fx.Policy();
        p.consecutiveFailures = 1_000_000;
        p.errorRate = 1.0;
        ManualClock clock = new ManualClock();
        UpstreamBaseline upstream = new UpstreamBaseline("up");
        ProxyHealth peer = new ProxyHealth(p.build(), clock.read(), HealthListener.none(), upstream);
        ProxyHealth health = new ProxyHealth(p.build(), clock.read(), HealthListener.none(), upstream);
        for (int i = 0; i < 200; i++) {
            peer.recordSuccess(Admission.ADMITTED, 10_000_000, clock.read()); // the peer answers in 10 ms
            health.recordSuccess(Admission.ADMITTED, 10_000_000, clock.read());
        }
        assertEquals(1.0, health.weightFactor());

        double previous = health.weightFactor();
        double lowest = previous;
        for (int i = 0; i < 60; i++) { // latency x50 and failures: the target collapses at once
            if (i % 2 == 0) {
                health.recordSuccess(Admission.ADMITTED, 500_000_000, clock.read());
            } else {
                health.recordFailure(Admission.ADMITTED, FailureKind.SLOW_BODY, clock.read());
            }
            double f = health.weightFactor();
            assertTrue(
                    f >= previous * 0.9 - 1e-12 && f <= previous * 1.1 + 1e-12,
                    "step " + i + ": " + previous + " -> " + f);
            previous = f;
            lowest = Math.min(lowest, f);
        }
        assertTrue(lowest < 0.3, "it does get there, gradually: " + lowest);

        for (int i = 0; i < 200; i++) { // back to normal: the climb is bounded too
            health.recordSuccess(Admission.ADMITTED, 10_000_000, clock.read());
            double f = health.weightFactor();
            assertTrue(
                    f >= previous * 0.9 - 1e-12 && f <= previous * 1.1 + 1e-12,
                    "climb " + i + ": " + previous + " -> " + f);
            previous = f;
        }
        assertTrue(previous > 0.5, "recovering: " + previous);
    }

    @Test
    void theFactorStopsAtItsFloorAndTheWeightAtOne() {
        Fx.Policy p = new Fx.Policy();
        p.consecutiveFailures = 1_000_000;
        p.errorRate = 1.0;
        Fx fx = new Fx(p.build());
        for (int i = 0; i < 21; i++) {
            fx.health.recordFailure(Admission.ADMITTED, FailureKind.CONNECT_TIMEOUT, fx.now());
            assertEquals(Math.pow(0.9, i + 1), fx.health.weightFactor(), 1e-9, "step " + i);
        }
        for (int i = 0; i < 100; i++) {
            fx.health.recordFailure(Admission.ADMITTED, FailureKind.CONNECT_TIMEOUT, fx.now());
        }
        assertEquals(0.1, fx.health.weightFactor(), 1e-12);
        assertEquals(100, fx.health.effectiveWeight(1000, fx.now()));
        assertEquals(1, fx.health.effectiveWeight(3, fx.now()));
    }

    @Test
    void aSingleFailureCostsAtMostTenPercent() {
        Fx fx = new Fx();
        fx.fail(FailureKind.CONNECT_TIMEOUT);
        assertEquals(0.9, fx.health.weightFactor(), 1e-12);
        assertEquals(900, fx.health.effectiveWeight(1000, fx.now()));
    }

    @Test
    void latencyEwmaFollowsSuccessLatencies() {
        Fx fx = new Fx();
        assertEquals(0, fx.health.latencyEwmaNanos(), "unknown");
        fx.health.recordSuccess(Admission.ADMITTED, 100_000_000, fx.now());
        assertEquals(100_000_000, fx.health.latencyEwmaNanos(), "the first sample seeds it");
        fx.health.recordSuccess(Admission.ADMITTED, 200_000_000, fx.now());
        assertEquals(120_000_000, fx.health.latencyEwmaNanos(), 1, "alpha 0.2");
        fx.health.recordFailure(Admission.ADMITTED, FailureKind.CONNECT_TIMEOUT, fx.now());
        assertEquals(120_000_000, fx.health.latencyEwmaNanos(), 1, "failures carry no latency");
        fx.health.recordSuccess(Admission.ADMITTED, 0, fx.now());
        assertEquals(120_000_000, fx.health.latencyEwmaNanos(), 1, "0 = not measured");
    }

    @Test
    void lastCheckedIsTheLastSuccessOfARequestOrAProbe() {
        Fx fx = new Fx();
        long created = fx.now();
        assertEquals(created, fx.health.lastCheckedNanos());
        fx.advance(Duration.ofSeconds(5));
        fx.fail(FailureKind.CONNECT_TIMEOUT);
        assertEquals(created, fx.health.lastCheckedNanos(), "a failure checks nothing");
        fx.succeed();
        assertEquals(fx.now(), fx.health.lastCheckedNanos());
        fx.advance(Duration.ofSeconds(5));
        assertEquals(Admission.ADMITTED, fx.health.tryAdmitActiveProbe(fx.now()));
        fx.health.recordActiveSuccess(Admission.ADMITTED, 1_000, fx.now());
        assertEquals(fx.now(), fx.health.lastCheckedNanos());
        long latest = fx.now();
        fx.health.recordSuccess(Admission.ADMITTED, 1_000, latest - 1_000);
        assertEquals(latest, fx.health.lastCheckedNanos(), "a late report of an older success never moves it back");
    }
}
