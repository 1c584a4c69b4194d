package dev.proxypool.core.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 37 item 14: an operator's enable is a transition of its own ({@code operator_enabled});
 * the history and the backoff stay, and a proxy whose last checks failed gets one recovery check
 * before full traffic (then slow start).
 */
class OperatorEnableTest {

    @Test
    void enablingACoolingProxyKeepsItsRecordAndBackoffAndChecksItOnceFirst() {
        Fx fx = new Fx();
        fx.cool();
        fx.probeByRequest();
        fx.health.recordFailure(Admission.PROBE, FailureKind.CONNECT_TIMEOUT, fx.now());
        long doubled = fx.health.status().backoffNanos();
        assertEquals(2 * fx.health.policy().cooldownInitial().toNanos(), doubled, "the backoff doubled once");
        int before = fx.health.history().size();

        fx.health.enable("vendor says it is fixed", fx.now());
        HealthStatus s = fx.health.status();
        assertEquals(HealthState.COOLING, s.state(), "not full traffic yet");
        assertEquals(new HealthReason.OperatorEnabled("vendor says it is fixed"), s.reason());
        assertEquals("operator_enabled", s.reason().code());
        assertEquals(doubled, s.backoffNanos(), "the backoff history stays");
        assertEquals(before + 1, fx.health.history().size(), "a transition of its own, nothing erased");

        // the recovery check fails: the doubling goes on from where it was
        assertEquals(Admission.PROBE, fx.health.tryAdmit(fx.now()));
        assertEquals(Admission.DENIED, fx.health.tryAdmit(fx.now()), "one check, not a herd");
        fx.health.recordFailure(Admission.PROBE, FailureKind.CONNECT_TIMEOUT, fx.now());
        assertEquals(2 * doubled, fx.health.status().backoffNanos());

        // enabled again, the check passes: HEALTHY with a slow start
        fx.health.enable("again", fx.now());
        assertEquals(Admission.PROBE, fx.health.tryAdmit(fx.now()));
        fx.health.recordSuccess(Admission.PROBE, 1_000_000, fx.now());
        assertEquals(HealthState.HEALTHY, fx.health.state());
        assertTrue(fx.health.status().slowStart(), "slow start applies");
        assertTrue(fx.health.effectiveWeight(10, fx.now()) < 10, "ramping up");
        List<String> reasons =
                fx.health.history().stream().map(h -> h.reason().code()).toList();
        assertEquals(
                List.of(
                        "created",
                        "connect_timeout",
                        "cooldown_elapsed",
                        "connect_timeout",
                        "operator_enabled",
                        "cooldown_elapsed",
                        "connect_timeout",
                        "operator_enabled",
                        "cooldown_elapsed",
                        "probe_succeeded"),
                reasons);
    }

    @Test
    void enablingAProxyDisabledWhileHealthyReturnsItAtOnceWithItsHistory() {
        Fx fx = new Fx();
        fx.succeed();
        fx.health.disable("maintenance", fx.now());
        fx.advance(Duration.ofMinutes(5));
        fx.health.enable("maintenance over", fx.now());
        HealthStatus s = fx.health.status();
        assertEquals(HealthState.HEALTHY, s.state());
        assertEquals("operator_enabled", s.reason().code());
        assertEquals(HealthStage.OPERATOR, s.stage());
        assertTrue(s.slowStart());
        assertEquals(2, s.sequence());
        assertEquals(Admission.ADMITTED, fx.health.tryAdmit(fx.now()));
        assertEquals(
                List.of("created", "operator", "operator_enabled"),
                fx.health.history().stream().map(h -> h.reason().code()).toList());
    }

    @Test
    void enablingAProxyDisabledForRejectedCredentialsChecksItFirst() {
        Fx fx = new Fx();
        fx.fail(FailureKind.PROXY_AUTH_REJECTED);
        assertEquals(HealthState.DISABLED, fx.health.state());
        fx.health.enable("password rotated", fx.now());
        assertEquals(HealthState.COOLING, fx.health.state());
        assertEquals(Admission.PROBE, fx.health.tryAdmit(fx.now()));
        fx.health.recordFailure(Admission.PROBE, FailureKind.PROXY_AUTH_REJECTED, fx.now());
        assertEquals(HealthState.DISABLED, fx.health.state(), "still rejected: disabled again, no traffic lost");
    }
}
