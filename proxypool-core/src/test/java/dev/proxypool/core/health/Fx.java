package dev.proxypool.core.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.core.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Test fixture: one ProxyHealth on a ManualClock with a listener that records every transition. */
final class Fx {

    record Transition(HealthStatus from, HealthStatus to) {}

    final ManualClock clock = new ManualClock();
    final List<Transition> transitions = new CopyOnWriteArrayList<>();
    final ProxyHealth health;

    Fx() {
        this(HealthPolicy.DEFAULTS);
    }

    Fx(HealthPolicy policy) {
        health = new ProxyHealth(policy, clock.read(), (from, to) -> transitions.add(new Transition(from, to)));
    }

    long now() {
        return clock.read();
    }

    Fx advance(Duration d) {
        clock.advance(d);
        return this;
    }

    void succeed() {
        assertEquals(Admission.ADMITTED, health.tryAdmit(now()));
        health.recordSuccess(Admission.ADMITTED, 1_000_000, now());
    }

    void fail(FailureKind kind) {
        assertEquals(Admission.ADMITTED, health.tryAdmit(now()));
        health.recordFailure(Admission.ADMITTED, kind, now());
    }

    /** HEALTHY → COOLING by consecutive connect timeouts. */
    Fx cool() {
        for (int i = 0; i < health.policy().consecutiveFailures(); i++) {
            fail(FailureKind.CONNECT_TIMEOUT);
        }
        assertEquals(HealthState.COOLING, health.state());
        return this;
    }

    /** Moves the clock to the cooldown deadline and takes the probe permit as a request. */
    Fx probeByRequest() {
        toDeadline();
        assertEquals(Admission.PROBE, health.tryAdmit(now()));
        return this;
    }

    /** Moves the clock to the cooldown deadline and takes the probe permit as the prober. */
    Fx probeByProber() {
        toDeadline();
        assertEquals(Admission.PROBE, health.tryAdmitActiveProbe(now()));
        return this;
    }

    void toDeadline() {
        long wait = health.status().cooldownUntilNanos() - now();
        if (wait > 0) {
            clock.advanceNanos(wait);
        }
    }

    Transition last() {
        return transitions.getLast();
    }

    /** A policy builder over DEFAULTS, for the few knobs a test turns. */
    static final class Policy {
        int consecutiveFailures = 3;
        double errorRate = 0.30;
        Duration window = Duration.ofSeconds(60);
        int minSamples = 20;
        Duration cooldownInitial = Duration.ofMinutes(3);
        Duration cooldownMax = Duration.ofMinutes(30);
        Duration probeTimeout = Duration.ofSeconds(30);
        Duration banDuration = Duration.ofMinutes(10);
        int maxBans = 1000;
        Duration slowStart = Duration.ofSeconds(60);
        int failuresToCool = 2;

        HealthPolicy build() {
            return new HealthPolicy(
                    consecutiveFailures,
                    errorRate,
                    window,
                    minSamples,
                    cooldownInitial,
                    cooldownMax,
                    probeTimeout,
                    banDuration,
                    maxBans,
                    slowStart,
                    failuresToCool);
        }
    }
}
