package dev.proxypool.core.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class HealthPolicyTest {

    @Test
    void defaultsAreTheSpecs() {
        HealthPolicy d = HealthPolicy.DEFAULTS;
        assertEquals(3, d.consecutiveFailures());
        assertEquals(0.30, d.errorRate());
        assertEquals(Duration.ofSeconds(60), d.window());
        assertEquals(20, d.minSamples());
        assertEquals(Duration.ofMinutes(3), d.cooldownInitial());
        assertEquals(Duration.ofMinutes(30), d.cooldownMax());
        assertEquals(Duration.ofMinutes(10), d.domainBanDuration());
        assertEquals(1000, d.maxBansPerProxy());
        assertEquals(Duration.ofSeconds(60), d.slowStart());
        assertEquals(2, d.failuresToCool());
    }

    @Test
    void theTenArgumentConstructorDefaultsFailuresToCool() {
        HealthPolicy p = new HealthPolicy(
                3,
                0.3,
                Duration.ofSeconds(60),
                20,
                Duration.ofMinutes(3),
                Duration.ofMinutes(30),
                Duration.ofSeconds(30),
                Duration.ofMinutes(10),
                1000,
                Duration.ofSeconds(60));
        assertEquals(HealthPolicy.DEFAULTS, p);
    }

    @Test
    void failuresToCoolMustBePositive() {
        Fx.Policy p = new Fx.Policy();
        p.failuresToCool = 0;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, p::build);
        assertEquals("health.active.failuresToCool must be at least 1, got 0", e.getMessage());
    }
}
