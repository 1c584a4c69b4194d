package dev.proxypool.cli.bench;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The outcome of a {@link LoadRun}: counts, errors by kind and the latency histogram of the
 * successful requests.
 *
 * @param connections   workers (connections) used
 * @param elapsed       from the first request to the last worker's end
 * @param ok            requests that succeeded
 * @param errorsByKind  failed requests by kind (sorted)
 * @param latencies     latencies of the successful requests
 */
public record BenchResult(
        int connections, Duration elapsed, long ok, Map<String, Long> errorsByKind, LatencyHistogram latencies) {

    public BenchResult {
        errorsByKind = Collections.unmodifiableMap(new TreeMap<>(errorsByKind));
    }

    public long errors() {
        long n = 0;
        for (long v : errorsByKind.values()) {
            n += v;
        }
        return n;
    }

    public long requests() {
        return ok + errors();
    }

    /** All requests (ok and failed) per second of the run. */
    public double requestsPerSecond() {
        long nanos = elapsed.toNanos();
        return nanos <= 0 ? 0 : requests() * 1e9 / nanos;
    }

    /** Successful requests per second of the run: the throughput, which failures never count toward. */
    public double okPerSecond() {
        long nanos = elapsed.toNanos();
        return nanos <= 0 ? 0 : ok * 1e9 / nanos;
    }

    /** A percentile of the successful requests' latency, in milliseconds. */
    public double percentileMillis(double p) {
        return latencies.percentileMicros(p) / 1000.0;
    }
}
