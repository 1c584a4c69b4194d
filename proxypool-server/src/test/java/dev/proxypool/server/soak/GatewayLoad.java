package dev.proxypool.server.soak;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Load through the gateway from a bounded set of platform threads, each with its own keep-alive
 * {@link GatewayClient}.
 * <ul>
 *   <li>{@link #closedLoop}: every thread sends back to back (the peak);</li>
 *   <li>{@link #openLoop}: a scheduler releases requests at a set rate (an interval the caller
 *       may change while it runs: the soak sets it during its warm-up) into a bounded queue; a
 *       request's latency counts from its <em>intended</em> send time, so a stalled gateway shows
 *       up as latency of the requests that waited (no coordinated omission). A request the queue
 *       cannot take (the client pool is saturated) is counted as dropped. No request is
 *       scheduled in the first {@code quietNanos} of each window after the first: the soak takes
 *       its heap-after-full-GC sample there, so the sampling's own GC pause is not charged to the
 *       requests.</li>
 * </ul>
 */
final class GatewayLoad {

    /**
     * One time window of the open-loop run, with its latencies also split into
     * {@value #SLICES} equal slices: the median of the slices' P99s is the window's robust P99,
     * which a few seconds of CPU stolen by other processes on a shared machine do not move, but a
     * slowdown of the server over the run (which shows in every slice) does.
     */
    static final class Window {
        static final int SLICES = 10;
        final LatencyHistogram latency = new LatencyHistogram();
        final LatencyHistogram[] slices = new LatencyHistogram[SLICES];
        final LongAdder ok = new LongAdder();
        final LongAdder failed = new LongAdder();
        final LongAdder dropped = new LongAdder();

        Window() {
            for (int i = 0; i < SLICES; i++) {
                slices[i] = new LatencyHistogram();
            }
        }

        /** Median over the slices of each slice's P99, in microseconds (slices without samples skipped). */
        long robustP99() {
            List<Long> p99s = new ArrayList<>();
            for (LatencyHistogram h : slices) {
                if (h.count() > 0) {
                    p99s.add(h.quantile(0.99));
                }
            }
            if (p99s.isEmpty()) {
                return 0;
            }
            p99s.sort(null);
            int n = p99s.size();
            return n % 2 == 1 ? p99s.get(n / 2) : (p99s.get(n / 2 - 1) + p99s.get(n / 2)) / 2;
        }
    }

    private final Supplier<GatewayClient> clients;

    GatewayLoad(InetSocketAddress gateway, String originAuthority, int bodyBytes, String proxyAuthorization) {
        this.clients = () -> new GatewayClient(gateway, originAuthority, bodyBytes, proxyAuthorization);
    }

    /**
     * Closed loop with {@code threads} threads for {@code warmup + measure}; the successful
     * requests per second during {@code measure}.
     */
    double closedLoop(int threads, long warmupNanos, long measureNanos) throws InterruptedException {
        long start = System.nanoTime();
        long from = start + warmupNanos;
        long end = from + measureNanos;
        LongAdder ok = new LongAdder();
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            ts.add(Thread.ofPlatform().name("soak-peak-" + i).daemon(true).start(() -> {
                try (GatewayClient c = clients.get()) {
                    for (long n = 0; n < 100_000_000L; n++) { // bounded; the deadline ends it
                        long now = System.nanoTime();
                        if (now >= end) {
                            return;
                        }
                        if (c.exchange() == 200 && now >= from) {
                            ok.increment();
                        }
                    }
                }
            }));
        }
        for (Thread t : ts) {
            t.join(TimeUnit.NANOSECONDS.toMillis(warmupNanos + measureNanos) + 60_000);
        }
        return ok.sum() / (measureNanos / 1e9);
    }

    /**
     * Open loop from {@code start} (a {@link System#nanoTime()} value) for {@code windows.length}
     * windows of {@code windowNanos}, one request every {@code intervalNanos} (read before each
     * request, so the caller can change the rate while it runs); returns when every released
     * request finished (bounded by the client timeout).
     */
    void openLoop(
            AtomicLong intervalNanos, long start, long windowNanos, long quietNanos, Window[] windows, int threads)
            throws InterruptedException {
        long end = start + windowNanos * windows.length;
        ArrayBlockingQueue<Long> queue =
                new ArrayBlockingQueue<>((int) Math.max(1_000, 2e9 / Math.max(1, intervalNanos.get())));
        AtomicBoolean released = new AtomicBoolean();
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            ts.add(Thread.ofPlatform().name("soak-load-" + i).daemon(true).start(() -> {
                try (GatewayClient c = clients.get()) {
                    while (true) {
                        Long intended = queue.poll(100, TimeUnit.MILLISECONDS);
                        if (intended == null) {
                            if (released.get()) {
                                return;
                            }
                            continue;
                        }
                        int status = c.exchange();
                        long done = System.nanoTime();
                        long since = intended - start;
                        Window w = windows[(int) Math.min(windows.length - 1, since / windowNanos)];
                        if (status == 200) {
                            w.ok.increment();
                            long micros = (done - intended) / 1_000;
                            w.latency.record(micros);
                            int slice = (int)
                                    Math.min(Window.SLICES - 1, (since % windowNanos) * Window.SLICES / windowNanos);
                            w.slices[slice].record(micros);
                        } else {
                            w.failed.increment();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        try {
            // bounded: intended advances by at least 1 ns per turn, and the loop ends at `end`
            for (long intended = start; intended < end; intended += Math.max(1, intervalNanos.get())) {
                long intoWindow = (intended - start) % windowNanos;
                if (intended - start >= windowNanos && intoWindow < quietNanos) {
                    intended += quietNanos - intoWindow; // the quiet gap at a window boundary
                    if (intended >= end) {
                        break;
                    }
                }
                long wait = intended - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                if (!queue.offer(intended)) {
                    windows[(int) ((intended - start) / windowNanos)].dropped.increment();
                }
            }
        } finally {
            released.set(true);
        }
        for (Thread t : ts) {
            t.join(120_000);
        }
    }
}
