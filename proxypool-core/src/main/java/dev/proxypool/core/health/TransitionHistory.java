package dev.proxypool.core.health;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The last {@value #CAPACITY} statuses of one proxy, for the admin API ("each transition stored with
 * its reason and stage", docs/design.md#health-states-and-transitions H1). Slots are indexed by {@link HealthStatus#sequence()}, so threads
 * that publish transitions concurrently still leave the ring ordered and never let an older status
 * overwrite a newer one. Lock-free; written only on transitions (rare).
 */
final class TransitionHistory {

    static final int CAPACITY = 32;

    private final AtomicReferenceArray<HealthStatus> ring = new AtomicReferenceArray<>(CAPACITY);

    void add(HealthStatus status) {
        int slot = (int) Math.floorMod(status.sequence(), (long) CAPACITY);
        for (; ; ) {
            HealthStatus existing = ring.get(slot);
            if (existing != null && existing.sequence() >= status.sequence()) {
                return;
            }
            if (ring.compareAndSet(slot, existing, status)) {
                return;
            }
        }
    }

    /** Oldest first. */
    List<HealthStatus> snapshot() {
        List<HealthStatus> out = new ArrayList<>(CAPACITY);
        for (int i = 0; i < CAPACITY; i++) {
            HealthStatus s = ring.get(i);
            if (s != null) {
                out.add(s);
            }
        }
        out.sort(Comparator.comparingLong(HealthStatus::sequence));
        return List.copyOf(out);
    }
}
