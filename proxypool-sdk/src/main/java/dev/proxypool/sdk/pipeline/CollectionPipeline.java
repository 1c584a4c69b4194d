package dev.proxypool.sdk.pipeline;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.rank.RankPolicy;
import dev.proxypool.core.rank.RankResult;
import dev.proxypool.core.rank.Ranker;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.sequential.FetchBackoff;
import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.core.task.BackgroundTasks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.lock.StageLock;
import dev.proxypool.sdk.provider.FetchReport;
import dev.proxypool.sdk.provider.FetchReports;
import dev.proxypool.sdk.provider.ProviderConfig;
import dev.proxypool.sdk.provider.ProviderEnvironment;
import dev.proxypool.sdk.provider.ProviderRegistry;
import dev.proxypool.sdk.provider.SourceSet;
import dev.proxypool.sdk.provider.UpstreamSource;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The collection pipeline (docs/design.md#collection-pipeline): fetch due upstreams, each on its own
 * thread within its own deadline (a round takes the fetches that ended, so a hanging source delays
 * only itself) → classify each answer (Success / Empty / Error / DuplicateOnly) and feed the
 * sequential board → withdraw proxies two successful answers in a row no longer list
 * ({@link Delisting}, P13) → validate (upstreams with {@code validate: true}) → rank everything
 * valid, earlier picks included, with each proxy's success streak ({@link RankedPool}: ASN and
 * subnet diversity, quality threshold, {@code poolSize} over the whole) → publish
 * the whole round at once through a {@link PoolPublisher} (store writes and the snapshot rebuild
 * as one step, so readers never see half a round). Callers never trigger a synchronous fetch: the
 * admin's "fetch now" only marks an upstream due.
 *
 * <p>A store that lost its content (a Redis restarted empty) is noticed within a round and
 * refilled with the last pool at once ({@link ContentGuard}).
 *
 * <p>Scheduling per upstream: due every {@code fetch.interval}; with a {@code lowWaterMark} only
 * while its available proxies are below the mark (paid providers are not billed while nothing uses
 * them); errors back off exponentially ({@code interval * 2^errors}, at most 10 minutes extra);
 * an upstream that only sequential routings reference is fetched only while one of them has it as
 * the current upstream.
 *
 * <p>One writer when scaled out ({@link #useLease}): a round fetches and writes only while this
 * process holds the {@value StageLock#PIPELINE} lease; it renews the lease at the start of the round
 * and again just before writing, and a process that lost it (or cannot reach the lease store)
 * writes nothing. A round without the lease is a follower round: it only rebuilds the snapshot from
 * the shared store, which is how other workers pick up the writer's publications. {@link #close()}
 * releases a held lease, so a successor need not wait for the ttl.
 *
 * <p>Thread-safety: {@link #runOnce()} is serialized (one round at a time); status reads, listener
 * registration, {@link #requestFetch} and {@link #useLease} are safe from any thread.
 */
public final class CollectionPipeline implements AutoCloseable {

    /**
     * Told about each fetch outcome and each round (metrics, audit). Called on the pipeline's thread;
     * must be quick. An exception thrown here is logged and dropped.
     */
    public interface Listener {
        /** One upstream's fetch was classified (only in rounds this process writes). */
        default void onFetch(String upstream, FetchOutcome outcome) {}

        /** A round ended (writer or follower). */
        default void onRound(PipelineRound round) {}
    }

    private static final Logger LOG = System.getLogger(CollectionPipeline.class.getName());

    private record Leadership(StageLock lease, String holderId, Duration ttl) {}

    private final ProxyPoolConfig config;
    private final PoolEngine engine;
    private final PoolPublisher publisher;
    private final ValidationStage validation;
    private final Ticker ticker;
    private final InstantSource wall;
    private final ProviderEnvironment env;
    /** Upstream name → its source, upstream config and provider config; replaced whole by {@link #reconfigure}. */
    private volatile Map<String, UpstreamSource> sources = Map.of();

    private volatile Map<String, ProxyPoolConfig.Upstream> upstreams = Map.of();
    private volatile Map<String, ProxyPoolConfig.Provider> providerOf = Map.of();
    private final Map<String, Schedule> schedules = new ConcurrentHashMap<>();
    private final Set<String> fetchNow = ConcurrentHashMap.newKeySet();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final RankedPool ranked;
    /** Fetches under way, by upstream: each runs on its own thread within its own timeout. */
    private final Map<String, Thread> inFlight = new ConcurrentHashMap<>();
    /** Fetches that ended and wait for a round to take them. */
    private final LinkedBlockingQueue<Fetched> fetched = new LinkedBlockingQueue<>();
    /** Wakes the background loop early: a fetch ended, or "fetch now". */
    private final Semaphore wake = new Semaphore(0);

    private final Object roundLock = new Object();
    private final AtomicBoolean running = new AtomicBoolean();
    private final BackgroundTasks tasks = BackgroundTasks.of("collection pipeline");
    private volatile Leadership leadership;
    private volatile boolean holding;
    private final ContentGuard contentGuard;
    /** Set once the first round ended: every upstream due at start was fetched (or another process writes). */
    private volatile boolean firstRoundDone;

    private static final class Schedule {
        final Delisting delisting = new Delisting();
        long nextDueNanos;
        final FetchBackoff backoff = new FetchBackoff();
        FetchOutcome lastOutcome;
        Instant lastFetchAt;
        Map<String, Integer> lastDrops = Map.of();
        int published;
    }

    public CollectionPipeline(
            ProxyPoolConfig config,
            ProviderRegistry registry,
            ProviderEnvironment env,
            PoolEngine engine,
            ValidationStage validation) {
        this.config = config;
        this.engine = engine;
        this.publisher = new PoolPublisher(engine, env.clock());
        this.contentGuard = new ContentGuard(engine, publisher);
        this.validation = validation;
        this.ticker = env.ticker();
        this.wall = env.clock();
        this.ranked = new RankedPool(new Ranker(RankPolicy.DEFAULTS
                .withMinScore(config.pipeline().minScore())
                .withSizes(config.pipeline().poolSize(), config.pipeline().reserveSize())
                .withUnknownAsn(
                        config.pipeline().unknownAsnPenalty(), config.pipeline().unknownAsnMaxShare())));
        this.env = env;
        apply(config.providers(), config.upstreams(), registry);
    }

    /**
     * Follows a configuration change (admin API, or another process sharing the configuration):
     * upstreams added are due at once, upstreams whose own or whose provider's settings changed get
     * a new source and are due at once, unchanged ones keep their source and schedule, and removed
     * ones stop being fetched — their proxies leave the pool, when this process is the writer (a
     * process without the pipeline lease leaves that to the one holding it). All or nothing: when a source cannot be built (an unknown provider, a type
     * {@code registry} does not enable, bad settings) nothing changes.
     *
     * @param registry the adapters the new providers may use
     * @return the upstreams removed
     * @throws IllegalArgumentException naming the upstream whose source cannot be built
     */
    public List<String> reconfigure(
            List<ProxyPoolConfig.Provider> providers, List<ProxyPoolConfig.Upstream> next, ProviderRegistry registry) {
        List<String> removed;
        synchronized (roundLock) {
            removed = apply(providers, next, registry);
        }
        if (!removed.isEmpty()) {
            LOG.log(Level.INFO, "upstreams removed from collection: {0}", removed);
            if (isWriter()) {
                withdraw(removed);
            }
        }
        return removed;
    }

    /** Builds every source first, then swaps them in; returns the names that left. Callers hold {@code roundLock} (or construct). */
    private List<String> apply(
            List<ProxyPoolConfig.Provider> providers, List<ProxyPoolConfig.Upstream> next, ProviderRegistry registry) {
        Map<String, ProxyPoolConfig.Provider> byName = new HashMap<>();
        providers.forEach(p -> byName.put(p.name(), p));
        Map<String, UpstreamSource> nextSources = new LinkedHashMap<>();
        Map<String, ProxyPoolConfig.Upstream> nextUpstreams = new LinkedHashMap<>();
        Map<String, ProxyPoolConfig.Provider> nextProviders = new HashMap<>();
        List<String> fresh = new ArrayList<>();
        for (ProxyPoolConfig.Upstream u : next) {
            ProxyPoolConfig.Provider p = byName.get(u.provider());
            if (p == null) {
                throw new IllegalArgumentException("upstreams[" + u.name() + "].provider: names provider '"
                        + u.provider() + "', which is not defined");
            }
            UpstreamSource old = sources.get(u.name());
            if (old != null && u.equals(upstreams.get(u.name())) && p.equals(providerOf.get(u.name()))) {
                nextSources.put(u.name(), old);
            } else {
                var adapter = registry.create(new ProviderConfig(p.name(), p.type(), p.settings(), p.fields()), env);
                nextSources.put(
                        u.name(), new UpstreamSource(u.name(), p.name(), adapter, u.params(), FetchTimeout.of(u)));
                fresh.add(u.name());
            }
            nextUpstreams.put(u.name(), u);
            nextProviders.put(u.name(), p);
        }
        List<String> removed = new ArrayList<>();
        for (String name : sources.keySet()) {
            if (!nextUpstreams.containsKey(name)) {
                removed.add(name);
            }
        }
        long now = ticker.read();
        for (String name : fresh) {
            Schedule s = new Schedule();
            s.nextDueNanos = now; // due at once
            schedules.put(name, s);
        }
        removed.forEach(name -> {
            schedules.remove(name);
            fetchNow.remove(name);
        });
        sources = Collections.unmodifiableMap(nextSources);
        upstreams = Collections.unmodifiableMap(nextUpstreams);
        providerOf = Map.copyOf(nextProviders);
        ranked.retainUpstreams(name -> {
            ProxyPoolConfig.Upstream u = nextUpstreams.get(name);
            return u != null && u.validate();
        });
        return removed;
    }

    /** Removes the proxies of upstreams no longer configured, in one publication. */
    private void withdraw(List<String> removedUpstreams) {
        Set<String> gone = new HashSet<>(removedUpstreams);
        List<String> ids = new ArrayList<>();
        for (Proxy p : engine.snapshot().proxies()) {
            if (gone.contains(p.upstream())) {
                ids.add(p.id());
            }
        }
        if (!ids.isEmpty()) {
            publisher.publish(Publication.builder().remove(ids).build());
        }
    }

    /**
     * Runs rounds only while this process holds {@code lease}'s {@value StageLock#PIPELINE} stage
     * as {@code holderId}. {@code ttl} bounds how long a dead writer blocks a successor; make it a
     * few ticks (e.g. 3× the {@link #start} tick) so one slow round does not lose the lease.
     * Call before {@link #start}; the first round acquires.
     */
    public void useLease(StageLock lease, String holderId, Duration ttl) {
        if (lease == null
                || holderId == null
                || holderId.isBlank()
                || ttl == null
                || ttl.isNegative()
                || ttl.isZero()) {
            throw new IllegalArgumentException("pipeline lease needs a lease, a holder id and a positive ttl, got "
                    + lease + "/'" + holderId + "'/" + ttl);
        }
        this.leadership = new Leadership(lease, holderId, ttl);
    }

    /** Whether this process wrote in its last round (always true without a lease). */
    public boolean isWriter() {
        return leadership == null || holding;
    }

    public void addListener(Listener l) {
        listeners.add(Objects.requireNonNull(l, "listener"));
    }

    public void removeListener(Listener l) {
        listeners.remove(l);
    }

    /** Marks {@code upstream} due now (the admin's asynchronous "fetch now"). */
    public boolean requestFetch(String upstream) {
        if (!sources.containsKey(upstream)) {
            return false;
        }
        fetchNow.add(upstream);
        // a permit, not an interrupt: an interrupt landing in a round would cut its fetches short
        wake.release();
        return true;
    }

    /**
     * One round: when this process may write, fetch every due upstream, validate and rank what
     * came, then publish it all and rebuild the snapshot in one step; otherwise only rebuild the
     * snapshot from the shared store.
     */
    public PipelineRound runOnce() {
        return round(true);
    }

    /**
     * A round; {@code waitForFetches}: wait until every fetch under way ended (each within its own
     * timeout), else take only the ones that already ended (the background loop: a hanging source
     * must not hold back the others' rounds).
     */
    private PipelineRound round(boolean waitForFetches) {
        synchronized (roundLock) {
            Leadership lead = leadership;
            PipelineRound round;
            if (lead != null && !hold(lead)) {
                drain(new ArrayList<>()); // fetched while we held the lease; the new writer fetches its own
                round = new PipelineRound(List.of(), 0, false, engine.refresh());
                firstRoundDone = true;
            } else {
                round = writerRound(lead, waitForFetches);
                if (waitForFetches || inFlight.isEmpty()) {
                    firstRoundDone = true;
                }
            }
            for (Listener l : listeners) {
                try {
                    l.onRound(round);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "pipeline listener failed on a round: " + e, e);
                }
            }
            return round;
        }
    }

    /** A fetch that ended: the schedule it was started for (a reconfigured upstream gets a new one) and its report. */
    private record Fetched(Schedule schedule, FetchReport report, long startedNanos, Thread thread) {}

    private PipelineRound writerRound(Leadership lead, boolean waitForFetches) {
        contentGuard.check();
        startDueFetches(ticker.read());
        List<Fetched> ended = takeFetched(waitForFetches);
        if (ended.isEmpty()) {
            return new PipelineRound(List.of(), 0, true, engine.snapshot().version());
        }
        List<FetchReport> reports = new ArrayList<>(ended.size());
        ended.forEach(f -> reports.add(f.report()));
        Set<ProxyKey> known = knownKeys();
        Map<String, List<Proxy>> pooled = pooledByUpstream();
        Map<FetchReport, FetchOutcome> outcomes = new LinkedHashMap<>();
        Publication.Builder publication = Publication.builder();
        Map<String, Map<String, Integer>> drops = new HashMap<>();
        for (Fetched f : ended) {
            FetchReport report = f.report();
            FetchOutcome outcome = FetchReports.classify(report, known);
            engine.sequential().record(report.upstream(), outcome);
            outcomes.put(report, outcome);
            notifyFetch(report.upstream(), outcome);
            Map<String, Integer> upstreamDrops = new TreeMap<>(report.drops());
            drops.put(report.upstream(), upstreamDrops);
            if (!(outcome instanceof FetchOutcome.Error) && !report.candidates().isEmpty()) {
                // an upstream with a lowWaterMark tops up: its answers are batches, not its whole stock
                // an adapter that answers its whole stock (session_gateway) is taken at its word at once
                UpstreamSource source = sources.get(report.upstream());
                boolean wholeStock = source != null && source.adapter().answersWholeStock();
                List<String> delisted = upstreams.get(report.upstream()).lowWaterMark() > 0 && !wholeStock
                        ? List.of()
                        : f.schedule()
                                .delisting
                                .answer(
                                        pooled.getOrDefault(report.upstream(), List.of()),
                                        report.candidates(),
                                        wholeStock);
                if (!delisted.isEmpty()) {
                    publication.remove(delisted);
                    ranked.forget(delisted);
                    upstreamDrops.merge("delisted", delisted.size(), Integer::sum);
                }
                if (upstreams.get(report.upstream()).validate()) {
                    validate(report.candidates(), upstreamDrops);
                } else {
                    publication.publish(report.upstream(), report.candidates());
                }
            }
        }
        if (ranked.changed()) {
            rank(publication, drops);
        }
        // the slow part (fetch, validation) is over: make sure we still are the writer, then write
        boolean write = lead == null || hold(lead);
        PoolPublisher.Published published = null;
        Publication p = publication.build();
        if (write && !p.isEmpty()) {
            published = publisher.publish(p);
            contentGuard.mark();
        }
        for (Fetched f : ended) {
            String upstream = f.report().upstream();
            update(
                    f.schedule(),
                    f.report(),
                    outcomes.get(f.report()),
                    published == null ? 0 : published.published(upstream),
                    drops.get(upstream),
                    f.startedNanos());
        }
        LOG.log(Level.INFO, CycleLog.line(outcomes, drops, published, write));
        return new PipelineRound(
                reports,
                published == null ? 0 : published.published(),
                write,
                engine.snapshot().version());
    }

    /** Starts a fetch of every due upstream not fetching already, each on its own thread within its own timeout. */
    private void startDueFetches(long now) {
        Set<String> current = engine.sequential().currentUpstreams();
        for (Map.Entry<String, UpstreamSource> e : sources.entrySet()) {
            String name = e.getKey();
            if (inFlight.containsKey(name)) {
                continue; // a "fetch now" stays marked until this one ended
            }
            boolean forced = fetchNow.remove(name);
            if (!forced && !isDue(name, now, current)) {
                continue;
            }
            Schedule schedule = schedules.get(name);
            UpstreamSource source = e.getValue();
            Thread t = Thread.ofVirtual().name("proxypool-fetch-" + name).unstarted(() -> {
                FetchReport report;
                try {
                    report = new SourceSet(List.of(source), ticker)
                            .fetchAll()
                            .reports()
                            .getFirst();
                } catch (RuntimeException failure) {
                    report = FetchReport.failed(
                            source.provider(),
                            name,
                            FetchOutcome.ErrorKind.NETWORK,
                            "fetch failed (" + failure.getClass().getSimpleName() + ")",
                            Duration.ofNanos(Math.max(0, ticker.read() - now)));
                }
                // stays in flight until a round took it: the schedule moves on only then, and a
                // second fetch started before would be a second report in one round
                fetched.add(new Fetched(schedule, report, now, Thread.currentThread()));
                wake.release();
            });
            inFlight.put(name, t);
            t.start();
        }
    }

    /**
     * The fetches that ended, in configured order; with {@code all}, after waiting for every one
     * under way (bounded: each ends within its timeout plus a grace, {@link SourceSet}). Reports of
     * an upstream removed or replaced meanwhile are dropped.
     */
    private List<Fetched> takeFetched(boolean all) {
        List<Fetched> ended = new ArrayList<>();
        if (all) {
            for (Thread t : List.copyOf(inFlight.values())) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        drain(ended);
        List<String> order = List.copyOf(sources.keySet());
        ended.removeIf(f -> schedules.get(f.report().upstream()) != f.schedule());
        ended.sort(Comparator.comparingInt(f -> order.indexOf(f.report().upstream())));
        return ended;
    }

    /** Takes every ended fetch into {@code into}; their upstreams may be fetched again. */
    private void drain(List<Fetched> into) {
        int from = into.size();
        fetched.drainTo(into);
        for (Fetched f : into.subList(from, into.size())) {
            inFlight.remove(f.report().upstream(), f.thread());
        }
    }

    private Map<String, List<Proxy>> pooledByUpstream() {
        Map<String, List<Proxy>> out = new HashMap<>();
        for (Proxy p : engine.snapshot().proxies()) {
            out.computeIfAbsent(p.upstream(), u -> new ArrayList<>()).add(p);
        }
        return out;
    }

    /** Renews (or takes) the pipeline lease; false, and this round writes nothing, when we do not hold it. */
    private boolean hold(Leadership lead) {
        boolean ok;
        try {
            ok = (holding && lead.lease().renew(StageLock.PIPELINE, lead.holderId(), lead.ttl()))
                    || lead.lease().tryAcquire(StageLock.PIPELINE, lead.holderId(), lead.ttl());
        } catch (StoreUnavailableException e) {
            LOG.log(Level.WARNING, "pipeline lease store unavailable ({0}); not writing this round", e.getMessage());
            ok = false;
        }
        if (ok != holding) {
            holding = ok;
            LOG.log(
                    Level.INFO,
                    ok
                            ? "pipeline lease taken by {0}: this process writes the pool"
                            : "pipeline lease no longer held by {0}: this process stops writing",
                    lead.holderId());
        }
        return ok;
    }

    private void notifyFetch(String upstream, FetchOutcome outcome) {
        for (Listener l : listeners) {
            try {
                l.onFetch(upstream, outcome);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "pipeline listener failed on a fetch: " + e, e);
            }
        }
    }

    private boolean isDue(String upstream, long now, Set<String> sequentialCurrent) {
        Schedule s = schedules.get(upstream);
        if (now - s.nextDueNanos < 0) {
            return false;
        }
        if (!servedByAnyRouting(upstream, sequentialCurrent)) {
            return false;
        }
        int mark = upstreams.get(upstream).lowWaterMark();
        return mark <= 0 || engine.store().available(upstream) < mark;
    }

    /** True unless every routing naming the upstream is sequential and none has it as the current one. */
    private boolean servedByAnyRouting(String upstream, Set<String> sequentialCurrent) {
        boolean onlySequential = true;
        boolean referenced = false;
        for (RoutingRule r : engine.routings()) {
            if (r.upstreams().isEmpty() || r.upstreams().contains(upstream)) {
                referenced = true;
                if (!r.isSequential()) {
                    onlySequential = false;
                }
            }
        }
        return !referenced || !onlySequential || sequentialCurrent.contains(upstream);
    }

    /**
     * Validates one upstream's candidates into the ranking memory. Counts the ones left out into
     * {@code drops}: {@code validation_<reason>} (or {@code validation_failed} without a reason).
     * A cycle in which the stage could not judge (no echo endpoint, no usable ASN database, cut
     * short) leaves the memory as it was: the previous pool stays (P9).
     */
    private void validate(List<Proxy> candidates, Map<String, Integer> drops) {
        Map<String, Integer> rejections = new ConcurrentHashMap<>();
        List<ValidationStage.Validated> passed =
                validation.validate(candidates, reason -> rejections.merge("validation_" + reason, 1, Integer::sum));
        int told = 0;
        for (Map.Entry<String, Integer> r : rejections.entrySet()) {
            drops.merge(r.getKey(), r.getValue(), Integer::sum);
            told += r.getValue();
        }
        int untold = candidates.size() - passed.size() - told;
        if (untold > 0) {
            drops.merge("validation_failed", untold, Integer::sum);
        }
        // cut short (the stage keeps the interrupt) or unable to validate at all: nothing was judged
        boolean judged = !Thread.currentThread().isInterrupted()
                && STAGE_FAILURES.stream().noneMatch(rejections::containsKey);
        if (judged) {
            ranked.validated(candidates, passed);
        }
    }

    /** Rejection codes that mean the stage could not validate at all, not that the proxy failed. */
    private static final Set<String> STAGE_FAILURES =
            Set.of("validation_echo_unavailable", "validation_asn_database_unusable");

    /**
     * Ranks everything valid (P10): the best {@code poolSize} of it is the active pool; earlier
     * picks outside it leave. Counts {@code rank_<reason>} drops for the upstreams fetched now.
     */
    private void rank(Publication.Builder publication, Map<String, Map<String, Integer>> drops) {
        Map<String, Proxy> pool = new HashMap<>();
        for (Proxy p : engine.snapshot().proxies()) {
            pool.put(p.id(), p);
        }
        RankedPool.Decision decision = ranked.rank(pool.keySet(), wall.instant());
        Map<String, String> upstreamById = ranked.upstreams();
        for (RankResult.Dropped d : decision.result().dropped()) {
            Map<String, Integer> upstreamDrops =
                    drops.get(upstreamById.get(d.candidate().proxyId()));
            if (upstreamDrops != null) {
                upstreamDrops.merge("rank_" + d.reason().label(), 1, Integer::sum);
            }
        }
        decision.active().forEach(publication::publish);
        List<String> withdrawn = new ArrayList<>();
        for (String id : decision.withdrawn()) {
            ProxyPoolConfig.Upstream u = upstreams.get(pool.get(id).upstream());
            if (u != null && u.validate()) { // an upstream no longer validated publishes all it lists
                withdrawn.add(id);
            }
        }
        publication.remove(withdrawn);
    }

    private void update(
            Schedule s, FetchReport report, FetchOutcome outcome, int published, Map<String, Integer> drops, long now) {
        ProxyPoolConfig.Upstream u = upstreams.get(report.upstream());
        s.lastOutcome = outcome;
        s.lastFetchAt = wall.instant();
        s.lastDrops = Collections.unmodifiableMap(new TreeMap<>(drops == null ? report.drops() : drops));
        s.published = published;
        long nextIn = s.backoff.record(outcome, u.fetchInterval());
        if (outcome instanceof FetchOutcome.Error err) {
            LOG.log(Level.WARNING, "upstream {0}: fetch failed ({1}: {2}); next try in {3}s", new Object[] {
                report.upstream(), err.kind().label(), err.detail(), s.backoff.backoffNanos() / 1_000_000_000L
            });
        }
        s.nextDueNanos = now + nextIn;
    }

    private Set<ProxyKey> knownKeys() {
        Set<ProxyKey> keys = new HashSet<>();
        for (Proxy p : engine.snapshot().proxies()) {
            keys.add(p.key());
        }
        return keys;
    }

    /** Status of every upstream, in config order. */
    public List<UpstreamStatus> status() {
        List<UpstreamStatus> out = new ArrayList<>();
        for (String name : sources.keySet()) {
            synchronized (roundLock) {
                Schedule s = schedules.get(name);
                if (s == null) {
                    continue; // removed meanwhile
                }
                out.add(new UpstreamStatus(
                        name,
                        Optional.ofNullable(s.lastOutcome),
                        Optional.ofNullable(s.lastFetchAt),
                        s.backoff.consecutiveErrors(),
                        s.backoff.consecutiveEmpty(),
                        s.backoff.backoffNanos() / 1_000_000_000L,
                        s.lastDrops,
                        s.published));
            }
        }
        return out;
    }

    /**
     * Whether the first round has ended: every upstream due at start was fetched once, whatever the
     * result (true at once after the first round when none is configured; a process that does not
     * hold the pipeline lease counts its first follower round). Stays true afterwards. Readiness
     * follows it.
     */
    public boolean firstRoundDone() {
        return firstRoundDone;
    }

    /** The engine this pipeline publishes through. */
    public PoolEngine engine() {
        return engine;
    }

    /** The upstream's {@code fetch.lowWaterMark} as configured now (0: none, or not configured here). */
    public int lowWaterMark(String upstream) {
        ProxyPoolConfig.Upstream u = upstreams.get(upstream);
        return u == null ? 0 : u.lowWaterMark();
    }

    /** The configured upstream names, in config order. */
    public List<String> upstreamNames() {
        return List.copyOf(sources.keySet());
    }

    /**
     * Runs rounds (background task {@code proxypool-pipeline}, {@link BackgroundTasks}) until
     * {@link #close()}: a round, then a pause of
     * {@code tick}, cut short when a fetch ends or by {@link #requestFetch}. Each round takes only
     * the fetches that ended: an upstream whose source hangs is waited for by nobody but its own
     * fetch, which its timeout ends, so the other upstreams keep their intervals.
     */
    public void start(Duration tick) {
        if (!running.compareAndSet(false, true)) {
            return;
        }
        tasks.loop("proxypool-pipeline", () -> {
            while (running.get()) {
                try {
                    round(false);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "pipeline round failed: " + e, e);
                }
                try {
                    if (wake.tryAcquire(tick.toNanos(), TimeUnit.NANOSECONDS)) {
                        wake.drainPermits(); // one round takes every fetch that ended meanwhile
                    }
                } catch (InterruptedException e) {
                    if (!running.get()) {
                        return;
                    }
                }
            }
        });
    }

    /** Stops the rounds and releases the pipeline lease if the store says this process holds it. */
    @Override
    public void close() {
        running.set(false);
        inFlight.values().forEach(Thread::interrupt); // a hanging source must not hold up the shutdown
        tasks.close(); // interrupts the round loop and joins it
        Leadership lead = leadership;
        if (lead != null) {
            synchronized (roundLock) {
                // released whatever this process last believed: a renew cut short (close's interrupt
                // landing in a Redis call, a store hiccup) clears `holding` while the store may still
                // name us; the release is a compare-and-delete on our holder id, so it never frees
                // another holder's lease
                holding = false;
                try {
                    lead.lease().release(StageLock.PIPELINE, lead.holderId());
                } catch (RuntimeException e) {
                    LOG.log(
                            Level.WARNING,
                            "pipeline lease not released ({0}); it lapses after its ttl",
                            e.getMessage());
                }
            }
        }
    }

    /** The whole-fetch deadline of an upstream: its interval, between 5 s and 60 s. */
    static final class FetchTimeout {
        private FetchTimeout() {}

        static Duration of(ProxyPoolConfig.Upstream u) {
            Duration d = u.fetchInterval();
            if (d.compareTo(Duration.ofSeconds(5)) < 0) {
                return Duration.ofSeconds(5);
            }
            return d.compareTo(Duration.ofSeconds(60)) > 0 ? Duration.ofSeconds(60) : d;
        }
    }
}
