package dev.proxypool.core.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The effect of every {@link FailureKind}, as documentation and as behaviour: the table says what
 * each kind does, and each row is checked against a real ProxyHealth (default policy: cool after 3
 * in a row, error rate 30% over at least 20 samples).
 */
class FailureClassificationTest {

    /**
     * @param effect           the declared classification
     * @param afterOne         state after one failure on a fresh proxy
     * @param afterThreeInARow state after three failures in a row on a fresh proxy
     * @param streakAfterOne   the passive streak after one failure
     * @param why              why this kind has this effect
     */
    record Row(
            FailureKind kind,
            FailureEffect effect,
            HealthState afterOne,
            HealthState afterThreeInARow,
            int streakAfterOne,
            String why) {
        @Override
        public String toString() {
            return kind + " " + effect;
        }
    }

    static List<Row> table() {
        return List.of(
                new Row(
                        FailureKind.PROXY_AUTH_REJECTED,
                        FailureEffect.DISABLES,
                        HealthState.DISABLED,
                        HealthState.DISABLED,
                        0,
                        "revoked credentials do not heal by waiting"),
                new Row(
                        FailureKind.CONNECTION_REFUSED,
                        FailureEffect.COOLS,
                        HealthState.HEALTHY,
                        HealthState.COOLING,
                        1,
                        "the proxy port is closed: likely down for a while"),
                new Row(
                        FailureKind.CONNECT_TIMEOUT,
                        FailureEffect.COOLS,
                        HealthState.HEALTHY,
                        HealthState.COOLING,
                        1,
                        "a timeout cools (docs/design.md#failure-classification, F1)"),
                new Row(
                        FailureKind.TLS_FAILURE,
                        FailureEffect.COOLS,
                        HealthState.HEALTHY,
                        HealthState.COOLING,
                        1,
                        "the proxy broke the TLS handshake"),
                new Row(
                        FailureKind.PROTOCOL_ERROR,
                        FailureEffect.COOLS,
                        HealthState.HEALTHY,
                        HealthState.COOLING,
                        1,
                        "the proxy spoke garbage"),
                new Row(
                        FailureKind.SLOW_BODY,
                        FailureEffect.COOLS,
                        HealthState.HEALTHY,
                        HealthState.COOLING,
                        1,
                        "an overloaded proxy trickles"),
                new Row(
                        FailureKind.CONNECTION_RESET,
                        FailureEffect.COOLS,
                        HealthState.HEALTHY,
                        HealthState.COOLING,
                        1,
                        "the proxy dropped the exchange"),
                new Row(
                        FailureKind.UPSTREAM_UNREACHABLE,
                        FailureEffect.TARGET_SIDE,
                        HealthState.HEALTHY,
                        HealthState.HEALTHY,
                        0,
                        "a working proxy could not reach this destination: the destination's problem"));
    }

