package dev.proxypool.sdk.engine;

import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.dispatch.Dispatcher;
import dev.proxypool.core.dispatch.NoCandidate;
import dev.proxypool.core.dispatch.PickRequest;
import dev.proxypool.core.dispatch.PickResult;
import dev.proxypool.core.dispatch.Picked;
import dev.proxypool.core.dispatch.ReusablePick;
import dev.proxypool.core.dispatch.Strategy;
import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.PageRequest;
import dev.proxypool.core.extract.PoolQuery;
import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.ProxyPage;
import dev.proxypool.core.extract.ProxyState;
import dev.proxypool.core.extract.StoredProxy;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.health.HealthReason;
import dev.proxypool.core.health.HealthStatus;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.routing.NoCandidatePolicy;
import dev.proxypool.core.routing.RequestFacts;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.routing.RoutingTable;
import dev.proxypool.core.runtime.ProxyRuntime;
import dev.proxypool.core.runtime.RuntimeRegistry;
import dev.proxypool.core.sequential.SequentialBoard;
import dev.proxypool.core.sequential.SequentialListener;
import dev.proxypool.core.sequential.SequentialRouting;
import dev.proxypool.core.sequential.SequentialState;
import dev.proxypool.core.snapshot.LiveSnapshot;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.snapshot.SnapshotBuilder;
import dev.proxypool.core.sticky.SessionKey;
import dev.proxypool.core.sticky.StickyDispatch;
import dev.proxypool.core.sticky.StickyPick;
import dev.proxypool.core.sticky.StickyPolicy;
import dev.proxypool.core.sticky.StickyTable;
import dev.proxypool.core.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The core engine assembled for one worker: routing table, live snapshot built from the pool
 * store, dispatcher, sticky tables, sequential board and the long-lived per-proxy runtimes. The
 * gateway and the SDK both lease proxies through it; neither touches the core pieces directly.
 *
 * <p>Hot path ({@link #acquire}): read the live snapshot (one volatile read), pick with the
 * routing's precomputed request into a reusable {@link ReusablePick} (allocation-free), and hand
 * the reserved unit to a {@link dev.proxypool.sdk.Lease}, the one object the pick leaves behind. Nothing remote. The
 * snapshot is rebuilt off the hot path by {@link #refresh()} from the store's available proxies.
 *
 * <p>Thread-safety: {@link #acquire} is lock-free and safe from any number of threads;
 * {@link #refresh()} is serialized by a lock and publishes by one volatile swap.
 */
public final class PoolEngine {

    /** The catch-all routing used when the config names none. */
    public static final String DEFAULT_ROUTING = "default";

    private static final long WAIT_PARK_MIN_NANOS = 1_000_000; // 1 ms
    private static final long WAIT_PARK_MAX_NANOS = 25_000_000; // 25 ms
    private static final long PINNED_PARK_MIN_NANOS = 100_000; // 0.1 ms: the holder is usually finishing
    private static final long PINNED_PARK_MAX_NANOS = 5_000_000; // 5 ms
    /** Session tables with their own idle time per routing (their idle times come from configuration). */
    private static final int MAX_OWN_IDLE_TABLES = 8;

    private final PoolStore store;
    private final Ticker ticker;
    private final InstantSource wall;
    private final RuntimeRegistry registry;
    private final HealthSync healthSync;
    private final SnapshotBuilder builder;
    private final LiveSnapshot live;
    private final Dispatcher dispatcher = new Dispatcher();
    /** The allocation-free pick's results, taken for one pick at a time (see {@link PickScratch}). */
    private final PickScratch scratch = PickScratch.forThisMachine();
    /** Routing table and per-routing runtimes, swapped together by {@link #reconfigure}. */
    private record Routes(RoutingTable table, Map<String, RouteRuntime> byName) {}

    private volatile Routes routesNow;
    private final SequentialBoard board;
    private final ReentrantLock refreshLock = new ReentrantLock();
    private final List<Consumer<PoolSnapshot>> listeners = new CopyOnWriteArrayList<>();
    private final List<SequentialListener> sequentialListeners = new CopyOnWriteArrayList<>();

    public PoolEngine(
            List<RoutingRule> routings,
            HealthPolicy policy,
            PoolStore store,
            Ticker ticker,
            InstantSource wall,
            int workers) {
        this.store = store;
        this.ticker = ticker;
        this.wall = wall;
        this.registry = new RuntimeRegistry(policy, ticker, workers);
        this.healthSync = new HealthSync(store, registry, ticker, wall);
        registry.healthyChanges(healthSync::changed);
        this.builder = new SnapshotBuilder(registry, wall, ticker);
        this.live = new LiveSnapshot(builder.build(List.of()));
        // persistence and cluster sharing hear the board's moves through addSequentialListener
        this.board = new SequentialBoard(wall, this::sequentialChanged);
        this.routesNow = buildRoutes(routings, Map.of());
    }

    private Routes buildRoutes(List<RoutingRule> routings, Map<String, RouteRuntime> previous) {
        List<RoutingRule> rules = routings.isEmpty()
                ? List.of(RoutingRule.builder(DEFAULT_ROUTING).build())
                : routings;
        RoutingTable table = new RoutingTable(rules);
        List<SequentialRouting> sequential = new ArrayList<>();
        Map<String, RouteRuntime> byName = new LinkedHashMap<>();
        for (RoutingRule rule : rules) {
            if (rule.isSequential()) {
                sequential.add(rule.sequentialRouting());
            }
            RouteRuntime old = previous.get(rule.name());
            StickyDispatch sticky = !rule.sticky().enabled()
                    ? null
                    : old != null && old.sticky() != null && old.rule().sticky().equals(rule.sticky())
                            ? old.sticky() // same policy: sessions keep their bindings across a reconfiguration
                            : new StickyDispatch(new StickyTable(rule.sticky()), dispatcher);
            PickRequest base = rule.strategy() == Strategy.CONSISTENT_HASH
                    ? PickRequest.consistentHash(rule.filter(), "-")
                    : PickRequest.of(rule.filter(), rule.strategy());
            // sessions with their own idle time keep their bindings too while the sticky policy stays
            ConcurrentHashMap<Duration, StickyDispatch> ownIdle =
                    old != null && old.rule().sticky().equals(rule.sticky())
                            ? old.ownIdleSessions()
                            : new ConcurrentHashMap<>();
            byName.put(rule.name(), new RouteRuntime(rule, base, new LabelFilterCache(rule.filter()), sticky, ownIdle));
        }
        board.configure(sequential);
        return new Routes(table, Map.copyOf(byName));
    }

    /**
     * Replaces the routings live (an admin change): the new table serves the next request; requests
     * in flight finish on the rules they started with. Sequential state and sticky bindings of
     * routings that keep their name (and sticky policy) carry over.
     *
     * @throws IllegalArgumentException when the rules are invalid (nothing changes then)
     */
    public void reconfigure(List<RoutingRule> routings) {
        refreshLock.lock();
        try {
            routesNow = buildRoutes(routings, routesNow.byName());
        } finally {
            refreshLock.unlock();
        }
    }

    /** The first routing matching the request, or {@code null} when none does (no allocation). */
    public RoutingRule route(RequestFacts facts) {
        return routesNow.table().route(facts);
    }

    public RoutingTable routingTable() {
        return routesNow.table();
    }

    public Optional<RoutingRule> routing(String name) {
        RouteRuntime rt = routesNow.byName().get(name);
        return rt == null ? Optional.empty() : Optional.of(rt.rule());
    }

    /**
     * Leases a proxy for one request on {@code rule}: sticky lookup when the routing enables it and
     * the request carries a session id, else a normal pick; {@code onNoCandidate: wait} waits up to
     * the routing's wait timeout for a proxy to qualify, whether all matching ones are busy or none
     * matches yet (parking, so virtual threads cost nothing). A
     * session whose bound proxy is busy waits for it up to {@code sticky.busyWait} whatever the
     * policy: the session's previous request may still be giving its unit back.
     */
    public AcquireResult acquire(RoutingRule rule, AcquireRequest request) {
        RouteRuntime rt = routesNow.byName().get(rule.name());
        if (rt == null) {
            throw new IllegalArgumentException("unknown routing '" + rule.name() + "'");
        }
        if (request.narrows() && !narrowable(rt.rule(), request)) {
            return new AcquireResult.Rejected(
                    AcquireResult.Rejected.NO_CANDIDATE, NoCandidate.Reason.NO_MATCH.wireName());
        }
        StickyDispatch sticky = stickyFor(rt, request);
        boolean waits = rule.onNoCandidate() == NoCandidatePolicy.WAIT;
        long start = ticker.read();
        long deadline = waits ? start + rule.waitTimeout().toNanos() : start;
        long park = WAIT_PARK_MIN_NANOS;
        long pinnedPark = 0;
        long pinnedParks = 0;
        for (; ; ) {
            long now = ticker.read();
            PoolSnapshot snapshot = live.current();
            PickRequest pick = requestFor(rt, request);
            SessionKey session = null;
            StickyPick stickyPick = null;
            PickResult result;
            if (sticky != null && !request.sessionId().isEmpty()) {
                session = new SessionKey(
                        request.client().isEmpty() ? "anonymous" : request.client(), rule.name(), request.sessionId());
                stickyPick = sticky.pick(session, snapshot, pick, now);
                if (stickyPick instanceof StickyPick.SessionLost lost) {
                    return new AcquireResult.Rejected(
                            AcquireResult.Rejected.SESSION_LOST, lost.reason().toString());
                }
                result = stickyPick.result().orElseThrow();
            } else {
                // the allocation-free pick: into a caller-owned result, whose unit the lease takes over
                ReusablePick out = scratch.take();
                try {
                    if (dispatcher.pick(snapshot, pick, now, out)) {
                        return new AcquireResult.Acquired(new EngineLease(
                                out.proxy(),
                                rule.name(),
                                out.reservation(),
                                out.admission(),
                                out.runtime().health(),
                                ticker,
                                request.excluded().size() + 1,
                                sticky,
                                null,
                                null,
                                snapshot));
                    }
                    result = out.failure();
                } finally {
                    out.reservation().cancel(); // a no-op unless the lease was not made: the unit goes back
                    scratch.give(out);
                }
            }
            switch (result) {
                case Picked p -> {
                    return new AcquireResult.Acquired(new EngineLease(
                            p.proxy(),
                            rule.name(),
                            p.reservation(),
                            p.admission(),
                            p.runtime().health(),
                            ticker,
                            request.excluded().size() + 1,
                            sticky,
                            session,
                            stickyPick,
                            snapshot));
                }
                case NoCandidate nc -> {
                    String detail = nc.reason().wireName();
                    // wait covers "no proxy qualifies" (design G10): busy ones may be released, and when none
                    // matches at all a publish, a recovery or a new upstream may bring one; each turn reads the
                    // live snapshot again
                    if (waits && now < deadline) {
                        LockSupport.parkNanos(Math.min(park, deadline - now));
                        park = Math.min(park * 2, WAIT_PARK_MAX_NANOS);
                        continue;
                    }
                    if (stickyPick instanceof StickyPick.Reused && nc.reason() == NoCandidate.Reason.BUSY) {
                        long busyWait = sticky.table().policy().busyWait().toNanos();
                        long pinnedDeadline = start + busyWait;
                        // bounded in parks too: a ticker that does not move (a test's) cannot hold us
                        if (now < pinnedDeadline && pinnedParks < 16 + busyWait / PINNED_PARK_MAX_NANOS) {
                            pinnedPark = pinnedPark == 0
                                    ? PINNED_PARK_MIN_NANOS
                                    : Math.min(pinnedPark * 2, PINNED_PARK_MAX_NANOS);
                            pinnedParks++;
                            LockSupport.parkNanos(Math.min(pinnedPark, pinnedDeadline - now));
                            continue; // wait for the session's own proxy, never past its limit
                        }
                    }
                    if (rule.onNoCandidate() == NoCandidatePolicy.DIRECT) {
                        return new AcquireResult.Direct(detail);
                    }
                    return new AcquireResult.Rejected(AcquireResult.Rejected.NO_CANDIDATE, detail);
                }
            }
        }
    }

    /** The pick request {@link #acquire} would use for {@code request} on {@code rule} (tests). */
    PickRequest pickRequestFor(RoutingRule rule, AcquireRequest request) {
        return requestFor(routesNow.byName().get(rule.name()), request);
    }

    /**
     * The pick request for one acquire: the routing's base request when nothing varies, else one
     * new request (not a chain of copies). Request labels map to the routing's cached filter for
     * that label set, so the snapshot finds its candidate set by identity.
     */
    private PickRequest requestFor(RouteRuntime rt, AcquireRequest request) {
        PickRequest base = rt.base();
        RoutingRule rule = rt.rule();
        CandidateFilter filter = rt.labelFilters().withLabels(request.labels());
        int upstreamIndex = rule.isSequential() ? board.current(rule.name()).index() : base.upstreamIndex();
        String hashKey = base.hashKey();
        if (rule.strategy() == Strategy.CONSISTENT_HASH) {
            hashKey = !request.hashKey().isEmpty()
                    ? request.hashKey()
                    : !request.targetHost().isEmpty() ? request.targetHost() : "-";
        }
        String domain = request.targetHost();
        List<String> excluded = request.excluded();
        if (request.narrows()) {
            List<String> allowed = filter.upstreams();
            if (!request.upstreams().isEmpty()) {
                String current = rule.isSequential() && !allowed.isEmpty() ? allowed.get(upstreamIndex) : null;
                allowed = narrowUpstreams(allowed, request.upstreams());
                upstreamIndex = current != null && allowed.contains(current) ? allowed.indexOf(current) : 0;
            }
            Set<Protocol> protocols = request.protocols().isEmpty()
                    ? filter.protocols()
                    : narrowProtocols(filter.protocols(), request.protocols());
            filter = filter.withUpstreams(allowed).withProtocols(protocols);
        }
        if (filter == base.filter()
                && upstreamIndex == base.upstreamIndex()
                && hashKey.equals(base.hashKey())
                && domain.equals(base.domain())
                && excluded.isEmpty()) {
            return base;
        }
        return new PickRequest(filter, base.strategy(), hashKey, domain, excluded, upstreamIndex);
    }

    /**
     * The session table of {@code request}: the routing's own (when it enables sessions), or, for a
     * request with its own idle time, a table with the routing's sticky settings (the defaults where
     * the routing has sessions off) and that idle time, created once per distinct idle time (at most
     * {@value #MAX_OWN_IDLE_TABLES} per routing; beyond that such a session does not stick).
     */
    private StickyDispatch stickyFor(RouteRuntime rt, AcquireRequest request) {
        Duration idle = request.sessionIdle();
        if (idle == null || request.sessionId().isEmpty()) {
            return rt.sticky();
        }
        StickyDispatch known = rt.ownIdleSessions().get(idle);
        if (known != null) {
            return known;
        }
        if (rt.ownIdleSessions().size() >= MAX_OWN_IDLE_TABLES) {
            return null;
        }
        StickyPolicy p = rt.rule().sticky().enabled() ? rt.rule().sticky() : StickyPolicy.DEFAULTS;
        StickyPolicy own = new StickyPolicy(
                true,
                p.header(),
                p.lifetime().compareTo(idle) < 0 ? idle : p.lifetime(),
                idle,
                p.onLost(),
                p.maxEntries(),
                p.busyWait(),
                p.switchFailures(),
                p.switchErrorRate(),
                p.switchWindow());
        return rt.ownIdleSessions().computeIfAbsent(idle, i -> new StickyDispatch(new StickyTable(own), dispatcher));
    }

    /** Whether the request's upstreams and protocols leave anything of the routing's. */
    private static boolean narrowable(RoutingRule rule, AcquireRequest request) {
        CandidateFilter f = rule.filter();
        return (request.upstreams().isEmpty()
                        || !narrowUpstreams(f.upstreams(), request.upstreams()).isEmpty())
                && (request.protocols().isEmpty()
                        || !narrowProtocols(f.protocols(), request.protocols()).isEmpty());
    }

    /** The routing's upstreams (empty = any) narrowed to {@code wanted}, in the routing's order. */
    private static List<String> narrowUpstreams(List<String> allowed, List<String> wanted) {
        if (allowed.isEmpty()) {
            return wanted;
        }
        List<String> out = new ArrayList<>(allowed.size());
        for (String u : allowed) {
            if (wanted.contains(u)) {
                out.add(u);
            }
        }
        return out;
    }

    /** The routing's protocols (empty = any) narrowed to {@code wanted}. */
    private static Set<Protocol> narrowProtocols(Set<Protocol> allowed, Set<Protocol> wanted) {
        if (allowed.isEmpty()) {
            return wanted;
        }
        Set<Protocol> out = EnumSet.noneOf(Protocol.class);
        for (Protocol p : wanted) {
            if (allowed.contains(p)) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * Rebuilds the snapshot from the store's available proxies and publishes it; proxies gone from
     * the store drop their runtimes (holders of a lease keep theirs). Off the hot path.
     *
     * @return the new snapshot's version
     */
    public long refresh() {
        refreshLock.lock();
        try {
            List<Proxy> proxies = new ArrayList<>();
            PoolQuery available = new PoolQuery(ExtractionFilter.ANY, Optional.of(ProxyState.AVAILABLE));
            String cursor = PageRequest.FIRST;
            Instant now = wall.instant();
            do {
                ProxyPage page = store.list(available, new PageRequest(cursor, PageRequest.MAX_LIMIT));
                for (StoredProxy sp : page.proxies()) {
                    if (!sp.proxy().isExpired(now)) {
                        proxies.add(sp.proxy());
                    }
                }
                cursor = page.nextCursor();
            } while (cursor != null && !cursor.isEmpty());
            // an operator-disabled proxy keeps its runtime (its health record and backoff history),
            // so an enable continues that record instead of starting a new one
            Set<String> parked = new HashSet<>();
            PoolQuery disabled = new PoolQuery(ExtractionFilter.ANY, Optional.of(ProxyState.DISABLED));
            cursor = PageRequest.FIRST;
            do {
                ProxyPage page = store.list(disabled, new PageRequest(cursor, PageRequest.MAX_LIMIT));
                for (StoredProxy sp : page.proxies()) {
                    parked.add(sp.id());
                }
                cursor = page.nextCursor();
            } while (cursor != null && !cursor.isEmpty());
            return refresh(proxies, parked);
        } finally {
            refreshLock.unlock();
        }
    }

    /**
     * Applies {@code storeChange} (e.g. a pipeline round's upserts and removals) and rebuilds the
     * snapshot as one step for this engine: a concurrent {@link #refresh()} waits until both are
     * done, so no snapshot is built from a half-applied change (docs/design.md#collection-pipeline P11: readers see the old
     * complete pool or the new one, never a mix). Keep the change to store writes only: slow work
     * (fetching, validation) belongs before this call, since every refresh waits for it.
     *
     * @return what {@code storeChange} returned
     */
    public <T> T publish(Supplier<? extends T> storeChange) {
        refreshLock.lock();
        try {
            T result = storeChange.get();
            refresh();
            return result;
        } finally {
            refreshLock.unlock();
        }
    }

    /**
     * Rebuilds the snapshot from {@code proxies} instead of the store and publishes it: a cluster
     * worker builds from the control plane's content ({@code dev.proxypool.sdk.coordination}). Expired
     * proxies are skipped; proxies not listed drop their runtimes. Off the hot path.
     *
     * @return the new snapshot's version (local to this engine)
     */
    public long refresh(Collection<Proxy> proxies) {
        return refresh(proxies, Set.of());
    }

    /** {@link #refresh(Collection)}, keeping the runtimes of {@code parked} ids although they are in no snapshot. */
    private long refresh(Collection<Proxy> proxies, Set<String> parked) {
        refreshLock.lock();
        try {
            Instant now = wall.instant();
            List<Proxy> current = new ArrayList<>(proxies.size());
            Set<String> ids = new HashSet<>(proxies.size() * 2);
            for (Proxy p : proxies) {
                if (!p.isExpired(now)) {
                    current.add(p);
                    ids.add(p.id());
                }
            }
            PoolSnapshot next = builder.build(current);
            live.publish(next);
            ids.addAll(parked);
            registry.retainOnly(ids);
            for (Consumer<PoolSnapshot> l : listeners) {
                try {
                    l.accept(next);
                } catch (RuntimeException e) {
                    System.getLogger(PoolEngine.class.getName())
                            .log(System.Logger.Level.WARNING, "snapshot listener failed: " + e);
                }
            }
            return next.version();
        } finally {
            refreshLock.unlock();
        }
    }

    /**
     * Extracted proxies leave the gateway at once (their runtimes refuse admission) and the
     * snapshot at the next {@link #refresh()}: an extracted proxy is its extractor's alone.
     */
    public void extracted(Collection<Proxy> proxies) {
        long now = ticker.read();
        for (Proxy p : proxies) {
            ProxyRuntime rt = registry.find(p.id());
            if (rt != null) {
                rt.health().disable("extracted", now);
            }
            healthSync.forget(p.id()); // gone from the store: its hold would name nothing
        }
    }

    /**
     * The credentials of {@code refs} were reloaded ({@code credentials.file} changed): every proxy
     * of the current snapshot under one of them that a credential rejection disabled gets one
     * recovery check ({@link dev.proxypool.core.health.ProxyHealth#credentialsReloaded}).
     *
     * @return how many proxies were given a recovery check
     */
    public int credentialsReloaded(Set<String> refs) {
        if (refs.isEmpty()) {
            return 0;
        }
        long now = ticker.read();
        int n = 0;
        for (Proxy p : live.current().proxies()) {
            if (p.credentialRef().isPresent() && refs.contains(p.credentialRef().name())) {
                ProxyRuntime rt = registry.find(p.id());
                if (rt != null && rt.health().credentialsReloaded(now)) {
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * Brings the store's view of health up to date before an extraction: proxies that left
     * HEALTHY on this worker are held out, those back are released, and with {@code maxHealthAge}
     * the checks are at most a second old (docs/design.md#extraction, E11).
     *
     * @param request the extraction about to run
     */
    public void beforeExtraction(ExtractionRequest request) {
        healthSync.sync(!request.maxHealthAge().isZero());
    }

    /**
     * The periodic part of {@link #beforeExtraction}: renews the holds of proxies still not HEALTHY
     * (a hold lapses unless renewed, so a dead worker's holds end) and sends the health checks.
     * Called every few seconds by the owner.
     */
    public void syncHealth() {
        healthSync.renew();
    }

    /** A caller's report that {@code proxyId} is banned by {@code domain} (docs/design.md#domain-bans H13, {@code POST /v1/feedback}). */
    public boolean reportBan(String proxyId, String domain) {
        ProxyRuntime rt = registry.find(proxyId);
        if (rt == null) {
            return false;
        }
        rt.health().banDomain(domain.trim().toLowerCase(Locale.ROOT), ticker.read());
        return true;
    }

    public PoolSnapshot snapshot() {
        return live.current();
    }

    /** The live snapshot's slots by proxy key, built when first asked for that snapshot. */
    private record KeySlots(PoolSnapshot snapshot, Map<ProxyKey, Integer> slots) {}

    private volatile KeySlots keySlots;

    /**
     * Whether this process's health holds the proxy of {@code key} out for a failure: cooling, on
     * its recovery probe, or disabled by a failure (an operator's disable is the operator's call, not
     * a failure). False for a proxy that is not in the live snapshot. A session gateway replaces such
     * a session by a fresh one; the first call after a new snapshot indexes it by key.
     *
     * @param key the proxy's identity
     * @return true while it is held out for a failure
     */
    public boolean failing(ProxyKey key) {
        PoolSnapshot s = live.current();
        KeySlots k = keySlots;
        if (k == null || k.snapshot() != s) {
            Map<ProxyKey, Integer> slots = HashMap.newHashMap(s.size());
            for (int i = 0; i < s.size(); i++) {
                slots.put(s.proxy(i).key(), i);
            }
            k = new KeySlots(s, slots);
            keySlots = k;
        }
        Integer slot = k.slots().get(key);
        if (slot == null) {
            return false;
        }
        HealthStatus status = s.health(slot).status();
        return switch (status.state()) {
            case HEALTHY -> false;
            case COOLING, PROBE_ALLOWED -> true;
            case DISABLED -> !(status.reason() instanceof HealthReason.Operator);
        };
    }

    /**
     * Called with every new snapshot, on the thread that built it, after it is live. Keep it quick;
     * a listener that throws is logged and does not stop the others.
     */
    public void addSnapshotListener(Consumer<PoolSnapshot> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    public void removeSnapshotListener(Consumer<PoolSnapshot> listener) {
        listeners.remove(listener);
    }

    public Optional<ProxyRuntime> runtime(String proxyId) {
        return Optional.ofNullable(registry.find(proxyId));
    }

    public RuntimeRegistry registry() {
        return registry;
    }

    public SequentialBoard sequential() {
        return board;
    }

    /**
     * Hears every change of the sequential board (a move, an admin action, a count), outside its
     * lock and in order; see {@link SequentialListener} for the contract.
     */
    public void addSequentialListener(SequentialListener listener) {
        sequentialListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    public void removeSequentialListener(SequentialListener listener) {
        sequentialListeners.remove(listener);
    }

    private void sequentialChanged(SequentialState before, SequentialState after, boolean transition) {
        for (SequentialListener l : sequentialListeners) {
            try {
                l.onChange(before, after, transition);
            } catch (RuntimeException e) { // one failing listener must not keep the change from the others
                System.getLogger(PoolEngine.class.getName())
                        .log(System.Logger.Level.WARNING, "sequential listener failed for " + after.routing(), e);
            }
        }
    }

    public PoolStore store() {
        return store;
    }

    public Ticker ticker() {
        return ticker;
    }

    public InstantSource wallClock() {
        return wall;
    }

    /** Sum of in-flight reservations over every known proxy (0 when idle: capacity never leaks). */
    public int inFlight() {
        int sum = 0;
        for (ProxyRuntime rt : registry.all()) {
            sum += rt.capacity().inFlight();
        }
        return sum;
    }

    /** Sequential routings as the board knows them. */
    public List<SequentialRouting> sequentialRoutings() {
        return board.routings();
    }

    /** The configured routings in order. */
    public List<RoutingRule> routings() {
        return routesNow.table().rules();
    }
}
