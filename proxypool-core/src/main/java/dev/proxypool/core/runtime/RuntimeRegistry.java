package dev.proxypool.core.runtime;

import dev.proxypool.core.capacity.CapacityCell;
import dev.proxypool.core.health.HealthListener;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.health.UpstreamBaseline;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Ticker;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Runtimes by proxy id, created on first sight and kept while the proxy stays in some snapshot.
 * Used off the hot path (snapshot builds, admin lookups); picks read runtimes through the snapshot.
 */
public final class RuntimeRegistry {

    private final ConcurrentHashMap<String, ProxyRuntime> runtimes = new ConcurrentHashMap<>();
    /** One per upstream: what its proxies' dynamic weights are judged against (docs/design.md#slow-start, H12). */
    private final ConcurrentHashMap<String, UpstreamBaseline> baselines = new ConcurrentHashMap<>();

    private final HealthPolicy policy;
    private final Ticker ticker;
    private final int concurrencyShareDivisor;
    private volatile HealthListener listener;
    /** Told the id of a proxy that entered or left HEALTHY (extraction hands out HEALTHY proxies only). */
    private volatile Consumer<String> healthyChanges;
    /** One listener for every proxy's health, forwarding to whatever is set now (metrics bind late). */
    private final HealthListener forward = (from, to) -> {
        HealthListener l = listener;
        if (l != null) {
            l.onTransition(from, to);
        }
    };

    /**
     * A registry for a single worker, which owns every proxy's whole concurrency.
     *
     * @param policy the health thresholds every new {@link ProxyHealth} uses; not null
     * @param ticker the monotonic clock health reads for cooldowns and windows; not null
     */
    public RuntimeRegistry(HealthPolicy policy, Ticker ticker) {
        this(policy, ticker, 1);
    }

    /**
     * A registry for one of {@code workers} workers that split every proxy's concurrency.
     *
     * @param policy  the health thresholds every new {@link ProxyHealth} uses; not null
     * @param ticker  the monotonic clock health reads for cooldowns and windows; not null
     * @param workers how many workers share every proxy's concurrency; each gets
     *                {@code max(1, maxConcurrency / workers)} (docs/design.md#capacity, C5)
     * @throws IllegalArgumentException if {@code workers} is below 1
     */
    public RuntimeRegistry(HealthPolicy policy, Ticker ticker, int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + workers);
        }
        this.policy = policy;
        this.ticker = ticker;
        this.concurrencyShareDivisor = workers;
    }

    /**
     * The runtime of {@code proxy}, created if new; its capacity limit follows the proxy's current
     * max concurrency. Safe to call concurrently: two callers for the same id get the same runtime.
     *
     * @param proxy the proxy as the snapshot being built lists it; not null
     * @return the proxy's runtime, whose capacity limit is now this worker's share of
     *     {@code proxy.maxConcurrency()}
     */
    public ProxyRuntime runtimeFor(Proxy proxy) {
        int share = Math.max(1, proxy.maxConcurrency() / concurrencyShareDivisor);
        ProxyRuntime rt = runtimes.computeIfAbsent(
                proxy.id(),
                id -> new ProxyRuntime(
                        id,
                        new CapacityCell(share),
                        new ProxyHealth(policy, ticker.read(), forwardFor(id), baseline(proxy.upstream()))));
        if (rt.capacity().limit() != share) {
            rt.capacity().setLimit(share);
        }
        return rt;
    }

    /**
     * Receives every health transition of every proxy (metrics: transitions by reason), including
     * proxies whose runtime already exists: the listener can be bound late.
     *
     * @param l the listener, called on the thread that caused the transition; {@code null} to stop
     */
    public void healthListener(HealthListener l) {
        listener = l;
    }

    /** The listener of one proxy: {@link #forward}, and its id when it enters or leaves HEALTHY. */
    private HealthListener forwardFor(String id) {
        return (from, to) -> {
            forward.onTransition(from, to);
            Consumer<String> c = healthyChanges;
            if (c != null && (from.state() == HealthState.HEALTHY) != (to.state() == HealthState.HEALTHY)) {
                c.accept(id);
            }
        };
    }

    /**
     * Receives the id of every proxy that enters or leaves HEALTHY, on the thread of the
     * transition: it must be quick and must not block (the pool engine queues it for the store).
     *
     * @param changes the receiver; {@code null} to stop
     */
    public void healthyChanges(Consumer<String> changes) {
        healthyChanges = changes;
    }

    /**
     * Looks a runtime up without creating one.
     *
     * @param proxyId a proxy's stable id
     * @return its runtime, or {@code null} if the proxy is in no snapshot this registry has seen
     */
    public ProxyRuntime find(String proxyId) {
        return runtimes.get(proxyId);
    }

    /**
     * Forgets runtimes whose proxies left every snapshot. Holders of a reservation keep their own
     * reference, so a request in flight on a removed proxy still releases into its cell.
     *
     * @param liveIds ids of every proxy in some current snapshot; not null
     */
    public void retainOnly(Set<String> liveIds) {
        for (Iterator<Map.Entry<String, ProxyRuntime>> it = runtimes.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, ProxyRuntime> e = it.next();
            if (!liveIds.contains(e.getKey()) && runtimes.remove(e.getKey(), e.getValue())) {
                e.getValue().health().retire(); // its peers stop being compared with it
            }
        }
    }

    /**
     * The baseline the proxies of {@code upstream} are weighed against, created on first use.
     *
     * @param upstream an upstream's name; not null
     * @return the one baseline of that upstream in this registry
     */
    public UpstreamBaseline baseline(String upstream) {
        return baselines.computeIfAbsent(upstream, UpstreamBaseline::new);
    }

    /**
     * Every runtime, for admin listings and metrics.
     *
     * @return a live, weakly consistent view (never throws {@code ConcurrentModificationException})
     */
    public Collection<ProxyRuntime> all() {
        return runtimes.values();
    }

    /**
     * How many proxies have a runtime.
     *
     * @return the count right now
     */
    public int size() {
        return runtimes.size();
    }

    /**
     * The clock given at construction, for callers that must read the same time health does.
     *
     * @return the monotonic ticker
     */
    public Ticker ticker() {
        return ticker;
    }

    /**
     * The health thresholds every runtime of this registry uses.
     *
     * @return the policy given at construction
     */
    public HealthPolicy policy() {
        return policy;
    }
}