    @Test
    void tableCoversEveryKindOnce() {
        Set<FailureKind> kinds = table().stream().map(Row::kind).collect(Collectors.toSet());
        assertEquals(EnumSet.allOf(FailureKind.class), kinds);
        assertEquals(FailureKind.values().length, table().size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void declaredEffect(Row row) {
        assertEquals(row.effect(), FailureEffect.of(row.kind()), row.why());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void effectOnAFreshProxy(Row row) {
        Fx one = new Fx();
        one.fail(row.kind());
        assertEquals(row.afterOne(), one.health.state(), row.why());
        assertEquals(row.streakAfterOne(), one.health.passiveFailureStreak());

        Fx three = new Fx();
        three.fail(row.kind());
        for (int i = 1; i < 3 && three.health.state() == HealthState.HEALTHY; i++) {
            three.fail(row.kind());
        }
        assertEquals(row.afterThreeInARow(), three.health.state(), row.why());
        if (row.afterThreeInARow() != HealthState.HEALTHY) {
            HealthReason.Failure reason =
                    (HealthReason.Failure) three.health.status().reason();
            assertEquals(row.kind(), reason.kind());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void everyProxyFaultCountsTowardTheErrorRate(Row row) {
        if (row.effect() != FailureEffect.COOLS) {
            return;
        }
        Fx fx = new Fx();
        fx.fail(row.kind());
        assertEquals(1, fx.health.windowFailures(fx.now()));
        assertEquals(1, fx.health.windowRequests(fx.now()));
    }

    @Test
    void targetSideFailuresNeitherExtendNorResetTheStreakNorCountInTheWindow() {
        Fx fx = new Fx();
        fx.fail(FailureKind.CONNECT_TIMEOUT);
        fx.fail(FailureKind.CONNECT_TIMEOUT);
        fx.fail(FailureKind.UPSTREAM_UNREACHABLE);
        assertEquals(2, fx.health.passiveFailureStreak());
        assertEquals(2, fx.health.windowFailures(fx.now()), "the destination's failure is not the proxy's");
        assertEquals(2, fx.health.windowRequests(fx.now()));
        assertEquals(HealthState.HEALTHY, fx.health.state());
        fx.fail(FailureKind.CONNECT_TIMEOUT);
        assertEquals(HealthState.COOLING, fx.health.state());
    }

    /** A dead site asked for again and again (a browser's background connections) never cools a working proxy. */
    @Test
    void manyTargetSideFailuresAtOneDestinationNeverCool() {
        Fx fx = new Fx();
        for (int i = 0; i < 200; i++) {
            failAt(fx, i % 2 == 0 ? "nonexistent.invalid" : "NONEXISTENT.invalid");
        }
        assertEquals(HealthState.HEALTHY, fx.health.state(), "200 failures at one destination");
        assertEquals(1, fx.health.targetFailureStreak());
        assertEquals(1.0, fx.health.weightFactor(), "no weight penalty either");
    }

    @Test
    void distinctDestinationsFailingInARowCoolTheProxy() {
        Fx fx = new Fx();
        int n = HealthPolicy.DEFAULT_DISTINCT_TARGET_FAILURES;
        for (int i = 1; i < n; i++) {
            failAt(fx, "dead-" + i + ".invalid");
            failAt(fx, "dead-1.invalid"); // a repeat adds nothing
        }
        assertEquals(HealthState.HEALTHY, fx.health.state(), (n - 1) + " different destinations");
        assertEquals(n - 1, fx.health.targetFailureStreak());
        failAt(fx, "dead-" + n + ".invalid");
        assertEquals(HealthState.COOLING, fx.health.state());
        HealthReason.Failure why = (HealthReason.Failure) fx.health.status().reason();
        assertEquals(HealthReason.Trigger.DISTINCT_TARGETS_FAILED, why.trigger());
        assertEquals(FailureKind.UPSTREAM_UNREACHABLE, why.kind());
    }

    @Test
    void aSuccessBetweenStartsTheDistinctStreakAgain() {
        Fx fx = new Fx(HealthPolicy.DEFAULTS.withDistinctTargetFailures(3));
        for (int round = 0; round < 20; round++) {
            failAt(fx, "a-" + round + ".invalid");
            failAt(fx, "b-" + round + ".invalid");
            fx.succeed();
            assertEquals(0, fx.health.targetFailureStreak());
        }
        assertEquals(HealthState.HEALTHY, fx.health.state());
        failAt(fx, "x.invalid");
        failAt(fx, "y.invalid");
        failAt(fx, "z.invalid");
        assertEquals(HealthState.COOLING, fx.health.state(), "threshold 3 reached");
    }

    @Test
    void anUnknownDestinationCountsAsADifferentOne() {
        Fx fx = new Fx(HealthPolicy.DEFAULTS.withDistinctTargetFailures(4));
        for (int i = 0; i < 3; i++) {
            fx.fail(FailureKind.UPSTREAM_UNREACHABLE);
        }
        assertEquals(HealthState.HEALTHY, fx.health.state());
        fx.fail(FailureKind.UPSTREAM_UNREACHABLE);
        assertEquals(HealthState.COOLING, fx.health.state());
    }

    @Test
    void aTargetSideFailureOfTheRecoveryProbeIsAFailedProbe() {
        Fx fx = new Fx().cool().probeByRequest();
        fx.health.recordFailure(Admission.PROBE, FailureKind.UPSTREAM_UNREACHABLE, "nonexistent.invalid", fx.now());
        assertEquals(HealthState.COOLING, fx.health.state());
        assertEquals(
                HealthReason.Trigger.PROBE_FAILED,
                ((HealthReason.Failure) fx.health.status().reason()).trigger());
    }

    @Test
    void theThresholdIsValidatedNamingItsKey() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> HealthPolicy.DEFAULTS.withDistinctTargetFailures(0));
        assertEquals("health.passive.distinctTargetFailures must be at least 1, got 0", e.getMessage());
    }

    private static void failAt(Fx fx, String destination) {
        assertEquals(Admission.ADMITTED, fx.health.tryAdmit(fx.now()));
        fx.health.recordFailure(Admission.ADMITTED, FailureKind.UPSTREAM_UNREACHABLE, destination, fx.now());
    }
}
