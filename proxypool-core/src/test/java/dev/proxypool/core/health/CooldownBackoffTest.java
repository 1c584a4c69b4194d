package dev.proxypool.core.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Cooldown deadlines, the doubling backoff, the single probe permit and its expiry. */
class CooldownBackoffTest {

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);

    @Test
    void failedProbesDoubleTheCooldownUpToTheCap() {
        Fx fx = new Fx().cool();
        List<Duration> cooldowns = new ArrayList<>();
        cooldowns.add(Duration.ofNanos(fx.health.status().backoffNanos()));
        for (int i = 0; i < 5; i++) {
            fx.probeByRequest();
            fx.health.recordFailure(Admission.PROBE, FailureKind.CONNECT_TIMEOUT, fx.now());
            HealthStatus s = fx.health.status();
            assertEquals(HealthState.COOLING, s.state());
            assertEquals(s.sinceNanos() + s.backoffNanos(), s.cooldownUntilNanos());
            cooldowns.add(Duration.ofNanos(s.backoffNanos()));
        }
        assertEquals(
                List.of(
                        Duration.ofMinutes(3),
                        Duration.ofMinutes(6),
                        Duration.ofMinutes(12),
                        Duration.ofMinutes(24),
                        Duration.ofMinutes(30),
                        Duration.ofMinutes(30)),
                cooldowns);
    }

    @Test
    void theDeadlineIsExactToTheNanosecond() {
        Fx fx = new Fx().cool();
        fx.advance(Duration.ofMinutes(3).minusNanos(1));
        assertEquals(Admission.DENIED, fx.health.tryAdmit(fx.now()));
        fx.advance(Duration.ofNanos(1));
        assertEquals(Admission.PROBE, fx.health.tryAdmit(fx.now()));
        assertEquals(Admission.DENIED, fx.health.tryAdmit(fx.now()));
        assertEquals(Admission.DENIED, fx.health.tryAdmitActiveProbe(fx.now()));
        HealthStatus s = fx.health.status();
        assertEquals(ProbeHolder.REQUEST, s.probeHolder());
        assertEquals(fx.now() + PROBE_TIMEOUT.toNanos(), s.probeDeadlineNanos());
    }

    @Test
    void anUnansweredProbeExpiresAsAFailureAndANewPermitComesAfterTheNextCooldown() {
        Fx fx = new Fx().cool().probeByRequest();
        long probeDeadline = fx.health.status().probeDeadlineNanos();

        fx.advance(PROBE_TIMEOUT.minusNanos(1));
        assertEquals(Admission.DENIED, fx.health.tryAdmit(fx.now()));
        assertEquals(HealthState.PROBE_ALLOWED, fx.health.state(), "not expired one nanosecond early");

        fx.advance(Duration.ofNanos(1));
        assertEquals(Admission.DENIED, fx.health.tryAdmit(fx.now()));
        HealthStatus s = fx.health.status();
        assertEquals(HealthState.COOLING, s.state());
        assertEquals(HealthReason.Lifecycle.PROBE_EXPIRED, s.reason());
        assertEquals(
                Duration.ofMinutes(6).toNanos(),
                s.backoffNanos(),
                "an expired probe is a failed probe: backoff doubles");
        assertEquals(probeDeadline + Duration.ofMinutes(6).toNanos(), s.cooldownUntilNanos());

        fx.advance(Duration.ofMinutes(6).minusNanos(1));
        assertEquals(Admission.DENIED, fx.health.tryAdmit(fx.now()));
        fx.advance(Duration.ofNanos(1));
        assertEquals(Admission.PROBE, fx.health.tryAdmit(fx.now()), "a fresh permit after the next cooldown");
    }

    @Test
    void aLongIdleAfterAnExpiredProbeGrantsTheNextPermitInTheSameCall() {
        Fx fx = new Fx().cool().probeByRequest();
        fx.advance(Duration.ofHours(2)); // the probe expired and the 6 min cooldown after it passed too
        assertEquals(Admission.PROBE, fx.health.tryAdmit(fx.now()));
        List<String> codes =
                fx.transitions.stream().map(t -> t.to().reason().code()).toList();
        assertEquals(List.of("connect_timeout", "cooldown_elapsed", "probe_expired", "cooldown_elapsed"), codes);
    }

    @Test
    void aProbeReportArrivingAfterItsDeadlineIsTooLate() {
        Fx fx = new Fx().cool().probeByRequest();
        fx.advance(PROBE_TIMEOUT);
        fx.health.recordSuccess(Admission.PROBE, 1_000, fx.now());
        assertEquals(HealthState.COOLING, fx.health.state());
        assertEquals(HealthReason.Lifecycle.PROBE_EXPIRED, fx.health.status().reason());
    }

    @Test
    void aSuccessfulProbeRestoresHealthyResetsTheWindowAndTheBackoff() {
        Fx.Policy p = new Fx.Policy();
        p.consecutiveFailures = 1000; // cool by error rate, so the window is full of failures
        Fx fx = new Fx(p.build());
        for (int i = 0; i < 20; i++) {
            fx.fail(FailureKind.CONNECT_TIMEOUT);
        }
        assertEquals(HealthState.COOLING, fx.health.state());
        // fail two probes: backoff at 12 min
        for (int i = 0; i < 2; i++) {
            fx.probeByRequest();
            fx.health.recordFailure(Admission.PROBE, FailureKind.CONNECT_TIMEOUT, fx.now());
        }
        assertEquals(Duration.ofMinutes(12).toNanos(), fx.health.status().backoffNanos());

        fx.probeByRequest();
        fx.health.recordSuccess(Admission.PROBE, 2_000_000, fx.now());
        HealthStatus s = fx.health.status();
        assertEquals(HealthState.HEALTHY, s.state());
        assertEquals(HealthReason.Lifecycle.PROBE_SUCCEEDED, s.reason());
        assertEquals(0, s.backoffNanos());
        assertTrue(s.slowStart());
        assertEquals(0, fx.health.windowRequests(fx.now()), "window reset");
        assertEquals(0, fx.health.passiveFailureStreak());
        assertEquals(1.0, fx.health.weightFactor(), "judged afresh");

        // one failure is not enough to cool again (the old 20 failures are gone), and the next cooldown starts at 3 min
        fx.fail(FailureKind.CONNECT_TIMEOUT);
        assertEquals(HealthState.HEALTHY, fx.health.state());
        for (int i = 0; i < 19; i++) {
            fx.fail(FailureKind.CONNECT_TIMEOUT);
        }
        assertEquals(HealthState.COOLING, fx.health.state());
        assertEquals(Duration.ofMinutes(3).toNanos(), fx.health.status().backoffNanos());
    }

    @Test
    void theProberMayTakeThePermitAndRequestsWaitForItsVerdict() {
        Fx fx = new Fx().cool().probeByProber();
        assertEquals(Admission.DENIED, fx.health.tryAdmit(fx.now()));
        fx.health.recordActiveSuccess(Admission.PROBE, 3_000_000, fx.now());
        assertEquals(HealthState.HEALTHY, fx.health.state());
        assertEquals(Admission.ADMITTED, fx.health.tryAdmit(fx.now()));
        assertEquals(fx.now(), fx.health.lastCheckedNanos());
    }

    @Test
    void backoffDoublesAcrossProbeHoldersAlike() {
        Fx fx = new Fx().cool().probeByProber();
        fx.health.recordActiveFailure(Admission.PROBE, FailureKind.CONNECTION_REFUSED, fx.now());
        assertEquals(Duration.ofMinutes(6).toNanos(), fx.health.status().backoffNanos());
        fx.probeByRequest();
        fx.health.recordFailure(Admission.PROBE, FailureKind.CONNECTION_REFUSED, fx.now());
        assertEquals(Duration.ofMinutes(12).toNanos(), fx.health.status().backoffNanos());
        assertFalse(fx.health.status().slowStart());
    }

    @Test
    void aCapEqualToTheInitialCooldownNeverGrows() {
        Fx.Policy p = new Fx.Policy();
        p.cooldownInitial = Duration.ofMinutes(5);
        p.cooldownMax = Duration.ofMinutes(5);
        Fx fx = new Fx(p.build()).cool();
        for (int i = 0; i < 3; i++) {
            fx.probeByRequest();
            fx.health.recordFailure(Admission.PROBE, FailureKind.CONNECT_TIMEOUT, fx.now());
            assertEquals(Duration.ofMinutes(5).toNanos(), fx.health.status().backoffNanos());
        }
    }
}
