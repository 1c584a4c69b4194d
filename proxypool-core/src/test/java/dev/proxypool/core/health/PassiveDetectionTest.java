package dev.proxypool.core.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The passive rules: consecutive failures, the window's error rate with its minimum sample count. */
class PassiveDetectionTest {

    @Test
    void threeConsecutiveFailuresCoolWithTheLastFailureAsReason() {
        Fx fx = new Fx();
        fx.fail(FailureKind.CONNECTION_REFUSED);
        fx.fail(FailureKind.CONNECTION_REFUSED);
        assertEquals(HealthState.HEALTHY, fx.health.state());
        fx.fail(FailureKind.TLS_FAILURE);

        HealthStatus s = fx.health.status();
        assertEquals(HealthState.COOLING, s.state());
        assertEquals(
                new HealthReason.Failure(FailureKind.TLS_FAILURE, HealthReason.Trigger.CONSECUTIVE_FAILURES),
                s.reason());
        assertEquals(HealthStage.PASSIVE, s.stage());
        assertEquals(fx.now(), s.sinceNanos());
        assertEquals(fx.now() + Duration.ofMinutes(3).toNanos(), s.cooldownUntilNanos());
        assertEquals(Duration.ofMinutes(3).toNanos(), s.backoffNanos());
        assertEquals(Admission.DENIED, fx.health.tryAdmit(fx.now()));
    }

    @Test
    void aSuccessBreaksTheStreak() {
        Fx fx = new Fx();
        for (int i = 0; i < 10; i++) {
            fx.fail(FailureKind.CONNECT_TIMEOUT);
            fx.fail(FailureKind.CONNECT_TIMEOUT);
            fx.succeed();
            assertEquals(0, fx.health.passiveFailureStreak());
            fx.advance(Duration.ofSeconds(10)); // keep the error rate (2/3) from deciding instead
        }
        assertEquals(HealthState.HEALTHY, fx.health.state());
    }

    @ParameterizedTest(name = "consecutiveFailures={0}")
    @CsvSource({"1", "2", "5"})
    void theStreakLengthIsThePolicys(int n) {
        Fx.Policy p = new Fx.Policy();
        p.consecutiveFailures = n;
        Fx fx = new Fx(p.build());
        for (int i = 1; i < n; i++) {
            fx.fail(FailureKind.CONNECT_TIMEOUT);
        }
        assertEquals(HealthState.HEALTHY, fx.health.state());
        fx.fail(FailureKind.CONNECT_TIMEOUT);
        assertEquals(HealthState.COOLING, fx.health.state());
    }

    /** failures are spread so no streak forms; the verdict comes from rate and sample count only. */
    @ParameterizedTest(name = "{0} requests, {1} failed, minSamples {2}, errorRate {3} -> {4}")
    @CsvSource({
        "19, 19, 20, 0.30, HEALTHY", // all failed, but too few samples
        "20, 7,  20, 0.30, COOLING", // 35% > 30% on exactly minSamples
        "20, 6,  20, 0.30, HEALTHY", // 30% is not above 30%
        "100, 31, 20, 0.30, COOLING",
        "100, 30, 20, 0.30, HEALTHY",
        "40, 10, 50, 0.10, HEALTHY", // 25% > 10% but 40 < 50 samples
        "60, 10, 50, 0.10, COOLING"
    })
    void errorRateRespectsMinSamples(
            int requests, int failures, int minSamples, double errorRate, HealthState expected) {
        Fx.Policy p = new Fx.Policy();
        p.consecutiveFailures = 1000;
        p.minSamples = minSamples;
        p.errorRate = errorRate;
        Fx fx = new Fx(p.build());
        // successes first, failures last: the rule is checked on each failure, so the last one sees the full window
        for (int i = 0; i < requests - failures; i++) {
            fx.succeed();
        }
        for (int i = 0; i < failures && fx.health.state() == HealthState.HEALTHY; i++) {
            fx.fail(FailureKind.CONNECT_TIMEOUT);
        }
        assertEquals(expected, fx.health.state());
        if (expected == HealthState.COOLING) {
            assertEquals(
                    HealthReason.Trigger.ERROR_RATE,
                    ((HealthReason.Failure) fx.health.status().reason()).trigger());
        }
    }

