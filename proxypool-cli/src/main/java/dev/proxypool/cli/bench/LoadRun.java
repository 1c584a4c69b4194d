package dev.proxypool.cli.bench;

import dev.proxypool.core.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Drives a load: {@code workers} virtual threads each run their {@link Worker} in a closed loop
 * (next request when the previous one answered) until {@code duration} has passed, recording the
 * latency of each success in a per-worker {@link LatencyHistogram} and each failure by kind. The
 * calling thread reports progress once a second. After the deadline every worker finishes its
 * current request; one still running {@code grace} later is closed (its connection is cut), so a
 * run never outlives {@code duration + grace} by much.
 *
 * <p>Closed loop: a slow server lowers the request rate instead of queueing requests, which is
 * what a fixed pool of connections sees; the latencies are those of answered requests.
 */
public final class LoadRun {

    /** Bounds: a bench is a tool, not a soak test. */
    public static final int MAX_WORKERS = 10_000;

    public static final Duration MAX_DURATION = Duration.ofHours(1);

    /** One connection's requests. Not shared between threads. */
    public interface Worker extends AutoCloseable {
        /** One request; null on success, else a short error kind ({@code timeout}, {@code http_503}, ...). */
        String attempt();

        @Override
        void close();
    }

    private LoadRun() {}

    /**
     * Runs the load and returns its result.
     *
     * @param workers  how many workers, 1..{@value #MAX_WORKERS}
     * @param duration how long, up to {@link #MAX_DURATION}
     * @param grace    how long to wait for the last requests after the deadline
     * @param factory  creates worker {@code i}
     * @param progress receives a line every second while running
     */
    public static BenchResult run(
            int workers,
            Duration duration,
            Duration grace,
            Ticker ticker,
            IntFunction<? extends Worker> factory,
            Consumer<String> progress)
            throws InterruptedException {
        if (workers < 1 || workers > MAX_WORKERS) {
            throw new IllegalArgumentException("--connections must be 1.." + MAX_WORKERS + ", got " + workers);
        }
        if (duration == null || duration.toMillis() < 1 || duration.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException("--duration must be between 1 ms and 1 h, got " + duration);
        }
        Objects.requireNonNull(factory, "factory");
        // counted apart, so the progress line never takes a request counted but not yet judged for
        // a success (a total less the failures did: "1 ok" of a run where none succeeded)
        LongAdder succeeded = new LongAdder();
        LongAdder errors = new LongAdder();
        long start = ticker.read();
        long deadline = start + duration.toNanos();
        List<Slot> slots = new ArrayList<>(workers);
        for (int i = 0; i < workers; i++) {
            Slot slot = new Slot(factory.apply(i));
            slots.add(slot);
            slot.thread = Thread.ofVirtual()
                    .name("bench-worker-" + i)
                    .start(() -> slot.loop(ticker, deadline, succeeded, errors));
        }
        try {
            long lastOk = 0;
            long lastAt = start;
            while (true) {
                long now = ticker.read();
                long left = deadline - now;
                if (left <= 0) {
                    break;
                }
                Thread.sleep(Duration.ofNanos(Math.min(left, 1_000_000_000L)));
                long at = ticker.read();
                if (left >= 1_000_000_000L) {
                    long failed = errors.sum();
                    long ok = succeeded.sum();
                    // the rate is of successful requests: failures are counted, never a throughput
                    double rate = (ok - lastOk) * 1e9 / Math.max(1, at - lastAt);
                    progress.accept(String.format(
                            Locale.ROOT,
                            "bench %d/%d s: %d ok (%.0f req/s now), %d failed",
                            (at - start) / 1_000_000_000L,
                            duration.toSeconds(),
                            ok,
                            rate,
                            failed));
                    lastOk = ok;
                    lastAt = at;
                }
            }
        } finally {
            long graceEnd = ticker.read() + grace.toNanos();
            for (Slot s : slots) {
                long wait = Math.max(1, (graceEnd - ticker.read()) / 1_000_000L);
                if (!s.thread.join(Duration.ofMillis(wait))) {
                    s.worker.close();
                    s.thread.interrupt();
                    s.thread.join(Duration.ofSeconds(5));
                }
            }
            for (Slot s : slots) {
                s.worker.close();
            }
        }
        Duration elapsed = Duration.ofNanos(ticker.read() - start);
        LatencyHistogram all = new LatencyHistogram();
        Map<String, Long> byKind = new HashMap<>();
        long ok = 0;
        for (Slot s : slots) {
            all.add(s.latencies);
            ok += s.ok;
            s.errors.forEach((k, v) -> byKind.merge(k, v, Long::sum));
        }
        return new BenchResult(workers, elapsed, ok, byKind, all);
    }

    /** A worker's thread and its own, unshared counters (read after join). */
    private static final class Slot {
        final Worker worker;
        final LatencyHistogram latencies = new LatencyHistogram();
        final Map<String, Long> errors = new HashMap<>();
        long ok;
        Thread thread;

        Slot(Worker worker) {
            this.worker = worker;
        }

        void loop(Ticker ticker, long deadline, LongAdder okCount, LongAdder errorCount) {
            try {
                while (ticker.read() - deadline < 0 && !Thread.currentThread().isInterrupted()) {
                    long t0 = ticker.read();
                    String kind;
                    try {
                        kind = worker.attempt();
                    } catch (RuntimeException e) {
                        kind = "exception_" + e.getClass().getSimpleName();
                    }
                    long dt = ticker.read() - t0;
                    if (kind == null) {
                        ok++;
                        okCount.increment();
                        latencies.recordNanos(dt);
                    } else {
                        errors.merge(kind, 1L, Long::sum);
                        errorCount.increment();
                    }
                }
            } finally {
                worker.close();
            }
        }
    }
}
