package dev.proxypool.core.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The listener sees every transition, with reason and stage, in sequence; history keeps them for the admin API. */
class HealthListenerTest {

    private static String describe(Fx.Transition t) {
        return t.from().state() + "->" + t.to().state() + " " + t.to().reason().code() + "/"
                + t.to().stage().wireName();
    }

    @Test
    void aFullLifecycleIsReportedTransitionByTransition() {
        Fx fx = new Fx();
        fx.cool(); // 1
        fx.probeByRequest(); // 2
        fx.health.recordFailure(Admission.PROBE, FailureKind.CONNECTION_REFUSED, fx.now()); // 3
        fx.probeByProber(); // 4
        fx.advance(Duration.ofSeconds(31)).health.tryAdmit(fx.now()); // 5 expired
        fx.probeByRequest(); // 6
        fx.health.recordSuccess(Admission.PROBE, 1_000, fx.now()); // 7
        for (int i = 0; i < 2; i++) {
            fx.health.recordActiveFailure(Admission.ADMITTED, FailureKind.CONNECT_TIMEOUT, fx.now());
        } // 8
        fx.health.disable("audit", fx.now()); // 9
        fx.health.enable("audit done", fx.now()); // 10: it was cooling: one recovery check first
        fx.probeByRequest(); // 11
        fx.health.recordSuccess(Admission.PROBE, 1_000, fx.now()); // 12
        fx.fail(FailureKind.PROXY_AUTH_REJECTED); // 13

        List<String> seen =
                fx.transitions.stream().map(HealthListenerTest::describe).toList();
        assertEquals(
                List.of(
                        "HEALTHY->COOLING connect_timeout/passive",
                        "COOLING->PROBE_ALLOWED cooldown_elapsed/probe",
                        "PROBE_ALLOWED->COOLING connection_refused/probe",
                        "COOLING->PROBE_ALLOWED cooldown_elapsed/active",
                        "PROBE_ALLOWED->COOLING probe_expired/active",
                        "COOLING->PROBE_ALLOWED cooldown_elapsed/probe",
                        "PROBE_ALLOWED->HEALTHY probe_succeeded/probe",
                        "HEALTHY->COOLING connect_timeout/active",
                        "COOLING->DISABLED operator/operator",
                        "DISABLED->COOLING operator_enabled/operator",
                        "COOLING->PROBE_ALLOWED cooldown_elapsed/probe",
                        "PROBE_ALLOWED->HEALTHY probe_succeeded/probe",
                        "HEALTHY->DISABLED proxy_auth_rejected/passive"),
                seen);
        for (int i = 0; i < fx.transitions.size(); i++) {
            Fx.Transition t = fx.transitions.get(i);
            assertEquals(i, t.from().sequence());
            assertEquals(i + 1, t.to().sequence());
            if (i > 0) {
                assertEquals(fx.transitions.get(i - 1).to(), t.from(), "each transition starts where the last ended");
            }
        }
        assertEquals(
                "audit", ((HealthReason.Operator) fx.transitions.get(8).to().reason()).text());

        List<HealthStatus> history = fx.health.history();
        assertEquals(14, history.size(), "initial status + 13 transitions");
        assertEquals(HealthReason.Lifecycle.CREATED, history.getFirst().reason());
        assertEquals(HealthStage.INITIAL, history.getFirst().stage());
        for (int i = 0; i < 13; i++) {
            assertEquals(fx.transitions.get(i).to(), history.get(i + 1));
        }
    }

    @Test
    void historyKeepsTheLatestThirtyTwoInOrder() {
        Fx fx = new Fx();
        for (int i = 0; i < 50; i++) {
            fx.health.disable("d" + i, fx.now());
            fx.health.enable("e" + i, fx.now());
        }
        List<HealthStatus> history = fx.health.history();
        assertEquals(32, history.size());
        assertEquals(100, history.getLast().sequence());
        for (int i = 1; i < history.size(); i++) {
            assertEquals(history.get(i - 1).sequence() + 1, history.get(i).sequence());
        }
    }

    @Test
    void aThrowingListenerNeverBreaksHealthAccounting() {
        ManualClock clock = new ManualClock();
        AtomicInteger calls = new AtomicInteger();
        ProxyHealth health = new ProxyHealth(HealthPolicy.DEFAULTS, clock.read(), (from, to) -> {
            calls.incrementAndGet();
            throw new IllegalStateException("metrics backend down");
        });
        for (int i = 0; i < 3; i++) {
            health.recordFailure(health.tryAdmit(clock.read()), FailureKind.CONNECT_TIMEOUT, clock.read());
        }
        assertEquals(HealthState.COOLING, health.state());
        clock.advance(Duration.ofMinutes(3));
        assertEquals(Admission.PROBE, health.tryAdmit(clock.read()));
        assertEquals(2, calls.get());
    }

    @Test
    void concurrentTransitionsReachTheListenerOncePerSequenceNumber() throws Exception {
        ManualClock clock = new ManualClock();
        List<HealthStatus> seen = new CopyOnWriteArrayList<>();
        ProxyHealth health = new ProxyHealth(HealthPolicy.DEFAULTS, clock.read(), (from, to) -> seen.add(to));
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int id = t;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 2_000; i++) {
                    if ((i + id) % 2 == 0) {
                        health.disable("t" + id, clock.read());
                    } else {
                        health.enable("t" + id, clock.read());
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        long last = health.status().sequence();
        assertEquals(last, seen.size(), "one call per transition");
        assertEquals(
                last, seen.stream().mapToLong(HealthStatus::sequence).distinct().count());
        assertTrue(seen.stream().allMatch(s -> s.sequence() >= 1 && s.sequence() <= last));
    }
}
