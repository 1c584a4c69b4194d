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
    record Row(FailureKind kind, FailureEffect effect, HealthState afterOne, HealthState afterThreeInARow,
               int streakAfterOne, String why) {
        @Override
        public String toString() {
            return kind + " " + effect;
        }
    }

    static List<Row> table() {
        return List.of(
                new Row(FailureKind.PROXY_AUTH_REJECTED, FailureEffect.DISABLES, HealthState.DISABLED, HealthState.DISABLED, 0,
                        "revoked credentials do not heal by waiting"),
                new Row(FailureKind.CONNECTION_REFUSED, FailureEffect.COOLS, HealthState.HEALTHY, HealthState.COOLING, 1,
                        "the proxy port is closed: likely down for a while"),
                new Row(FailureKind.CONNECT_TIMEOUT, FailureEffect.COOLS, HealthState.HEALTHY, HealthState.COOLING, 1,
                        "a timeout cools (docs/design.md#failure-classification, F1)"),
                new Row(FailureKind.TLS_FAILURE, FailureEffect.COOLS, HealthState.HEALTHY, HealthState.COOLING, 1,
                        "the proxy broke the TLS handshake"),
                new Row(FailureKind.PROTOCOL_ERROR, FailureEffect.COOLS, HealthState.HEALTHY, HealthState.COOLING, 1,
                        "the proxy spoke garbage"),
                new Row(FailureKind.SLOW_BODY, FailureEffect.COOLS, HealthState.HEALTHY, HealthState.COOLING, 1,
                        "an overloaded proxy trickles"),
                new Row(FailureKind.CONNECTION_RESET, FailureEffect.COOLS, HealthState.HEALTHY, HealthState.COOLING, 1,
                        "the proxy dropped the exchange"),
                new Row(FailureKind.UPSTREAM_UNREACHABLE, FailureEffect.RATE_ONLY, HealthState.HEALTHY, HealthState.HEALTHY, 0,
                        "may be the destination's fault: only the error rate over many samples judges it"));
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
            HealthReason.Failure reason = (HealthReason.Failure) three.health.status().reason();
            assertEquals(row.kind(), reason.kind());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void everyNonDisablingKindCountsTowardTheErrorRate(Row row) {
        if (row.effect() == FailureEffect.DISABLES) {
            return;
        }
        Fx fx = new Fx();
        fx.fail(row.kind());
        assertEquals(1, fx.health.windowFailures(fx.now()));
        assertEquals(1, fx.health.windowRequests(fx.now()));
    }

    @Test
    void rateOnlyFailuresNeitherExtendNorResetTheStreak() {
        Fx fx = new Fx();
        fx.fail(FailureKind.CONNECT_TIMEOUT);
        fx.fail(FailureKind.CONNECT_TIMEOUT);
        fx.fail(FailureKind.UPSTREAM_UNREACHABLE);
        assertEquals(2, fx.health.passiveFailureStreak());
        assertEquals(HealthState.HEALTHY, fx.health.state());
        fx.fail(FailureKind.CONNECT_TIMEOUT);
        assertEquals(HealthState.COOLING, fx.health.state());
    }

    @Test
    void manyRateOnlyFailuresCoolThroughTheErrorRateOnceThereAreEnoughSamples() {
        Fx fx = new Fx();
        for (int i = 0; i < 19; i++) {
            fx.fail(FailureKind.UPSTREAM_UNREACHABLE);
        }
        assertEquals(HealthState.HEALTHY, fx.health.state(), "19 samples < minSamples 20");
        fx.fail(FailureKind.UPSTREAM_UNREACHABLE);
        assertEquals(HealthState.COOLING, fx.health.state());
        assertEquals(HealthReason.Trigger.ERROR_RATE, ((HealthReason.Failure) fx.health.status().reason()).trigger());
    }
}
