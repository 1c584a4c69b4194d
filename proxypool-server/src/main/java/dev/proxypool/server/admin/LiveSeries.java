package dev.proxypool.server.admin;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.extract.UpstreamCounts;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.task.BackgroundTasks;
import dev.proxypool.sdk.engine.PoolEngine;
import io.helidon.metrics.api.Bucket;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Gauge;
import io.helidon.metrics.api.Meter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The console's live series ({@code GET /v1/admin/series}): a ring buffer of small samples taken
 * every {@code interval} (default {@value #DEFAULT_INTERVAL_SECONDS} s, the last
 * {@value #DEFAULT_CAPACITY} kept: ten minutes), so the charts need no Prometheus text.
 *
 * <p>One sample: gateway requests/s and errors/s (deltas of {@code proxypool.gateway.requests} and
 * {@code proxypool.gateway.errors}), gateway P50/P99 of plain HTTP requests in ms (the
 * {@code proxypool.gateway.latency{kind=http}} histogram over the last
 * {@value #LATENCY_WINDOW_SECONDS} s, interpolated within its buckets as Prometheus'
 * {@code histogram_quantile} does, so the console and a dashboard agree; null when no request
 * ended in that window; tunnels are left out, their latency is their lifetime), extractions/s ({@code proxypool.extraction.proxies}),
 * gateway requests in progress, capacity in use and its limit, healthy/cooling/disabled proxies of
 * the snapshot, snapshot version and age. The meters are read from the registry by name, so the
 * series needs no reference to whoever records them; a meter that does not exist yet reads as zero.
 *
 * <p>{@link #view()} adds the current pool by upstream and health state (one pass over the
 * snapshot, one store call), taken at request time.
 *
 * <p>Thread-safe: samples are written by one scheduler thread and read under the same lock.
 */
public final class LiveSeries implements AutoCloseable {

    static final int DEFAULT_INTERVAL_SECONDS = 2;
    static final int DEFAULT_CAPACITY = 300;
    /** The window of the P50/P99 of a sample: the latency histogram's growth over this long. */
    static final int LATENCY_WINDOW_SECONDS = 60;
    /** Readings kept at most for that window, however often {@link #sample()} is called. */
    private static final int MAX_LATENCY_READINGS = 1024;

    /** One point of the series. */
    record Sample(
            Instant at,
            double requestsPerSecond,
            double errorsPerSecond,
            Double p50Ms,
            Double p99Ms,
            double extractionsPerSecond,
            int gatewayInFlight,
            int capacityInUse,
            long capacityLimit,
            int healthy,
            int cooling,
            int disabled,
            long snapshotVersion,
            double snapshotAgeSeconds) {

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("at", at.toString());
            m.put("requestsPerSecond", round(requestsPerSecond));
            m.put("errorsPerSecond", round(errorsPerSecond));
            m.put("p50Ms", p50Ms == null ? null : round(p50Ms));
            m.put("p99Ms", p99Ms == null ? null : round(p99Ms));
            m.put("extractionsPerSecond", round(extractionsPerSecond));
            m.put("gatewayInFlight", gatewayInFlight);
            m.put("capacityInUse", capacityInUse);
            m.put("capacityLimit", capacityLimit);
            m.put("healthy", healthy);
            m.put("cooling", cooling);
            m.put("disabled", disabled);
            m.put("snapshotVersion", snapshotVersion);
            m.put("snapshotAgeSeconds", round(snapshotAgeSeconds));
            return m;
        }
    }

    private final PoolEngine engine;
    private final MeterRegistry registry;
    private final Duration interval;
    private final Sample[] ring;
    private int next;
    private int size;
    private long lastAtNanos;
    private long lastRequests;
    private long lastErrors;
    private long lastExtracted;
    /** Cumulative HTTP latency histograms of the recent samples (oldest first), the window's start. */
    private final ArrayDeque<LatencyCounts> latencyWindow = new ArrayDeque<>();

    private BackgroundTasks tasks;

    LiveSeries(PoolEngine engine, MeterRegistry registry, Duration interval, int capacity) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.registry = Objects.requireNonNull(registry, "registry");
        if (interval.isNegative() || interval.isZero() || capacity < 1) {
            throw new IllegalArgumentException(
                    "series interval must be positive and capacity at least 1, got " + interval + "/" + capacity);
        }
        this.interval = interval;
        this.ring = new Sample[capacity];
    }

    /** A series over {@code engine} and the meters in {@code registry}; call {@link #start()}. */
    public static LiveSeries create(PoolEngine engine, MeterRegistry registry) {
        return new LiveSeries(engine, registry, Duration.ofSeconds(DEFAULT_INTERVAL_SECONDS), DEFAULT_CAPACITY);
    }

    /**
     * Takes the first sample now, then one every interval (background task {@code live-series},
     * {@link BackgroundTasks}) until {@link #close()}.
     */
    public synchronized LiveSeries start() {
        if (tasks == null) {
            sample();
            tasks = BackgroundTasks.of("console live series");
            tasks.every("live-series", interval, this::sampleQuietly);
        }
        return this;
    }

    private void sampleQuietly() {
        try {
            sample();
        } catch (RuntimeException e) {
            System.getLogger(LiveSeries.class.getName()).log(System.Logger.Level.DEBUG, "series sample failed: " + e);
        }
    }

    /** Takes one sample and appends it (rates are over the time since the previous sample). */
    synchronized Sample sample() {
        long now = engine.ticker().read();
        long requests = counterSum("proxypool.gateway.requests");
        long errors = counterSum("proxypool.gateway.errors");
        long extracted = counterSum("proxypool.extraction.proxies");
        double seconds = size == 0 ? 0 : (now - lastAtNanos) / 1e9;
        double rps = seconds > 0 ? Math.max(0, requests - lastRequests) / seconds : 0;
        double eps = seconds > 0 ? Math.max(0, errors - lastErrors) / seconds : 0;
        double xps = seconds > 0 ? Math.max(0, extracted - lastExtracted) / seconds : 0;
        lastAtNanos = now;
        lastRequests = requests;
        lastErrors = errors;
        lastExtracted = extracted;
        Double[] pct = httpPercentiles(now);
        PoolSnapshot s = engine.snapshot();
        int[] health = new int[HealthState.values().length];
        long limit = 0;
        for (int slot = 0; slot < s.size(); slot++) {
            health[s.runtime(slot).health().state().ordinal()]++;
            limit += s.runtime(slot).capacity().limit();
        }
        Sample sample = new Sample(
                engine.wallClock().instant(),
                rps,
                eps,
                pct[0],
                pct[1],
                xps,
                (int) gaugeValue("proxypool.gateway.inflight"),
                engine.inFlight(),
                limit,
                health[HealthState.HEALTHY.ordinal()],
                health[HealthState.COOLING.ordinal()] + health[HealthState.PROBE_ALLOWED.ordinal()],
                health[HealthState.DISABLED.ordinal()],
                s.version(),
                Math.max(0, now - s.builtAtNanos()) / 1e9);
        ring[next] = sample;
        next = (next + 1) % ring.length;
        size = Math.min(size + 1, ring.length);
        return sample;
    }

    /** The samples, oldest first. */
    synchronized List<Sample> samples() {
        List<Sample> out = new ArrayList<>(size);
        int start = (next - size + ring.length) % ring.length;
        for (int i = 0; i < size; i++) {
            out.add(ring[(start + i) % ring.length]);
        }
        return out;
    }

    /**
     * <pre>
     * {"intervalSeconds": 2, "samples": [{...}, ...],
     *  "pool": {"vendor-a": {"available": 1500, "disabled": 3, "healthy": 1490, "cooling": 7, "probe_allowed": 3, "disabled_health": 0}},
     *  "storeUp": true}
     * </pre>
     */
    Map<String, Object> view() {
        List<Object> samples = new ArrayList<>();
        for (Sample s : samples()) {
            samples.add(s.json());
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("intervalSeconds", interval.toMillis() / 1000.0);
        m.put("samples", samples);
        Map<String, Map<String, Object>> pool = new TreeMap<>();
        PoolSnapshot s = engine.snapshot();
        for (int slot = 0; slot < s.size(); slot++) {
            Map<String, Object> u = pool.computeIfAbsent(s.proxy(slot).upstream(), LiveSeries::emptyCounts);
            String key = s.runtime(slot).health().state().name().toLowerCase(Locale.ROOT);
            u.put(key, (Integer) u.get(key) + 1);
        }
        boolean storeUp = true;
        try {
            for (Map.Entry<String, UpstreamCounts> e :
                    engine.store().countsByUpstream().entrySet()) {
                Map<String, Object> u = pool.computeIfAbsent(e.getKey(), LiveSeries::emptyCounts);
                u.put("stored", e.getValue().available());
                u.put("storedDisabled", e.getValue().disabled());
            }
        } catch (StoreUnavailableException e) {
            storeUp = false;
        }
        m.put("pool", pool);
        m.put("storeUp", storeUp);
        return m;
    }

    private static Map<String, Object> emptyCounts(String upstream) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (HealthState h : HealthState.values()) {
            m.put(h.name().toLowerCase(Locale.ROOT), 0);
        }
        m.put("stored", 0);
        m.put("storedDisabled", 0);
        return m;
    }

    private long counterSum(String name) {
        long sum = 0;
        for (Meter m : registry.meters(m -> m.id().name().equals(name))) {
            if (m instanceof Counter c) {
                sum += c.count();
            }
        }
        return sum;
    }

    private double gaugeValue(String name) {
        double v = 0;
        for (Meter m : registry.meters(m -> m.id().name().equals(name))) {
            if (m instanceof Gauge<?> g) {
                v += g.value().doubleValue();
            }
        }
        return v;
    }

    /** One reading of a cumulative histogram: upper bounds (ms), counts at or below each, total count. */
    private record LatencyCounts(long atNanos, double[] boundsMs, long[] cumulative, long count) {}

    /**
     * P50 and P99 (ms) of the HTTP latency histogram's growth since the oldest reading in the
     * window, {@code {null, null}} when nothing was recorded in it.
     */
    private Double[] httpPercentiles(long now) {
        LatencyCounts current = httpLatencyCounts(now);
        if (current == null) {
            return new Double[] {null, null};
        }
        long windowNanos = TimeUnit.SECONDS.toNanos(LATENCY_WINDOW_SECONDS);
        while (latencyWindow.size() > 1) { // keep one reading at or before the window's start
            var readings = latencyWindow.iterator();
            readings.next();
            if (now - readings.next().atNanos() < windowNanos && latencyWindow.size() <= MAX_LATENCY_READINGS) {
                break;
            }
            latencyWindow.removeFirst();
        }
        LatencyCounts base = latencyWindow.peekFirst();
        latencyWindow.addLast(current);
        if (base == null) {
            // the first reading only starts the window: the histogram may hold requests from before this
            // series (meters live in the JVM's registry, which another server in the same JVM may have fed)
            return new Double[] {null, null};
        }
        if (base.cumulative().length != current.cumulative().length || base.count() > current.count()) {
            base = new LatencyCounts(now, current.boundsMs(), new long[current.cumulative().length], 0);
        }
        long total = current.count() - base.count();
        if (total <= 0) {
            return new Double[] {null, null};
        }
        long[] delta = new long[current.cumulative().length];
        for (int i = 0; i < delta.length; i++) {
            delta[i] = Math.max(0, current.cumulative()[i] - base.cumulative()[i]);
        }
        return new Double[] {
            quantile(0.5, current.boundsMs(), delta, total), quantile(0.99, current.boundsMs(), delta, total)
        };
    }

    private LatencyCounts httpLatencyCounts(long now) {
        for (Meter m : registry.meters(m -> m.id().name().equals("proxypool.gateway.latency")
                && "http".equals(m.id().tagsMap().get("kind")))) {
            if (m instanceof Timer t) {
                var snapshot = t.snapshot();
                List<Bucket> buckets = new ArrayList<>();
                for (Bucket b : snapshot.histogramCounts()) {
                    if (Double.isFinite(b.boundary())) {
                        buckets.add(b);
                    }
                }
                double[] bounds = new double[buckets.size()];
                long[] counts = new long[buckets.size()];
                for (int i = 0; i < bounds.length; i++) {
                    bounds[i] = buckets.get(i).boundary(TimeUnit.MICROSECONDS) / 1000.0;
                    counts[i] = buckets.get(i).count();
                }
                return new LatencyCounts(now, bounds, counts, snapshot.count());
            }
        }
        return null;
    }

    /**
     * The {@code q} quantile of {@code total} observations given cumulative counts per upper
     * bound: linear inside the bucket that holds it (from the previous bound, or 0), the largest
     * finite bound when it lies above every bound (Prometheus' {@code histogram_quantile} rule).
     */
    static double quantile(double q, double[] bounds, long[] cumulative, long total) {
        double rank = q * total;
        double lower = 0;
        long below = 0;
        for (int i = 0; i < bounds.length; i++) {
            if (cumulative[i] >= rank) {
                long inBucket = cumulative[i] - below;
                double fraction = inBucket == 0 ? 1 : (rank - below) / inBucket;
                return lower + (bounds[i] - lower) * fraction;
            }
            lower = bounds[i];
            below = cumulative[i];
        }
        return bounds.length == 0 ? Double.NaN : bounds[bounds.length - 1];
    }

    private static double round(double v) {
        return Math.round(v * 100.0) / 100.0;
    }

    @Override
    public void close() {
        BackgroundTasks t;
        synchronized (this) {
            t = tasks;
        }
        if (t != null) {
            t.close(); // outside the lock: a sample in progress holds it
        }
    }
}
