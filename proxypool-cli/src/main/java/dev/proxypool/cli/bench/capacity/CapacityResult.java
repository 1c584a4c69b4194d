package dev.proxypool.cli.bench.capacity;

import java.util.List;

/**
 * A whole capacity run.
 *
 * @param steps                 every step run, in order
 * @param measuredWorkerQps     the highest offered rate whose step met the SLO, or -1 when none did
 * @param stopReason            why stepping stopped: {@code slo_broken}, {@code max_rate}, {@code max_steps}, {@code max_time}
 * @param baselineRssBytes      the worker's resident memory before the first step, or -1
 * @param memoryPerTunnelBytes  worker RSS growth per added open tunnel, from the first step to the one holding the
 *                              most tunnels (an upper bound: a JVM's heap grows in steps); -1 when not known
 */
public record CapacityResult(
        List<StepResult> steps,
        double measuredWorkerQps,
        String stopReason,
        long baselineRssBytes,
        long memoryPerTunnelBytes) {

    public CapacityResult {
        steps = List.copyOf(steps);
    }

    public boolean met() {
        return measuredWorkerQps >= 0;
    }

    public int peakTunnels() {
        return steps.stream().mapToInt(StepResult::peakTunnels).max().orElse(0);
    }
}
