package dev.proxypool.sdk.pipeline;

import dev.proxypool.sdk.provider.FetchReport;
import java.util.List;

/**
 * One pipeline round.
 *
 * @param reports         the fetch reports of the upstreams that were due (empty when this process
 *                        did not hold the pipeline lease)
 * @param published       proxies added or refreshed in the store
 * @param writer          whether this process was the pipeline's writer this round: true without a
 *                        lease, or while it holds the lease; false for a follower round, which only
 *                        rebuilds its snapshot from the shared store
 * @param snapshotVersion the engine's snapshot version after the round
 */
public record PipelineRound(List<FetchReport> reports, int published, boolean writer, long snapshotVersion) {

    public PipelineRound {
        reports = List.copyOf(reports);
    }
}
