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

    public ProxyRuntime(String proxyId, CapacityCell capacity, ProxyHealth health) {
        this.proxyId = proxyId;
        this.capacity = capacity;
        this.health = health;
    }

    public String proxyId() {
        return proxyId;
    }

    public CapacityCell capacity() {
        return capacity;
    }

    public ProxyHealth health() {
        return health;
    }

    @Override
    public String toString() {
        return "ProxyRuntime[" + proxyId + " " + capacity + " " + health.state() + "]";
    }
}
