package dev.proxypool.cli.bench.capacity;

import dev.proxypool.cli.bench.LatencyHistogram;
import dev.proxypool.core.time.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The open-loop driver of {@code proxypool bench capacity}, as wrk2 does it: each step offers a
 * fixed arrival rate for a fixed time, arrival {@code i} scheduled at {@code start + i / rate} and
 * started on its own virtual thread whether or not earlier ones answered; latency counts from the
 * scheduled time. Steps rise by {@code step} until one breaks the {@link Slo}, the rate passes
 * {@code maxRate}, or the step count or total time runs out. Between steps the previous step's
 * arrivals drain (bounded), so each step is judged on its own arrivals.
 */
public final class CapacityRun {

    /** Bounds: a bench is a tool, not a soak test. */
    public static final int MAX_STEPS = 100;

    public static final Duration MAX_TIME = Duration.ofHours(2);

    public static final double MAX_RATE = 100_000;

    /**
     * @param startRate    first step's arrivals per second
     * @param step         added per step
     * @param stepDuration how long each step offers its rate
     * @param maxRate      no step above this
     * @param maxSteps     at most this many steps
     * @param maxTime      no step starts after this much time
     * @param timeout      connect and read timeout of one exchange
     * @param maxInFlight  arrivals running at once, at most; one more fails as {@code client_backlog}
     * @param slo          what a step must meet
     * @param workerPid    the worker's process id for CPU and RSS, or -1
     * @param warmup       a first, unjudged period at the start rate (JIT, TLS session caches, pools), or zero
     */
    public record Settings(
            double startRate,
            double step,
            Duration stepDuration,
            double maxRate,
            int maxSteps,
            Duration maxTime,
            Duration timeout,
            int maxInFlight,
            Slo slo,
            long workerPid,
            Duration warmup) {

        public Settings {
            if (!(startRate > 0 && startRate <= MAX_RATE) || !(maxRate >= startRate && maxRate <= MAX_RATE)) {
                throw new IllegalArgumentException(
                        "--start-rate must be > 0 and --max-rate at least --start-rate, both at most " + MAX_RATE);
            }
            if (!(step >= 0)) {
                throw new IllegalArgumentException("--step must be >= 0");
            }
            if (stepDuration.toMillis() < 100 || stepDuration.compareTo(Duration.ofMinutes(10)) > 0) {
                throw new IllegalArgumentException("--step-duration must be 100ms..10m");
            }
            if (maxSteps < 1 || maxSteps > MAX_STEPS) {
                throw new IllegalArgumentException("--max-steps must be 1.." + MAX_STEPS);
            }
            if (maxTime.isNegative() || maxTime.isZero() || maxTime.compareTo(MAX_TIME) > 0) {
                throw new IllegalArgumentException("--max-time must be positive, at most 2h");
            }
            if (timeout.toMillis() < 1) {
                throw new IllegalArgumentException("--timeout must be positive");
            }
            if (warmup.isNegative() || warmup.compareTo(Duration.ofMinutes(10)) > 0) {
                throw new IllegalArgumentException("--warmup must be 0..10m");
            }
            if (maxInFlight < 1 || maxInFlight > 100_000) {
                throw new IllegalArgumentException("--max-in-flight must be 1..100000");
            }
        }
    }

    private final GatewayTarget target;
    private final TrafficProfile profile;
    private final Settings settings;
    private final Ticker ticker;
    private final Consumer<String> progress;
    private final Gauges gauges = new Gauges();
    private final SplittableRandom random = new SplittableRandom(35);

    public CapacityRun(
            GatewayTarget target, TrafficProfile profile, Settings settings, Ticker ticker, Consumer<String> progress) {
        this.target = target;
        this.profile = profile;
        this.settings = settings;
        this.ticker = ticker;
        this.progress = progress;
    }

