package dev.proxypool.core.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Active probing: its own streak of failed checks (failuresToCool), never mixed with the passive one. */
class ActiveProbingTest {

    private static void activeFailure(Fx fx, FailureKind kind) {
        assertEquals(Admission.ADMITTED, fx.health.tryAdmitActiveProbe(fx.now()));
        fx.health.recordActiveFailure(Admission.ADMITTED, kind, fx.now());
    }

    private static void activeSuccess(Fx fx) {
        assertEquals(Admission.ADMITTED, fx.health.tryAdmitActiveProbe(fx.now()));
        fx.health.recordActiveSuccess(Admission.ADMITTED, 2_000_000, fx.now());
    }

    @ParameterizedTest(name = "failuresToCool={0}")
    @ValueSource(ints = {1, 2, 4})
    void failuresToCoolFailedChecksInARowCool(int m) {
        Fx.Policy p = new Fx.Policy();
        p.failuresToCool = m;
        Fx fx = new Fx(p.build());
        for (int i = 1; i < m; i++) {
            activeFailure(fx, FailureKind.CONNECT_TIMEOUT);
            fx.advance(Duration.ofSeconds(30));
        }
        assertEquals(HealthState.HEALTHY, fx.health.state());
        activeFailure(fx, FailureKind.CONNECT_TIMEOUT);
        assertEquals(HealthState.COOLING, fx.health.state());
        assertEquals(HealthStage.ACTIVE, fx.health.status().stage());
        assertEquals(
                new HealthReason.Failure(FailureKind.CONNECT_TIMEOUT, HealthReason.Trigger.ACTIVE_PROBES_FAILED),
                fx.health.status().reason());
    }

    @Test
    void aSuccessfulCheckBreaksTheActiveStreak() {
        Fx fx = new Fx();
        for (int i = 0; i < 5; i++) {
            activeFailure(fx, FailureKind.CONNECT_TIMEOUT);
            activeSuccess(fx);
        }
        assertEquals(HealthState.HEALTHY, fx.health.state());
        assertEquals(0, fx.health.activeFailureStreak());
    }

    @Test
    void passiveAndActiveCountsStayApart() {
        Fx fx = new Fx();
        fx.fail(FailureKind.CONNECT_TIMEOUT);
        fx.fail(FailureKind.CONNECT_TIMEOUT);
        activeFailure(fx, FailureKind.CONNECT_TIMEOUT);
        assertEquals(2, fx.health.passiveFailureStreak());
        assertEquals(1, fx.health.activeFailureStreak());
        assertEquals(HealthState.HEALTHY, fx.health.state(), "2 passive + 1 active is neither 3 passive nor 2 active");
        assertEquals(2, fx.health.windowRequests(fx.now()), "active checks stay out of the passive window");

        fx.succeed();
        assertEquals(0, fx.health.passiveFailureStreak());
        assertEquals(1, fx.health.activeFailureStreak(), "a request's success does not reset the prober's streak");
        activeSuccess(fx);
        fx.fail(FailureKind.CONNECT_TIMEOUT);
        assertEquals(0, fx.health.activeFailureStreak());
        assertEquals(1, fx.health.passiveFailureStreak(), "a check's success does not reset the requests' streak");
    }

    @Test
    void theProberIsDeniedWhileCoolingAndGetsThePermitAfter() {
        Fx fx = new Fx().cool();
        assertEquals(Admission.DENIED, fx.health.tryAdmitActiveProbe(fx.now()));
        fx.advance(Duration.ofMinutes(3));
        assertEquals(Admission.PROBE, fx.health.tryAdmitActiveProbe(fx.now()));
        assertEquals(ProbeHolder.PROBER, fx.health.status().probeHolder());
    }

    @Test
    void recoveryClearsBothStreaks() {
        Fx fx = new Fx();
        fx.fail(FailureKind.CONNECT_TIMEOUT);
        activeFailure(fx, FailureKind.CONNECT_TIMEOUT);
        activeFailure(fx, FailureKind.CONNECT_TIMEOUT);
        assertEquals(HealthState.COOLING, fx.health.state());
        fx.probeByProber();
        fx.health.recordActiveSuccess(Admission.PROBE, 1_000, fx.now());
        assertEquals(0, fx.health.activeFailureStreak());
        assertEquals(0, fx.health.passiveFailureStreak());
        activeFailure(fx, FailureKind.CONNECT_TIMEOUT);
        assertEquals(HealthState.HEALTHY, fx.health.state());
    }

    @Test
    void checksOfADisabledProxyChangeNothing() {
        Fx fx = new Fx();
        fx.health.disable("x", fx.now());
        assertEquals(Admission.DENIED, fx.health.tryAdmitActiveProbe(fx.now()));
        HealthStatus before = fx.health.status();
        fx.health.recordActiveFailure(Admission.ADMITTED, FailureKind.CONNECT_TIMEOUT, fx.now());
        fx.health.recordActiveSuccess(Admission.ADMITTED, 1, fx.now());
        assertEquals(before, fx.health.status());
    }
}
