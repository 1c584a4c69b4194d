package dev.proxypool.core.health;

import static dev.proxypool.core.health.FailureKind.CONNECTION_REFUSED;
import static dev.proxypool.core.health.FailureKind.CONNECTION_RESET;
import static dev.proxypool.core.health.FailureKind.CONNECT_TIMEOUT;
import static dev.proxypool.core.health.FailureKind.PROXY_AUTH_REJECTED;
import static dev.proxypool.core.health.HealthState.COOLING;
import static dev.proxypool.core.health.HealthState.DISABLED;
import static dev.proxypool.core.health.HealthState.HEALTHY;
import static dev.proxypool.core.health.HealthState.PROBE_ALLOWED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.HealthReason.Trigger;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every transition of the state machine in docs/design.md#health-states-and-transitions, one named row each: arrange, act, expect. */
class HealthTransitionTest {

    record Row(
            String name,
            Consumer<Fx> arrange,
            Consumer<Fx> act,
            HealthState from,
            HealthState to,
            String reasonCode,
            Trigger trigger,
            HealthStage stage) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final Consumer<Fx> NOTHING = fx -> {};

    static List<Row> transitions() {
        return List.of(
                new Row(
                        "HEALTHY -> COOLING: consecutive failures",
                        NOTHING,
                        fx -> {
                            fx.fail(CONNECT_TIMEOUT);
                            fx.fail(CONNECTION_REFUSED);
                            fx.fail(CONNECTION_RESET);
                        },
                        HEALTHY,
                        COOLING,
                        "connection_reset",
                        Trigger.CONSECUTIVE_FAILURES,
                        HealthStage.PASSIVE),
                new Row(
                        "HEALTHY -> COOLING: window error rate",
                        NOTHING,
                        HealthTransitionTest::oneFailureInThreeUntilCooling,
                        HEALTHY,
                        COOLING,
                        "connect_timeout",
                        Trigger.ERROR_RATE,
                        HealthStage.PASSIVE),
                new Row(
                        "HEALTHY -> COOLING: failed active probes",
                        NOTHING,
                        fx -> {
                            for (int i = 0; i < 2; i++) {
                                assertEquals(Admission.ADMITTED, fx.health.tryAdmitActiveProbe(fx.now()));
                                fx.health.recordActiveFailure(Admission.ADMITTED, CONNECTION_REFUSED, fx.now());
                            }
                        },
                        HEALTHY,
                        COOLING,
                        "connection_refused",
                        Trigger.ACTIVE_PROBES_FAILED,
                        HealthStage.ACTIVE),
                new Row(
                        "HEALTHY -> DISABLED: proxy auth rejected by a request",
                        NOTHING,
                        fx -> fx.fail(PROXY_AUTH_REJECTED),
                        HEALTHY,
                        DISABLED,
                        "proxy_auth_rejected",
                        Trigger.LASTING_CONDITION,
                        HealthStage.PASSIVE),
                new Row(
                        "HEALTHY -> DISABLED: proxy auth rejected by an active probe",
                        NOTHING,
                        fx -> fx.health.recordActiveFailure(Admission.ADMITTED, PROXY_AUTH_REJECTED, fx.now()),
                        HEALTHY,
                        DISABLED,
                        "proxy_auth_rejected",
                        Trigger.LASTING_CONDITION,
                        HealthStage.ACTIVE),
                new Row(
                        "HEALTHY -> DISABLED: operator disable",
                        NOTHING,
                        fx -> fx.health.disable("maintenance", fx.now()),
                        HEALTHY,
                        DISABLED,
                        "operator",
                        null,
                        HealthStage.OPERATOR),
                new Row(
                        "COOLING -> PROBE_ALLOWED: deadline passed, a request takes the permit",
                        Fx::cool,
                        Fx::probeByRequest,
                        COOLING,
                        PROBE_ALLOWED,
                        "cooldown_elapsed",
                        null,
                        HealthStage.PROBE),
                new Row(
                        "COOLING -> PROBE_ALLOWED: deadline passed, the prober takes the permit",
                        Fx::cool,
                        Fx::probeByProber,
                        COOLING,
                        PROBE_ALLOWED,
                        "cooldown_elapsed",
                        null,
                        HealthStage.ACTIVE),
                new Row(
                        "COOLING -> DISABLED: operator disable",
                        Fx::cool,
                        fx -> fx.health.disable("decommissioned", fx.now()),
                        COOLING,
                        DISABLED,
                        "operator",
                        null,
                        HealthStage.OPERATOR),
                new Row(
                        "COOLING -> DISABLED: a straggler request reports proxy auth rejected",
                        Fx::cool,
                        fx -> fx.health.recordFailure(Admission.ADMITTED, PROXY_AUTH_REJECTED, fx.now()),
                        COOLING,
                        DISABLED,
                        "proxy_auth_rejected",
                        Trigger.LASTING_CONDITION,
                        HealthStage.PASSIVE),
                new Row(
                        "COOLING -> COOLING: operator enable ends the cooldown now (one recovery check first)",
                        Fx::cool,
                        fx -> fx.health.enable("vendor fixed it", fx.now()),
                        COOLING,
                        COOLING,
                        "operator_enabled",
                        null,
                        HealthStage.OPERATOR),
                new Row(
                        "PROBE_ALLOWED -> HEALTHY: the request probe succeeded",
                        fx -> fx.cool().probeByRequest(),
                        fx -> fx.health.recordSuccess(Admission.PROBE, 5_000_000, fx.now()),
                        PROBE_ALLOWED,
                        HEALTHY,
                        "probe_succeeded",
                        null,
                        HealthStage.PROBE),
                new Row(
                        "PROBE_ALLOWED -> HEALTHY: the active probe succeeded",
                        fx -> fx.cool().probeByProber(),
                        fx -> fx.health.recordActiveSuccess(Admission.PROBE, 5_000_000, fx.now()),
                        PROBE_ALLOWED,
                        HEALTHY,
                        "probe_succeeded",
                        null,
                        HealthStage.ACTIVE),
                new Row(
                        "PROBE_ALLOWED -> COOLING: the request probe failed",
                        fx -> fx.cool().probeByRequest(),
                        fx -> fx.health.recordFailure(Admission.PROBE, CONNECT_TIMEOUT, fx.now()),
                        PROBE_ALLOWED,
                        COOLING,
                        "connect_timeout",
                        Trigger.PROBE_FAILED,
                        HealthStage.PROBE),
                new Row(
                        "PROBE_ALLOWED -> COOLING: the active probe failed",
                        fx -> fx.cool().probeByProber(),
                        fx -> fx.health.recordActiveFailure(Admission.PROBE, CONNECTION_REFUSED, fx.now()),
                        PROBE_ALLOWED,
                        COOLING,
                        "connection_refused",
                        Trigger.PROBE_FAILED,
                        HealthStage.ACTIVE),
                new Row(
                        "PROBE_ALLOWED -> COOLING: the request probe expired unanswered",
                        fx -> fx.cool().probeByRequest(),
                        fx -> assertEquals(
                                Admission.DENIED,
                                fx.advance(Duration.ofSeconds(30)).health.tryAdmit(fx.now())),
                        PROBE_ALLOWED,
                        COOLING,
                        "probe_expired",
                        null,
                        HealthStage.PROBE),
                new Row(
                        "PROBE_ALLOWED -> COOLING: the active probe expired unanswered",
                        fx -> fx.cool().probeByProber(),
                        fx -> fx.advance(Duration.ofMinutes(1)).health.recordSuccess(Admission.ADMITTED, 1, fx.now()),
                        PROBE_ALLOWED,
                        COOLING,
                        "probe_expired",
                        null,
                        HealthStage.ACTIVE),
                new Row(
                        "PROBE_ALLOWED -> DISABLED: the probe met proxy auth rejected",
                        fx -> fx.cool().probeByRequest(),
                        fx -> fx.health.recordFailure(Admission.PROBE, PROXY_AUTH_REJECTED, fx.now()),
                        PROBE_ALLOWED,
                        DISABLED,
                        "proxy_auth_rejected",
                        Trigger.LASTING_CONDITION,
                        HealthStage.PROBE),
                new Row(
                        "PROBE_ALLOWED -> DISABLED: operator disable",
                        fx -> fx.cool().probeByRequest(),
                        fx -> fx.health.disable("bad exit country", fx.now()),
                        PROBE_ALLOWED,
                        DISABLED,
                        "operator",
                        null,
                        HealthStage.OPERATOR),
                new Row(
                        "DISABLED -> HEALTHY: operator enable of a proxy disabled while healthy",
                        fx -> fx.health.disable("rotate credentials", fx.now()),
                        fx -> fx.health.enable("credentials rotated", fx.now()),
                        DISABLED,
                        HEALTHY,
                        "operator_enabled",
                        null,
                        HealthStage.OPERATOR),
                new Row(
                        "DISABLED -> COOLING: operator enable of a proxy disabled for a failure (one recovery check)",
                        fx -> fx.fail(PROXY_AUTH_REJECTED),
                        fx -> fx.health.enable("vendor fixed it", fx.now()),
                        DISABLED,
                        COOLING,
                        "operator_enabled",
                        null,
                        HealthStage.OPERATOR),
                new Row(
                        "DISABLED -> COOLING: operator enable of a proxy disabled while cooling",
                        fx -> {
                            fx.cool();
                            fx.health.disable("looking into it", fx.now());
                        },
                        fx -> fx.health.enable("looked", fx.now()),
                        DISABLED,
                        COOLING,
                        "operator_enabled",
                        null,
                        HealthStage.OPERATOR),
                new Row(
                        "DISABLED -> COOLING: the credentials of an auth rejection were reloaded",
                        fx -> fx.fail(PROXY_AUTH_REJECTED),
                        fx -> assertTrue(fx.health.credentialsReloaded(fx.now())),
                        DISABLED,
                        COOLING,
                        "credentials_reloaded",
                        null,
                        HealthStage.OPERATOR));
    }