    public CapacityResult run() throws InterruptedException {
        List<StepResult> steps = new ArrayList<>();
        long begin = ticker.read();
        ProcessStats baseline = settings.workerPid() < 0 ? null : ProcessStats.read(settings.workerPid());
        String stop = "max_steps";
        long memoryPerTunnel = -1;
        int mostTunnels = 0;
        StepResult first = null;
        try (Exchanges exchanges = new Exchanges(target, profile, settings.timeout(), gauges, ticker)) {
            if (settings.warmup().toMillis() >= 100) {
                progress.accept(String.format(
                        Locale.ROOT,
                        "warm-up: %.0f/s for %.0f s (not judged) ...",
                        settings.startRate(),
                        settings.warmup().toMillis() / 1000.0));
                StepResult w = step(0, settings.startRate(), settings.warmup(), exchanges);
                progress.accept("warm-up done: " + line(w).substring(line(w).indexOf(':') + 2));
            }
            for (int n = 1; n <= settings.maxSteps(); n++) {
                double rate = settings.startRate() + (n - 1) * settings.step();
                if (rate > settings.maxRate() + 1e-9) {
                    stop = "max_rate";
                    break;
                }
                if (ticker.read() - begin + settings.stepDuration().toNanos()
                        > settings.maxTime().toNanos()) {
                    stop = "max_time";
                    break;
                }
                progress.accept(String.format(
                        Locale.ROOT,
                        "step %d: offering %.0f/s for %.0f s ...",
                        n,
                        rate,
                        settings.stepDuration().toMillis() / 1000.0));
                StepResult r = step(n, rate, settings.stepDuration(), exchanges);
                steps.add(r);
                progress.accept(line(r));
                if (first == null) {
                    first = r;
                }
                if (r.workerRssBytes() > 0 && r.peakTunnels() > mostTunnels) {
                    mostTunnels = r.peakTunnels();
                    // the slope from the first judged step (after the warm-up grew the heap): memory that
                    // grows with the tunnels, not the JVM's start-up footprint
                    int more = r.peakTunnels() - first.peakTunnels();
                    memoryPerTunnel = more <= 0
                            ? memoryPerTunnel
                            : Math.max(0, r.workerRssBytes() - first.workerRssBytes()) / more;
                }
                if (!r.meetsSlo()) {
                    stop = "slo_broken";
                    break;
                }
                if (settings.step() == 0) {
                    stop = "max_rate";
                    break;
                }
            }
        }
        double measured = -1;
        for (StepResult r : steps) {
            if (r.meetsSlo()) {
                measured = Math.max(measured, r.offeredRate());
            }
        }
        return new CapacityResult(steps, measured, stop, baseline == null ? -1 : baseline.rssBytes(), memoryPerTunnel);
    }

