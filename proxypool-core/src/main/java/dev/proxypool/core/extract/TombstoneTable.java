package dev.proxypool.core.extract;

import dev.proxypool.core.model.ProxyKey;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.PriorityQueue;

/**
 * Keys of extracted proxies with the instant their tombstone ends. Lookups are O(1) and honour the
 * end instant themselves; {@link #purge} frees ended entries in O(k log n) from a queue ordered by
 * end. Not thread-safe: guarded by the store's lock.
 */
final class TombstoneTable {

    private record Ending(Instant until, ProxyKey key) {}

    private final HashMap<ProxyKey, Instant> until = new HashMap<>();
    private final PriorityQueue<Ending> queue = new PriorityQueue<>(Comparator.comparing(Ending::until));

    void add(ProxyKey key, Instant end) {
        until.put(key, end);
        queue.add(new Ending(end, key));
    }

    boolean contains(ProxyKey key, Instant now) {
        Instant end = until.get(key);
        return end != null && now.isBefore(end);
    }

    int purge(Instant now) {
        int n = 0;
        while (!queue.isEmpty() && !now.isBefore(queue.peek().until())) {
            Ending e = queue.poll();
            if (until.remove(e.key(), e.until())) {
                n++;
            }
        }
        return n;
    }

    int size() {
        return until.size();
    }
}