    @Test
    void oldFailuresSlideOutOfTheWindow() {
        Fx.Policy p = new Fx.Policy();
        p.consecutiveFailures = 1000;
        Fx fx = new Fx(p.build()); // window 60 s in 6 s buckets, minSamples 20, 30%
        for (int i = 0; i < 6; i++) {
            fx.fail(FailureKind.CONNECT_TIMEOUT);
        }
        for (int i = 0; i < 14; i++) {
            fx.succeed();
        }
        assertEquals(6, fx.health.windowFailures(fx.now()));
        assertEquals(20, fx.health.windowRequests(fx.now()));
        fx.advance(Duration.ofSeconds(61));
        assertEquals(0, fx.health.windowRequests(fx.now()), "everything slid out");
        for (int i = 0; i < 14; i++) {
            fx.succeed();
        }
        for (int i = 0; i < 6; i++) {
            fx.fail(FailureKind.CONNECT_TIMEOUT);
        }
        assertEquals(HealthState.HEALTHY, fx.health.state(), "6/20 again, not 12/40 or 12/20");
        fx.fail(FailureKind.CONNECT_TIMEOUT);
        assertEquals(HealthState.COOLING, fx.health.state(), "7/21 > 30%");
    }

    @Test
    void theWindowSlidesBucketByBucket() {
        Fx fx = new Fx();
        fx.succeed();
        fx.advance(Duration.ofSeconds(30));
        fx.succeed();
        fx.succeed();
        assertEquals(3, fx.health.windowRequests(fx.now()));
        fx.advance(Duration.ofSeconds(35)); // the first request is 65 s old, the others 35 s
        assertEquals(2, fx.health.windowRequests(fx.now()));
    }

    @Test
    void outcomesOfRequestsAdmittedBeforeCoolingDoNotCount() {
        Fx fx = new Fx().cool();
        long requests = fx.health.windowRequests(fx.now());
        fx.health.recordFailure(Admission.ADMITTED, FailureKind.CONNECT_TIMEOUT, fx.now());
        fx.health.recordSuccess(Admission.ADMITTED, 1, fx.now());
        assertEquals(requests, fx.health.windowRequests(fx.now()));
    }

    @Test
    void authRejectionDisablesAtOnceWhateverTheStreak() {
        Fx fx = new Fx();
        fx.succeed();
        fx.fail(FailureKind.PROXY_AUTH_REJECTED);
        assertEquals(HealthState.DISABLED, fx.health.state());
        assertEquals(
                new HealthReason.Failure(FailureKind.PROXY_AUTH_REJECTED, HealthReason.Trigger.LASTING_CONDITION),
                fx.health.status().reason());
        assertEquals(
                Admission.DENIED,
                fx.health.tryAdmit(fx.advance(Duration.ofHours(5)).now()));
    }

    @Test
    void operatorDisableAndEnable() {
        Fx fx = new Fx();
        fx.health.disable("provider contract ended", fx.now());
        assertEquals(HealthState.DISABLED, fx.health.state());
        assertEquals(
                new HealthReason.Operator("provider contract ended"),
                fx.health.status().reason());
        assertEquals(Admission.DENIED, fx.health.tryAdmit(fx.now()));

        fx.advance(Duration.ofMinutes(1));
        fx.health.enable("renewed", fx.now());
        assertEquals(HealthState.HEALTHY, fx.health.state());
        assertEquals(HealthStage.OPERATOR, fx.health.status().stage());
        assertEquals(Admission.ADMITTED, fx.health.tryAdmit(fx.now()));
        assertEquals(true, fx.health.status().slowStart(), "a returning proxy ramps up");
    }

    @Test
    void operatorReasonMustNotBeBlank() {
        Fx fx = new Fx();
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> fx.health.disable(" ", fx.now()));
        assertEquals("operator reason must not be blank, got ' '", e.getMessage());
        assertEquals(HealthState.HEALTHY, fx.health.state());
    }

    @Test
    void reportingADeniedAdmissionIsAnError() {
        Fx fx = new Fx();
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> fx.health.recordFailure(Admission.DENIED, FailureKind.CONNECT_TIMEOUT, fx.now()));
        assertEquals("admission must be ADMITTED or PROBE to report an outcome, got DENIED", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> fx.health.recordSuccess(Admission.ADMITTED, -1, fx.now()));
        assertThrows(IllegalArgumentException.class, () -> fx.health.recordFailure(Admission.ADMITTED, null, fx.now()));
    }
}
