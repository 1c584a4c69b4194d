package dev.proxypool.sdk.pipeline;

import dev.proxypool.sdk.provider.FetchReport;
import java.util.List;

/** One pipeline round: the fetch reports of the upstreams that were due, and how many proxies were published. */
public record PipelineRound(List<FetchReport> reports, int published) {

    public PipelineRound {
        reports = List.copyOf(reports);
    }
}
