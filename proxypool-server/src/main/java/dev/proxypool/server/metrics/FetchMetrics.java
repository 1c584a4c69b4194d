package dev.proxypool.server.metrics;

import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.sdk.pipeline.CollectionPipeline;
import dev.proxypool.sdk.pipeline.PipelineRound;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Tag;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Pipeline meters fed by {@link CollectionPipeline.Listener}:
 * {@code proxypool.pipeline.fetches{upstream, outcome}} (outcome = success | empty | error |
 * duplicate_only), {@code proxypool.pipeline.fetch.errors{upstream, kind}} and
 * {@code proxypool.pipeline.rounds{role}} (role = writer | follower). Upstream names come from the
 * config, so the tag sets stay small.
 */
final class FetchMetrics implements CollectionPipeline.Listener {

    private static final List<String> OUTCOMES = List.of("success", "empty", "error", "duplicate_only");

    private final Meters meters;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Counter writerRounds;
    private final Counter followerRounds;

    FetchMetrics(Meters meters, List<String> upstreams) {
        this.meters = meters;
        for (String u : upstreams) {
            for (String o : OUTCOMES) {
                fetches(u, o);
            }
        }
        writerRounds = meters.counter(
                "proxypool.pipeline.rounds",
                "Pipeline rounds by role (writer holds the pipeline lease)",
                List.of(Tag.create("role", "writer")));
        followerRounds = meters.counter(
                "proxypool.pipeline.rounds",
                "Pipeline rounds by role (writer holds the pipeline lease)",
                List.of(Tag.create("role", "follower")));
    }

    private Counter fetches(String upstream, String outcome) {
        return counters.computeIfAbsent(
                "f\u0000" + upstream + "\u0000" + outcome,
                k -> meters.counter(
                        "proxypool.pipeline.fetches",
                        "Upstream fetches by outcome",
                        List.of(Tag.create("upstream", upstream), Tag.create("outcome", outcome))));
    }

    private Counter errors(String upstream, String kind) {
        return counters.computeIfAbsent(
                "e\u0000" + upstream + "\u0000" + kind,
                k -> meters.counter(
                        "proxypool.pipeline.fetch.errors",
                        "Failed upstream fetches by kind",
                        List.of(Tag.create("upstream", upstream), Tag.create("kind", kind))));
    }

    @Override
    public void onFetch(String upstream, FetchOutcome outcome) {
        fetches(upstream, outcome.label()).increment();
        if (outcome instanceof FetchOutcome.Error e) {
            errors(upstream, e.kind().label()).increment();
        }
    }

    @Override
    public void onRound(PipelineRound round) {
        (round.writer() ? writerRounds : followerRounds).increment();
    }
}
