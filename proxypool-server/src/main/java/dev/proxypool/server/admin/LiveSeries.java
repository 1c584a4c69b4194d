package dev.proxypool.server.admin;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.extract.UpstreamCounts;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.sdk.engine.PoolEngine;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Gauge;
import io.helidon.metrics.api.Meter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Timer;
import io.helidon.metrics.api.ValueAtPercentile;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The console's live series ({@code GET /v1/admin/series}): a ring buffer of small samples taken
 * every {@code interval} (default {@value #DEFAULT_INTERVAL_SECONDS} s, the last
 * {@value #DEFAULT_CAPACITY} kept: ten minutes), so the charts need no Prometheus text.
 *
 * <p>One sample: gateway requests/s and errors/s (deltas of {@code proxypool.gateway.requests} and
 * {@code proxypool.gateway.errors}), gateway P50/P99 of plain HTTP requests in ms (the
 * {@code proxypool.gateway.latency{kind=http}} timer's recent-window percentiles; tunnels are left
 * out, their latency is their lifetime), extractions/s ({@code proxypool.extraction.proxies}),
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
    private ScheduledExecutorService scheduler;

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

    /** Takes the first sample now, then one every interval on a virtual thread until {@link #close()}. */
    public synchronized LiveSeries start() {
        if (scheduler == null) {
            sample();
            scheduler = Executors.newSingleThreadScheduledExecutor(
                    Thread.ofVirtual().name("live-series").factory());
            long ms = interval.toMillis();
            scheduler.scheduleAtFixedRate(this::sampleQuietly, ms, ms, TimeUnit.MILLISECONDS);
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
        Double[] pct = httpPercentiles();
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

    private Double[] httpPercentiles() {
        Double[] out = {null, null};
        for (Meter m : registry.meters(m -> m.id().name().equals("proxypool.gateway.latency")
                && "http".equals(m.id().tagsMap().get("kind")))) {
            if (m instanceof Timer t && t.count() > 0) {
                for (ValueAtPercentile v : t.snapshot().percentileValues()) {
                    if (Math.abs(v.percentile() - 0.5) < 1e-9) {
                        out[0] = v.value(TimeUnit.MICROSECONDS) / 1000.0;
                    } else if (Math.abs(v.percentile() - 0.99) < 1e-9) {
                        out[1] = v.value(TimeUnit.MICROSECONDS) / 1000.0;
                    }
                }
            }
        }
        return out;
    }

    private static double round(double v) {
        return Math.round(v * 100.0) / 100.0;
    }

    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
    }
}
