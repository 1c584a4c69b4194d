package dev.proxypool.core.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A proxy held for its first check (a new node, design H10b): no request gets in until the check reports. */
class FirstCheckHoldTest {

    @Test
    void heldUntilTheCheckSucceedsThenHealthy() {
        Fx fx = new Fx();
        assertTrue(fx.health.awaitFirstCheck(fx.now()));
        assertEquals(HealthState.PROBE_ALLOWED, fx.health.state());
        assertEquals(Admission.DENIED, fx.health.tryAdmit(fx.now()), "no client request before the check");
        assertEquals(Admission.DENIED, fx.health.tryAdmitActiveProbe(fx.now()), "the permit is the check's");
        fx.health.recordActiveSuccess(Admission.PROBE, 1_000_000, fx.now());
        assertEquals(HealthState.HEALTHY, fx.health.state());
        assertEquals(Admission.ADMITTED, fx.health.tryAdmit(fx.now()));
    }

    @Test
    void aFailedCheckCoolsForTheInitialCooldown() {
        Fx fx = new Fx();
        assertTrue(fx.health.awaitFirstCheck(fx.now()));
        fx.health.recordActiveFailure(Admission.PROBE, FailureKind.CONNECTION_REFUSED, fx.now());
        assertEquals(HealthState.COOLING, fx.health.state());
        fx.advance(Duration.ofSeconds(1));
        assertEquals(Admission.DENIED, fx.health.tryAdmit(fx.now()));
    }

    @Test
    void aCheckThatNeverReportsCountsAsFailedAfterTheProbeTimeout() {
        Fx fx = new Fx();
        assertTrue(fx.health.awaitFirstCheck(fx.now()));
        fx.advance(fx.health.policy().probeTimeout());
        assertEquals(Admission.DENIED, fx.health.tryAdmit(fx.now()));
        assertEquals(HealthState.COOLING, fx.health.state());
    }

    @Test
    void onlyAHealthyProxyIsHeld() {
        Fx fx = new Fx();
        fx.health.disable("operator test", fx.now());
        assertFalse(fx.health.awaitFirstCheck(fx.now()));
        assertEquals(HealthState.DISABLED, fx.health.state());
    }
}
