package dev.proxypool.cli.bench.capacity;

import dev.proxypool.cli.bench.LatencyHistogram;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/** What one step's arrivals recorded; shared by their threads, so every method synchronizes or is atomic. */
final class StepStats {

    private final LatencyHistogram endToEnd = new LatencyHistogram();
    private final LatencyHistogram added = new LatencyHistogram();
    private final LatencyHistogram rtt = new LatencyHistogram();
    private final Map<String, Long> errors = new TreeMap<>();
    private long ok;

    final AtomicLong scheduled = new AtomicLong();

    /** A success: end to end from its scheduled start, and the upstream's reported round trip (-1: none). */
    synchronized void ok(long endToEndNanos, long rttMicros) {
        ok++;
        endToEnd.recordNanos(endToEndNanos);
        long rttNanos = Math.max(0, rttMicros) * 1000;
        added.recordNanos(Math.max(0, endToEndNanos - rttNanos));
        if (rttMicros >= 0) {
            rtt.recordMicros(rttMicros);
        }
    }

    synchronized void error(String kind) {
        errors.merge(kind, 1L, Long::sum);
    }

    synchronized long ok() {
        return ok;
    }

    synchronized Map<String, Long> errors() {
        return new TreeMap<>(errors);
    }

    synchronized LatencyHistogram endToEnd() {
        LatencyHistogram h = new LatencyHistogram();
        h.add(endToEnd);
        return h;
    }

    synchronized LatencyHistogram added() {
        LatencyHistogram h = new LatencyHistogram();
        h.add(added);
        return h;
    }

    synchronized LatencyHistogram rtt() {
        LatencyHistogram h = new LatencyHistogram();
        h.add(rtt);
        return h;
    }
}
