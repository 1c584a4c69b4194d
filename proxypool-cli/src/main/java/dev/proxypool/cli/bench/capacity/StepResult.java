package dev.proxypool.cli.bench.capacity;

import java.util.Map;

/**
 * One step of a capacity run.
 *
 * @param step             1-based
 * @param offeredRate      arrivals per second scheduled
 * @param achievedRate     successful arrivals per second of the step's duration
 * @param arrivals         arrivals scheduled in the step
 * @param ok               arrivals that succeeded
 * @param errorsByReason   failed arrivals by reason
 * @param addedMs          P50, P95, P99, P99.9 of the gateway's added latency (ms)
 * @param endToEndMs       P50, P95, P99, P99.9 end to end from the scheduled start (ms)
 * @param rttMedianMs      median of the round trips the simulated upstreams reported (ms; 0 when none)
 * @param peakConnections  client connections open at once, at most
 * @param peakTunnels      tunnels open at once, at most
 * @param workerCpuPercent the worker's CPU over the step (100 = one core), or -1 when not known
 * @param workerRssBytes   the worker's peak resident memory in the step, or -1 when not known
 * @param meetsSlo         P99 added and error rate within the SLO
 */
public record StepResult(
        int step,
        double offeredRate,
        double achievedRate,
        long arrivals,
        long ok,
        Map<String, Long> errorsByReason,
        double[] addedMs,
        double[] endToEndMs,
        double rttMedianMs,
        int peakConnections,
        int peakTunnels,
        double workerCpuPercent,
        long workerRssBytes,
        boolean meetsSlo) {

    public static final double[] PERCENTILES = {50, 95, 99, 99.9};

    public StepResult {
        errorsByReason = Map.copyOf(errorsByReason);
        addedMs = addedMs.clone();
        endToEndMs = endToEndMs.clone();
    }

    public long errors() {
        return errorsByReason.values().stream().mapToLong(Long::longValue).sum();
    }

    public double errorRate() {
        return arrivals == 0 ? 0 : (double) errors() / arrivals;
    }

    @Override
    public double[] addedMs() {
        return addedMs.clone();
    }

    @Override
    public double[] endToEndMs() {
        return endToEndMs.clone();
    }
}
