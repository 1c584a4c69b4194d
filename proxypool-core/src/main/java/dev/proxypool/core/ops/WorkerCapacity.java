package dev.proxypool.core.ops;

/**
 * The worker-count formula of docs/runbook.md#workers:
 * {@code required_workers = ceil(peak_qps / (measured_worker_qps * target_utilization)) + failure_domain_spares}.
 *
 * <p>{@code measuredWorkerQps} must come from a load test close to production (protocol mix, proxy
 * RTT, connection reuse, security policy), judged by P95/P99 and error rate, never averages alone.
 *
 * @param peakQps           expected cluster peak, requests per second (> 0)
 * @param measuredWorkerQps what one worker sustained in that load test (> 0)
 * @param utilization       target utilization in (0, 1]
 * @param spares            extra workers for the loss of a failure domain (>= 0)
 */
public record WorkerCapacity(double peakQps, double measuredWorkerQps, double utilization, int spares) {

    /**
     * Validates the figures.
     *
     * @throws IllegalArgumentException if a figure is out of the range given for its component,
     *     naming the figure as the CLI flag spells it ({@code peak-qps}, ...)
     */
    public WorkerCapacity {
        if (!(peakQps > 0) || Double.isInfinite(peakQps)) {
            throw new IllegalArgumentException("peak-qps must be a positive number, got " + peakQps);
        }
        if (!(measuredWorkerQps > 0) || Double.isInfinite(measuredWorkerQps)) {
            throw new IllegalArgumentException(
                    "measured-worker-qps must be a positive number, got " + measuredWorkerQps);
        }
        if (!(utilization > 0 && utilization <= 1)) {
            throw new IllegalArgumentException("utilization must be in (0, 1], got " + utilization);
        }
        if (spares < 0) {
            throw new IllegalArgumentException("spares must not be negative, got " + spares);
        }
    }

    /**
     * Workers needed to carry the peak at the target utilization, before spares.
     *
     * @return {@code ceil(peakQps / (measuredWorkerQps * utilization))}; an exact quotient is not
     *     rounded up by floating-point noise
     */
    public long baseWorkers() {
        // Subtract a hair so that exact quotients (e.g. 100000 / (12500 * 0.8) = 10) are not rounded
        // up by binary floating-point noise.
        double exact = peakQps / (measuredWorkerQps * utilization);
        return (long) Math.ceil(exact - 1e-9);
    }

    /**
     * The runbook's answer: the workers to deploy.
     *
     * @return {@link #baseWorkers()} plus {@link #spares()}
     */
    public long requiredWorkers() {
        return baseWorkers() + spares;
    }

    /**
     * Utilization each worker runs at with {@link #baseWorkers()} workers carrying the peak.
     *
     * @return a fraction, at most {@link #utilization()} up to floating-point noise: rounding the
     *     worker count up only lowers it
     */
    public double utilizationAtPeak() {
        return peakQps / (baseWorkers() * measuredWorkerQps);
    }
}
