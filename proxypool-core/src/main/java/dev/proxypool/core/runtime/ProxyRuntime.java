package dev.proxypool.core.runtime;

import dev.proxypool.core.capacity.CapacityCell;
import dev.proxypool.core.health.ProxyHealth;

/**
 * The mutable, long-lived side of one proxy on this worker: its capacity ledger and live health.
 * Snapshots are rebuilt and swapped; runtimes are not, so in-flight counts and cooldowns survive
 * every swap, and a request that started on an old snapshot releases into the same counter.
 */
public final class ProxyRuntime {

    private final String proxyId;
    private final CapacityCell capacity;
    private final ProxyHealth health;

    /**
     * Joins the two halves; {@link RuntimeRegistry} is the only production caller.
     *
     * @param proxyId  the proxy's stable id ({@code Proxy.id()}); not null
     * @param capacity this worker's concurrency ledger for the proxy; not null, never replaced
     * @param health   the proxy's live health state machine; not null, never replaced
     */
    public ProxyRuntime(String proxyId, CapacityCell capacity, ProxyHealth health) {
        this.proxyId = proxyId;
        this.capacity = capacity;
        this.health = health;
    }

    /**
     * The proxy this runtime belongs to.
     *
     * @return the proxy's stable id, the key of {@link RuntimeRegistry}
     */
    public String proxyId() {
        return proxyId;
    }

    /**
     * The proxy's concurrency ledger on this worker, shared by every snapshot that lists the proxy.
     *
     * @return the same cell for the runtime's whole life
     */
    public CapacityCell capacity() {
        return capacity;
    }

    /**
     * The proxy's live health: state, cooldown, domain bans.
     *
     * @return the same state machine for the runtime's whole life
     */
    public ProxyHealth health() {
        return health;
    }

    @Override
    public String toString() {
        return "ProxyRuntime[" + proxyId + " " + capacity + " " + health.state() + "]";
    }
}
