package dev.proxypool.server.metrics;

import dev.proxypool.core.health.HealthListener;
import dev.proxypool.core.health.HealthStatus;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Tag;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code proxypool.health.transitions{state, reason, stage}}: every health transition, by the
 * state entered, the reason's low-cardinality {@link dev.proxypool.core.health.HealthReason#code()}
 * (a failure kind, {@code operator}, or a lifecycle event; never the operator's free text) and the
 * stage that observed it. Never by proxy. Transitions are rare, so a map lookup per call is fine;
 * the counter of a new combination is created once.
 */
final class HealthTransitionMetrics implements HealthListener {

    private final Meters meters;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    HealthTransitionMetrics(Meters meters) {
        this.meters = meters;
    }

    @Override
    public void onTransition(HealthStatus from, HealthStatus to) {
        String state = to.state().name().toLowerCase(Locale.ROOT);
        String reason = to.reason().code();
        String stage = to.stage().wireName();
        counters.computeIfAbsent(
                        state + "\u0000" + reason + "\u0000" + stage,
                        k -> meters.counter(
                                "proxypool.health.transitions",
                                "Proxy health transitions by state entered, reason and stage",
                                List.of(
                                        Tag.create("state", state),
                                        Tag.create("reason", reason),
                                        Tag.create("stage", stage))))
                .increment();
    }
}