    /** F S S F S S ...: never three in a row, so only the error-rate rule can fire (at 8/22 > 30%). */
    static void oneFailureInThreeUntilCooling(Fx fx) {
        for (int i = 0; i < 30; i++) {
            fx.fail(CONNECT_TIMEOUT);
            if (fx.health.state() != HEALTHY) {
                return;
            }
            fx.succeed();
            fx.succeed();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transitions")
    void transition(Row row) {
        Fx fx = new Fx();
        row.arrange().accept(fx);
        assertEquals(row.from(), fx.health.state(), "arranged state");
        int before = fx.transitions.size();

        row.act().accept(fx);

        assertEquals(before + 1, fx.transitions.size(), "exactly one transition");
        Fx.Transition t = fx.last();
        assertEquals(row.from(), t.from().state());
        assertEquals(row.to(), t.to().state());
        assertEquals(row.to(), fx.health.state());
        assertEquals(row.reasonCode(), t.to().reason().code());
        assertEquals(row.stage(), t.to().stage());
        assertEquals(t.from().sequence() + 1, t.to().sequence());
        if (row.trigger() != null) {
            HealthReason.Failure failure = assertInstanceOf(HealthReason.Failure.class, t.to().reason());
            assertEquals(row.trigger(), failure.trigger());
        }
        assertEquals(t.to(), fx.health.status());
        assertEquals(t.to(), fx.health.history().getLast());
    }

    @Test
    void everyPairOfStatesThatTheSpecAllowsHasARow() {
        Set<String> covered =
                transitions().stream().map(r -> r.from() + "->" + r.to()).collect(Collectors.toSet());
        Set<String> expected = Stream.of(
                        "HEALTHY->COOLING",
                        "HEALTHY->DISABLED",
                        "COOLING->PROBE_ALLOWED",
                        "COOLING->DISABLED",
                        "COOLING->COOLING",
                        "DISABLED->COOLING",
                        "PROBE_ALLOWED->HEALTHY",
                        "PROBE_ALLOWED->COOLING",
                        "PROBE_ALLOWED->DISABLED",
                        "DISABLED->HEALTHY")
                .collect(Collectors.toSet());
        assertEquals(expected, covered);
        for (HealthState s : EnumSet.allOf(HealthState.class)) {
            assertTrue(covered.stream().anyMatch(p -> p.startsWith(s + "->")), "a way out of " + s);
            assertTrue(covered.stream().anyMatch(p -> p.endsWith("->" + s)), "a way into " + s);
        }
    }

    record Still(String name, Consumer<Fx> arrange, Consumer<Fx> act) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Still> nonTransitions() {
        return List.of(
                new Still("HEALTHY: operator enable is a no-op", NOTHING, fx -> fx.health.enable("again", fx.now())),
                new Still(
                        "PROBE_ALLOWED: operator enable is a no-op (the recovery check is running)",
                        fx -> fx.cool().probeByRequest(),
                        fx -> fx.health.enable("checked by hand", fx.now())),
                new Still(
                        "DISABLED by an operator: a credentials reload leaves it disabled",
                        fx -> fx.health.disable("decommissioned", fx.now()),
                        fx -> assertFalse(fx.health.credentialsReloaded(fx.now()))),
                new Still("HEALTHY: failures below the streak", NOTHING, fx -> {
                    fx.fail(CONNECT_TIMEOUT);
                    fx.fail(CONNECT_TIMEOUT);
                    fx.succeed();
                    fx.fail(CONNECT_TIMEOUT);
                }),
                new Still(
                        "COOLING: requests are denied before the deadline",
                        Fx::cool,
                        fx -> assertEquals(
                                Admission.DENIED,
                                fx.advance(Duration.ofMinutes(3).minusNanos(1))
                                        .health
                                        .tryAdmit(fx.now()))),
                new Still("COOLING: straggler failures and successes are ignored", Fx::cool, fx -> {
                    fx.health.recordFailure(Admission.ADMITTED, CONNECT_TIMEOUT, fx.now());
                    fx.health.recordSuccess(Admission.ADMITTED, 1, fx.now());
                }),
                new Still(
                        "COOLING: a probe report without a permit is ignored",
                        Fx::cool,
                        fx -> fx.health.recordSuccess(Admission.PROBE, 1, fx.now())),
                new Still(
                        "PROBE_ALLOWED: everyone else is denied",
                        fx -> fx.cool().probeByRequest(),
                        fx -> {
                            assertEquals(Admission.DENIED, fx.health.tryAdmit(fx.now()));
                            assertEquals(Admission.DENIED, fx.health.tryAdmitActiveProbe(fx.now()));
                        }),
                new Still(
                        "PROBE_ALLOWED: the prober's report cannot settle a request's permit",
                        fx -> fx.cool().probeByRequest(),
                        fx -> fx.health.recordActiveSuccess(Admission.PROBE, 1, fx.now())),
                new Still(
                        "PROBE_ALLOWED: a request's report cannot settle the prober's permit",
                        fx -> fx.cool().probeByProber(),
                        fx -> fx.health.recordFailure(Admission.PROBE, CONNECT_TIMEOUT, fx.now())),
                new Still(
                        "DISABLED: denied, and auth rejected again changes nothing",
                        fx -> fx.fail(PROXY_AUTH_REJECTED),
                        fx -> {
                            assertEquals(Admission.DENIED, fx.health.tryAdmit(fx.now()));
                            fx.health.recordFailure(Admission.ADMITTED, PROXY_AUTH_REJECTED, fx.now());
                        }),
                new Still(
                        "DISABLED: operator disable again is a no-op",
                        fx -> fx.health.disable("one", fx.now()),
                        fx -> fx.health.disable("two", fx.now())),
                new Still(
                        "DISABLED: time alone never brings it back",
                        fx -> fx.health.disable("one", fx.now()),
                        fx -> assertEquals(
                                Admission.DENIED,
                                fx.advance(Duration.ofDays(30)).health.tryAdmit(fx.now()))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nonTransitions")
    void noTransition(Still row) {
        Fx fx = new Fx();
        row.arrange().accept(fx);
        HealthStatus before = fx.health.status();
        int count = fx.transitions.size();
        row.act().accept(fx);
        assertEquals(count, fx.transitions.size());
        assertEquals(before, fx.health.status());
    }
}
