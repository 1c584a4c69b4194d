package dev.proxypool.core.runtime;

import dev.proxypool.core.capacity.CapacityCell;
import dev.proxypool.core.health.HealthListener;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Ticker;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runtimes by proxy id, created on first sight and kept while the proxy stays in some snapshot.
 * Used off the hot path (snapshot builds, admin lookups); picks read runtimes through the snapshot.
 */
public final class RuntimeRegistry {

    private final ConcurrentHashMap<String, ProxyRuntime> runtimes = new ConcurrentHashMap<>();
    private final HealthPolicy policy;
    private final Ticker ticker;
    private final int concurrencyShareDivisor;
    private volatile HealthListener listener;
    /** One listener for every proxy's health, forwarding to whatever is set now (metrics bind late). */
    private final HealthListener forward = (from, to) -> {
        HealthListener l = listener;
        if (l != null) {
            l.onTransition(from, to);
        }
    };

    public RuntimeRegistry(HealthPolicy policy, Ticker ticker) {
        this(policy, ticker, 1);
    }

    /**
     * @param workers how many workers share every proxy's concurrency; each gets
     *                {@code max(1, maxConcurrency / workers)} (docs/design.md#capacity, C5)
     */
    public RuntimeRegistry(HealthPolicy policy, Ticker ticker, int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + workers);
        }
        this.policy = policy;
        this.ticker = ticker;
        this.concurrencyShareDivisor = workers;
    }

    /** The runtime of {@code proxy}, created if new; its capacity limit follows the proxy's current max concurrency. */
    public ProxyRuntime runtimeFor(Proxy proxy) {
        int share = Math.max(1, proxy.maxConcurrency() / concurrencyShareDivisor);
        ProxyRuntime rt = runtimes.computeIfAbsent(proxy.id(),
                id -> new ProxyRuntime(id, new CapacityCell(share), new ProxyHealth(policy, ticker.read(), forward)));
        if (rt.capacity().limit() != share) {
            rt.capacity().setLimit(share);
        }
        return rt;
    }

    /** Receives every health transition of every proxy (metrics: transitions by reason); {@code null} to stop. */
    public void healthListener(HealthListener l) {
        listener = l;
    }

    /** The runtime of a known proxy id, or {@code null}. */
    public ProxyRuntime find(String proxyId) {
        return runtimes.get(proxyId);
    }

    /** Forgets runtimes whose proxies left every snapshot. Holders of a reservation keep their own reference. */
    public void retainOnly(Set<String> liveIds) {
        runtimes.keySet().retainAll(liveIds);
    }

    public Collection<ProxyRuntime> all() {
        return runtimes.values();
    }

    public int size() {
        return runtimes.size();
    }

    public Ticker ticker() {
        return ticker;
    }

    public HealthPolicy policy() {
        return policy;
    }
}
