package dev.proxypool.cli.bench.capacity;

import java.time.Duration;

/**
 * What a step must meet: the P99 of the gateway's added latency (end to end minus the simulated
 * upstream round trip) at most {@code p99}, and errors (any reason, the client's backlog included)
 * at most {@code maxErrorRate} of the step's arrivals.
 */
public record Slo(Duration p99, double maxErrorRate) {

    public Slo {
        if (p99.isNegative() || p99.isZero()) {
            throw new IllegalArgumentException("--p99 must be positive");
        }
        if (!(maxErrorRate >= 0 && maxErrorRate <= 1)) {
            throw new IllegalArgumentException("--max-error-rate must be in [0, 1]");
        }
    }
}