    private StepResult step(int n, double rate, Duration length, Exchanges exchanges) throws InterruptedException {
        StepStats stats = new StepStats();
        AtomicInteger inFlight = new AtomicInteger();
        gauges.resetPeaks();
        long wallStart = ticker.read();
        ProcessStats before = settings.workerPid() < 0 ? null : ProcessStats.read(settings.workerPid());
        long[] peakRss = {before == null ? -1 : before.rssBytes()};
        long duration = length.toNanos();
        long arrivals = (long) Math.floor(rate * duration / 1e9);
        double gap = 1e9 / rate;
        long nextSample = wallStart;
        for (long i = 0; i < arrivals; i++) {
            long scheduled = wallStart + Math.round(i * gap);
            long now;
            while ((now = ticker.read()) < scheduled) {
                LockSupport.parkNanos(scheduled - now);
            }
            if (now >= nextSample && settings.workerPid() >= 0) {
                // RSS every 250 ms on the scheduling thread: a /proc read is microseconds
                ProcessStats p = ProcessStats.read(settings.workerPid());
                if (p != null) {
                    peakRss[0] = Math.max(peakRss[0], p.rssBytes());
                }
                nextSample = now + 250_000_000L;
            }
            stats.scheduled.incrementAndGet();
            if (inFlight.get() >= settings.maxInFlight()) {
                stats.error("client_backlog");
                continue;
            }
            inFlight.incrementAndGet();
            double u = random.nextDouble();
            int session = random.nextDouble() < profile.stickyShare() ? random.nextInt(1, 1001) : -1;
            Thread.ofVirtual().start(() -> {
                try {
                    if (u < profile.connectShare()) {
                        exchanges.tunnel(scheduled, stats, session, false);
                    } else if (u < profile.connectShare() + profile.httpShare()) {
                        exchanges.http(scheduled, stats, session);
                    } else {
                        exchanges.tunnel(scheduled, stats, session, true);
                    }
                } catch (InterruptedException e) {
                    stats.error("interrupted");
                } catch (RuntimeException e) {
                    stats.error("exception_" + e.getClass().getSimpleName());
                } finally {
                    inFlight.decrementAndGet();
                }
            });
        }
        if (settings.workerPid() >= 0) {
            ProcessStats p = ProcessStats.read(settings.workerPid());
            if (p != null) {
                peakRss[0] = Math.max(peakRss[0], p.rssBytes());
            }
        }
        long arrivalsEnd = Math.max(ticker.read(), wallStart + duration);
        // the step's last arrivals finish: their exchange, a tunnel's hold, at most a timeout or two more
        long drainDeadline = arrivalsEnd
                + 2 * settings.timeout().toNanos()
                + profile.tunnelDuration().toNanos()
                + 2_000_000_000L;
        while (inFlight.get() > 0 && ticker.read() < drainDeadline) {
            LockSupport.parkNanos(10_000_000L);
        }
        long wallEnd = ticker.read();
        ProcessStats after = settings.workerPid() < 0 ? null : ProcessStats.read(settings.workerPid());
        Map<String, Long> errors = new HashMap<>(stats.errors());
        int unfinished = inFlight.get();
        if (unfinished > 0) {
            errors.merge("unfinished", (long) unfinished, Long::sum);
        }
        long ok = stats.ok();
        LatencyHistogram added = stats.added();
        LatencyHistogram e2e = stats.endToEnd();
        double[] addedMs = percentiles(added);
        double[] e2eMs = percentiles(e2e);
        long scheduled = stats.scheduled.get();
        long errorCount = errors.values().stream().mapToLong(Long::longValue).sum();
        double errorRate = scheduled == 0 ? 0 : (double) errorCount / scheduled;
        boolean meets = ok > 0
                && addedMs[2] <= settings.slo().p99().toNanos() / 1e6
                && errorRate <= settings.slo().maxErrorRate();
        double cpu = before == null || after == null
                ? -1
                : (after.cpuNanos() - before.cpuNanos()) * 100.0 / Math.max(1, wallEnd - wallStart);
        LatencyHistogram rtt = stats.rtt();
        return new StepResult(
                n,
                rate,
                ok * 1e9 / duration,
                scheduled,
                ok,
                errors,
                addedMs,
                e2eMs,
                rtt.count() == 0 ? 0 : rtt.percentileMicros(50) / 1000.0,
                gauges.peakConnections.get(),
                gauges.peakTunnels.get(),
                cpu,
                peakRss[0],
                meets);
    }

    private static double[] percentiles(LatencyHistogram h) {
        double[] p = new double[StepResult.PERCENTILES.length];
        for (int i = 0; i < p.length; i++) {
            p[i] = h.count() == 0 ? 0 : h.percentileMicros(StepResult.PERCENTILES[i]) / 1000.0;
        }
        return p;
    }

    /** The progress line of a finished step. */
    static String line(StepResult r) {
        return String.format(
                Locale.ROOT,
                "step %d: %.0f/s offered, %.1f/s achieved, added p99 %.1f ms, e2e p99 %.1f ms,"
                        + " errors %.3f%%, tunnels %d, connections %d%s -> %s",
                r.step(),
                r.offeredRate(),
                r.achievedRate(),
                r.addedMs()[2],
                r.endToEndMs()[2],
                r.errorRate() * 100,
                r.peakTunnels(),
                r.peakConnections(),
                r.workerCpuPercent() < 0
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                ", worker cpu %.0f%% rss %d MiB",
                                r.workerCpuPercent(),
                                r.workerRssBytes() >> 20),
                r.meetsSlo() ? "meets the SLO" : "breaks the SLO");
    }
}
