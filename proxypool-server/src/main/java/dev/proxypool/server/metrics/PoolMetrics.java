package dev.proxypool.server.metrics;

import dev.proxypool.core.health.HealthListener;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.coordination.SubscriberStatus;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.pipeline.CollectionPipeline;
import dev.proxypool.sdk.pipeline.PipelineRound;
import dev.proxypool.sdk.redis.ExtractionCoalescing;
import dev.proxypool.sdk.redis.RedisClusterPoolStore;
import dev.proxypool.sdk.redis.ShardWait;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Tag;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The pool's meters (docs/design.md#observability, O1) in a Helidon {@link MeterRegistry}, all low-cardinality: by
 * upstream, state, outcome, reason, never by proxy id, client or target host.
 * <ul>
 *   <li>{@code proxypool.pool.size{upstream, state}} (gauge): the store's counts, state =
 *       available | disabled;</li>
 *   <li>{@code proxypool.pool.health{upstream, state}} (gauge): the snapshot's proxies by health,
 *       state = healthy | cooling | probe_allowed | disabled;</li>
 *   <li>{@code proxypool.routing.candidates{routing}} (gauge): the snapshot's proxies the routing can
 *       serve (its upstreams, protocols and labels) that are neither cooling nor disabled; 0 = every
 *       request of that routing gets {@code no_candidate} (or goes direct / waits); NaN once the
 *       routing is removed;</li>
 *   <li>{@code proxypool.routing.available{routing}} (gauge): the store's available proxies of the
 *       routing's upstreams (for a {@code sequential} routing, of its fullest upstream), and, where
 *       this process collects, {@code proxypool.routing.low.water.mark{routing}} (gauge): the sum of
 *       those upstreams' {@code fetch.lowWaterMark} (sequential: the largest), 0 when none has
 *       one;</li>
 *   <li>{@code proxypool.pool.capacity.inuse} / {@code proxypool.pool.capacity.limit} (gauges): sum
 *       of in-flight reservations / of per-proxy concurrency limits;</li>
 *   <li>{@code proxypool.snapshot.version}, {@code proxypool.snapshot.age.seconds} (gauges), and on a
 *       worker ({@link #snapshotFrom}) {@code proxypool.snapshot.validity.remaining.seconds} (gauge:
 *       time left before the held snapshot's {@code validUntil}, negative past it);</li>
 *   <li>{@code proxypool.store.up} (gauge): 1 while the store answers the census, else 0 (the store
 *       counts then keep their last values);</li>
 *   <li>{@code proxypool.pipeline.fetches{upstream, outcome}},
 *       {@code proxypool.pipeline.fetch.errors{upstream, kind}}, {@code proxypool.pipeline.rounds{role}}
 *       (counters) and {@code proxypool.pipeline.writer} (gauge, 1 while this process writes);</li>
 *   <li>{@code proxypool.health.transitions{state, reason, stage}} (counter) through
 *       {@link #healthListener()}.</li>
 * </ul>
 * Extraction counts are the distribution service's {@code proxypool.extraction.*} meters.
 *
 * <p>Cost: gauges are computed on scrape from one {@link PoolCensus} (one store call plus one pass
 * over the snapshot), taken at most once per {@code maxAge} (1 s) whatever the number of gauges.
 * Upstream and routing gauges are registered at bind for the configured and stored upstreams and
 * the routings and, for those that appear later, after the next pipeline round or scrape (never
 * inside a scrape).
 *
 * <p>Thread-safe. {@link #close()} removes every meter this binding created.
 */
public final class PoolMetrics implements AutoCloseable {

    static final Duration DEFAULT_MAX_AGE = Duration.ofSeconds(1);

    private final PoolEngine engine;
    private final Optional<CollectionPipeline> pipeline;
    private final Meters meters;
    private final long maxAgeNanos;
    private final Optional<FetchMetrics> fetches;
    private final HealthTransitionMetrics transitions;
    private final CollectionPipeline.Listener roundHook;
    /** Upstreams ({@code u:name}) and routings ({@code r:name}) whose gauges exist. */
    private final Set<String> bound = ConcurrentHashMap.newKeySet();
    /** Upstreams and routings seen by a census, to register outside the scrape. */
    private final Set<String> pending = ConcurrentHashMap.newKeySet();

    private PoolCensus census = PoolCensus.EMPTY;
    private long censusAt;
    private boolean taken;
    private volatile boolean closed;
    /** A worker's snapshot feed, when the served snapshot comes from the control plane (see {@link #snapshotFrom}). */
    private volatile Supplier<SubscriberStatus> feed;

    private PoolMetrics(
            PoolEngine engine, Optional<CollectionPipeline> pipeline, MeterRegistry registry, Duration maxAge) {
        this.engine = engine;
        this.pipeline = pipeline;
        this.meters = new Meters(registry);
        this.maxAgeNanos = maxAge.toNanos();
        this.transitions = new HealthTransitionMetrics(meters);
        List<String> configured =
                pipeline.map(CollectionPipeline::upstreamNames).orElse(List.of());
        this.fetches = pipeline.map(p -> new FetchMetrics(meters, configured));
        meters.gauge(
                "proxypool.pool.capacity.inuse",
                "Capacity in use: in-flight reservations over every proxy",
                List.of(),
                () -> (double) census().inFlight());
        meters.gauge(
                "proxypool.pool.capacity.limit", "Sum of the snapshot's per-proxy concurrency limits", List.of(), () ->
                        (double) census().capacity());
        meters.gauge(
                "proxypool.snapshot.version",
                "Version of the snapshot this worker serves",
                List.of(),
                this::snapshotVersion);
        meters.gauge(
                "proxypool.snapshot.age.seconds",
                "Seconds since the served snapshot was built",
                List.of(),
                this::snapshotAgeSeconds);
        meters.gauge(
                "proxypool.store.up",
                "1 while the pool store answers, 0 when it cannot be reached",
                List.of(),
                () -> census().storeUp() ? 1.0 : 0.0);
        this.roundHook = new CollectionPipeline.Listener() {
            @Override
            public void onRound(PipelineRound round) {
                registerPending();
                register(keys(engine.snapshot().upstreams(), engine.routings()));
            }
        };
        pipeline.ifPresent(p -> {
            meters.gauge(
                    "proxypool.pipeline.writer",
                    "1 while this process writes the pool (holds the pipeline lease)",
                    List.of(),
                    () -> p.isWriter() ? 1.0 : 0.0);
            p.addListener(fetches.orElseThrow());
            p.addListener(roundHook);
        });
        List<String> upstreams = new ArrayList<>(configured);
        upstreams.addAll(census().upstreams().keySet());
        register(keys(upstreams, engine.routings()));
    }

    private static List<String> keys(Collection<String> upstreams, List<RoutingRule> routings) {
        List<String> out = new ArrayList<>();
        upstreams.forEach(u -> out.add(UPSTREAM + u));
        routings.forEach(r -> out.add(ROUTING + r.name()));
        return out;
    }

    private static final String UPSTREAM = "u:";
    private static final String ROUTING = "r:";

    /**
     * Binds the meters of {@code pool} (its engine, store and pipeline) into {@code registry}.
     * Keep the returned object to {@link #close()} it with the pool.
     */
    public static PoolMetrics bind(ProxyPool pool, MeterRegistry registry) {
        return bind(EmbeddedProxyPool.engineOf(pool), EmbeddedProxyPool.pipelineOf(pool), registry, DEFAULT_MAX_AGE);
    }

    /**
     * As {@link #bind(ProxyPool, MeterRegistry)} for a process that does not collect (a worker):
     * no pipeline meters, even though the pool object carries an idle pipeline.
     */
    public static PoolMetrics bindWithoutPipeline(ProxyPool pool, MeterRegistry registry) {
        return bind(EmbeddedProxyPool.engineOf(pool), Optional.empty(), registry, DEFAULT_MAX_AGE);
    }

    /** @param maxAge how long one census serves the gauges (tests pass zero: a fresh count per read) */
    static PoolMetrics bind(
            PoolEngine engine, Optional<CollectionPipeline> pipeline, MeterRegistry registry, Duration maxAge) {
        if (engine == null || pipeline == null || registry == null || maxAge == null || maxAge.isNegative()) {
            throw new IllegalArgumentException(
                    "pool metrics need an engine, a pipeline option, a registry and a max age, got " + engine + "/"
                            + pipeline + "/" + registry + "/" + maxAge);
        }
        return new PoolMetrics(engine, pipeline, registry, maxAge);
    }

    /**
     * A worker serves the control plane's snapshots: from now on {@code proxypool.snapshot.version}
     * and {@code proxypool.snapshot.age.seconds} read {@code feed} (the control plane's version and
     * the age since it was published), the same source as the worker's readiness check, instead of
     * the local engine's rebuild counter.
     */
    public void snapshotFrom(Supplier<SubscriberStatus> feed) {
        this.feed = Objects.requireNonNull(feed, "feed");
        meters.gauge(
                "proxypool.snapshot.validity.remaining.seconds",
                "Seconds before the held control-plane snapshot's validity ends (negative past it, NaN before the first)",
                List.of(),
                () -> {
                    SubscriberStatus st = feed.get();
                    return st.version() == 0
                            ? Double.NaN
                            : st.remainingValidity(engine.wallClock().instant()).toMillis() / 1000.0;
                });
    }

    private double snapshotVersion() {
        var f = feed;
        return f == null ? (double) census().version() : (double) f.get().version();
    }

    private double snapshotAgeSeconds() {
        var f = feed;
        return f == null ? census().ageSeconds() : f.get().age().toMillis() / 1000.0;
    }

    /**
     * The control plane's meters: {@code proxypool.nodes.live} (registered self-hosted nodes),
     * {@code proxypool.config.version} (the configuration version this process applies) and
     * {@code proxypool.config.changes} (admin changes applied here). Returns what to call on each change.
     */
    public Runnable bindControlPlane(Supplier<Double> liveNodes, Supplier<Double> configVersion) {
        meters.gauge("proxypool.nodes.live", "Self-hosted nodes registered and alive", List.of(), liveNodes);
        meters.gauge(
                "proxypool.config.version",
                "Version of the configuration this process applies",
                List.of(),
                configVersion);
        Counter changes =
                meters.counter("proxypool.config.changes", "Configuration changes applied by this process", List.of());
        return changes::increment;
    }

    /**
     * A control plane on the shared store: {@code proxypool.control.plane.active} (1 while this
     * process holds the control-plane lease and publishes snapshots, 0 on standby) and
     * {@code proxypool.control.plane.takeovers} (how many times this process took the lease).
     */
    public void controlPlaneFrom(Supplier<Boolean> active, Supplier<Long> takeovers) {
        meters.gauge(
                "proxypool.control.plane.active",
                "1 while this control plane holds the lease and publishes snapshots, 0 while it stands by",
                List.of(),
                () -> active.get() ? 1.0 : 0.0);
        meters.gauge(
                "proxypool.control.plane.takeovers",
                "Times this control plane took the control-plane lease",
                List.of(),
                () -> (double) takeovers.get());
    }

    /**
     * A Redis Cluster pool store's durability per shard (docs/reliability.md, issue 37):
     * <ul>
     *   <li>{@code proxypool.store.shard.wait.replicas{shard}} (gauge): the replicas an extraction on
     *       the shard waits for now: with the default {@code store.waitReplicas} 1 while its master
     *       has a replica online, 0 after a promotion left it without one;</li>
     *   <li>{@code proxypool.store.shards.degraded} (gauge): shards serving without a replica's
     *       acknowledgement (default {@code waitReplicas}, master without a replica online);</li>
     *   <li>{@code proxypool.store.shards.refusing.writes} (gauge): shards whose master cannot meet
     *       an explicit {@code waitReplicas}: their extractions answer 503;</li>
     *   <li>{@code proxypool.store.undelivered.proxies} (gauge): proxies extracted and never
     *       delivered since start (a lost reply, too few acknowledgements): never handed out twice.</li>
     * </ul>
     */
    public void storeDurabilityFrom(RedisClusterPoolStore store) {
        for (int i = 0; i < store.shards(); i++) {
            int shard = i;
            meters.gauge(
                    "proxypool.store.shard.wait.replicas",
                    "Replicas an extraction on this Redis Cluster shard waits for now (WAIT)",
                    List.of(Tag.create("shard", Integer.toString(shard))),
                    () -> (double) durability(store).get(shard).waitReplicas());
        }
        meters.gauge(
                "proxypool.store.shards.degraded",
                "Redis Cluster shards answering extractions without a replica's acknowledgement (no replica online)",
                List.of(),
                () -> (double) count(store, ShardWait.State.DEGRADED));
        meters.gauge(
                "proxypool.store.shards.refusing.writes",
                "Redis Cluster shards refusing extractions: their master cannot meet store.waitReplicas",
                List.of(),
                () -> (double) count(store, ShardWait.State.REFUSING));
        meters.gauge(
                "proxypool.store.undelivered.proxies",
                "Proxies extracted in Redis Cluster and not delivered since start (never handed out twice)",
                List.of(),
                () -> (double) store.undeliveredProxies());
    }

    /**
     * Binds how a Redis store served its count=1 extractions ({@code store.type: redis} or
     * {@code redis-cluster}; concurrent ones share calls):
     * <ul>
     *   <li>{@code proxypool.store.extraction.calls} (counter): script calls made for count=1
     *       extractions, each serving one or more;</li>
     *   <li>{@code proxypool.store.extraction.requests} (counter): the count=1 extractions they
     *       served: over the calls, the mean batch;</li>
     *   <li>{@code proxypool.store.extraction.queue.timeouts} (counter): count=1 extractions that
     *       waited longer than the connect timeout for a call and failed unsent (503): Redis
     *       answers slower than the requests arrive.</li>
     * </ul>
     */
    public void storeCoalescingFrom(Supplier<ExtractionCoalescing> coalescing) {
        meters.functionalCounter(
                "proxypool.store.extraction.calls",
                "Script calls made for count=1 extractions, each serving one or more",
                List.of(),
                () -> coalescing.get().calls());
        meters.functionalCounter(
                "proxypool.store.extraction.requests",
                "Count=1 extractions served by those calls (over the calls: the mean batch)",
                List.of(),
                () -> coalescing.get().requests());
        meters.functionalCounter(
                "proxypool.store.extraction.queue.timeouts",
                "Count=1 extractions that waited longer than the connect timeout for a call and failed unsent",
                List.of(),
                () -> coalescing.get().queueTimeouts());
    }

    /**
     * Binds {@code proxypool.store.extraction.general.calls} (counter): calls of a Redis store's
     * general extraction script, made for the extractions no index set answers (a label outside
     * {@code store.index.dimensions}, an upstream beside labels without {@code store.index.upstream},
     * {@code maxHealthAge}, a shortfall to prove) and, on Redis Cluster, for each shard's share of an
     * allOrNothing across shards: over the extractions, the share of the slow path.
     */
    public void storeGeneralCallsFrom(Supplier<Long> calls) {
        meters.functionalCounter(
                "proxypool.store.extraction.general.calls",
                "Calls of the general extraction script: extractions no index set answered",
                List.of(),
                calls);
    }

    private static List<ShardWait> durability(RedisClusterPoolStore store) {
        try {
            return store.durability();
        } catch (IllegalStateException e) { // closed: the last scrape of a stopping server
            List<ShardWait> none = new ArrayList<>();
            for (int i = 0; i < store.shards(); i++) {
                none.add(new ShardWait(i, "", -1, 0, ShardWait.State.UNKNOWN, "store closed"));
            }
            return none;
        }
    }

    private static long count(RedisClusterPoolStore store, ShardWait.State state) {
        return durability(store).stream().filter(w -> w.state() == state).count();
    }

    /**
     * Counts health transitions into {@code proxypool.health.transitions}; give it to whatever creates
     * the proxies' {@link dev.proxypool.core.health.ProxyHealth} (see the lead's wiring note).
     */
    public HealthListener healthListener() {
        return transitions;
    }

    /** The census the gauges read, taken again when older than the max age. */
    synchronized PoolCensus census() {
        long now = engine.ticker().read();
        if (!taken || now - censusAt >= maxAgeNanos) {
            census = PoolCensus.take(engine, census);
            censusAt = now;
            taken = true;
            for (String key : keys(census.upstreams().keySet(), census.routings())) {
                if (!bound.contains(key)) {
                    pending.add(key); // registered outside the scrape that is reading us now
                }
            }
            if (!pending.isEmpty() && !closed) {
                Thread.ofVirtual().name("proxypool-metrics-register").start(this::registerPending);
            }
        }
        return census;
    }

    private void registerPending() {
        List<String> keys = new ArrayList<>(pending);
        pending.removeAll(keys);
        register(keys);
    }

    private void register(Collection<String> keys) {
        synchronized (meters) {
            for (String key : keys) {
                if (closed || !bound.add(key)) {
                    continue;
                }
                if (key.startsWith(ROUTING)) {
                    registerRouting(key.substring(ROUTING.length()));
                } else {
                    registerUpstream(key.substring(UPSTREAM.length()));
                }
            }
        }
    }

    private void registerRouting(String name) {
        List<Tag> tag = List.of(Tag.create("routing", name));
        meters.gauge(
                "proxypool.routing.candidates",
                "Snapshot proxies the routing can serve that are neither cooling nor disabled",
                tag,
                () -> {
                    Integer n = census().candidates().get(name);
                    return n == null ? Double.NaN : (double) n;
                });
        meters.gauge(
                "proxypool.routing.available",
                "Available stored proxies of the routing's upstreams (sequential: its fullest upstream)",
                tag,
                () -> perRouting(name, u -> (double) census().of(u).available()));
        pipeline.ifPresent(p -> meters.gauge(
                "proxypool.routing.low.water.mark",
                "Sum of the fetch.lowWaterMark of the routing's upstreams (sequential: the largest); 0 = none",
                tag,
                () -> perRouting(name, u -> (double) p.lowWaterMark(u))));
    }

    /** Sum of {@code value} over the routing's upstreams (max for a sequential one); NaN for a removed routing. */
    private double perRouting(String name, ToDoubleFunction<String> value) {
        PoolCensus c = census();
        RoutingRule r = c.routing(name);
        if (r == null) {
            return Double.NaN;
        }
        double out = 0;
        for (String u : c.upstreamsOf(r)) {
            double v = value.applyAsDouble(u);
            out = r.isSequential() ? Math.max(out, v) : out + v;
        }
        return out;
    }

    private void registerUpstream(String u) {
        for (String state : List.of("available", "disabled")) {
            boolean available = state.equals("available");
            meters.gauge(
                    "proxypool.pool.size",
                    "Stored proxies by upstream and state",
                    List.of(Tag.create("upstream", u), Tag.create("state", state)),
                    () -> {
                        PoolCensus.Counts c = census().of(u);
                        return (double) (available ? c.available() : c.disabled());
                    });
        }
        for (HealthState h : HealthState.values()) {
            meters.gauge(
                    "proxypool.pool.health",
                    "Snapshot proxies by upstream and health state",
                    List.of(
                            Tag.create("upstream", u),
                            Tag.create("state", h.name().toLowerCase(Locale.ROOT))),
                    () -> (double) census().of(u).health(h));
        }
    }

    /** Removes this binding's meters and listeners. */
    @Override
    public void close() {
        pipeline.ifPresent(p -> {
            p.removeListener(fetches.orElseThrow());
            p.removeListener(roundHook);
        });
        synchronized (meters) {
            closed = true;
            meters.removeAll();
        }
    }
}
