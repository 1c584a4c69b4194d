package dev.proxypool.sdk.pipeline;

import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.sdk.provider.FetchReport;
import java.util.Map;

/**
 * The one log line a collection cycle writes: what was published in all, and per fetched upstream
 * its outcome, candidates, published count and drops by reason, e.g.
 * {@code collection cycle: published 3; lab: success, 5 candidates, 3 published, drops {validation_connect_timeout=2}}.
 * Names only upstreams and reason codes: no proxy address, no error detail (it may quote a URL).
 */
final class CycleLog {

    private CycleLog() {}

    static String line(
            Map<FetchReport, FetchOutcome> outcomes,
            Map<String, Map<String, Integer>> drops,
            PoolPublisher.Published published,
            boolean wrote) {
        StringBuilder b =
                new StringBuilder("collection cycle: published ").append(published == null ? 0 : published.published());
        if (!wrote) {
            b.append(" (not the pipeline writer: nothing written)");
        }
        for (Map.Entry<FetchReport, FetchOutcome> e : outcomes.entrySet()) {
            String upstream = e.getKey().upstream();
            b.append("; ").append(upstream).append(": ").append(e.getValue().label());
            if (e.getValue() instanceof FetchOutcome.Error err) {
                b.append(" (").append(err.kind().label()).append(')');
            }
            b.append(", ")
                    .append(e.getKey().candidates().size())
                    .append(" candidates, ")
                    .append(published == null ? 0 : published.published(upstream))
                    .append(" published, drops ")
                    .append(drops.getOrDefault(upstream, Map.of()));
        }
        return b.toString();
    }
}
