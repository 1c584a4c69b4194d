package dev.proxypool.core.extract;

import dev.proxypool.core.model.Protocol;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Index sets of the AVAILABLE slots of {@link MemoryPoolStore}: all of them, and one set per
 * upstream, per protocol and per label value — the in-memory image of the Redis sets. Insertion
 * ordered, so extraction takes proxies in publish order. Not thread-safe: guarded by the store's lock.
 */
final class AvailabilityIndex {

    private final LinkedHashSet<Slot> all = new LinkedHashSet<>();
    private final HashMap<String, LinkedHashSet<Slot>> byUpstream = new HashMap<>();
    private final EnumMap<Protocol, LinkedHashSet<Slot>> byProtocol = new EnumMap<>(Protocol.class);
    /** label key → label value → slots. */
    private final HashMap<String, HashMap<String, LinkedHashSet<Slot>>> byLabel = new HashMap<>();

    void add(Slot s) {
        all.add(s);
        byUpstream
                .computeIfAbsent(s.proxy.upstream(), k -> new LinkedHashSet<>())
                .add(s);
        byProtocol
                .computeIfAbsent(s.proxy.protocol(), k -> new LinkedHashSet<>())
                .add(s);
        for (Map.Entry<String, String> label : s.proxy.labels().values().entrySet()) {
            byLabel.computeIfAbsent(label.getKey(), k -> new HashMap<>())
                    .computeIfAbsent(label.getValue(), v -> new LinkedHashSet<>())
                    .add(s);
        }
    }

    void remove(Slot s) {
        if (!all.remove(s)) {
            return;
        }
        removeFrom(byUpstream, s.proxy.upstream(), s);
        LinkedHashSet<Slot> p = byProtocol.get(s.proxy.protocol());
        p.remove(s);
        if (p.isEmpty()) {
            byProtocol.remove(s.proxy.protocol());
        }
        for (Map.Entry<String, String> label : s.proxy.labels().values().entrySet()) {
            HashMap<String, LinkedHashSet<Slot>> values = byLabel.get(label.getKey());
            removeFrom(values, label.getValue(), s);
            if (values.isEmpty()) {
                byLabel.remove(label.getKey());
            }
        }
    }

    private static void removeFrom(Map<String, LinkedHashSet<Slot>> sets, String key, Slot s) {
        LinkedHashSet<Slot> set = sets.get(key);
        set.remove(s);
        if (set.isEmpty()) {
            sets.remove(key);
        }
    }

    /** All available slots, expired ones included until purged. */
    int total() {
        return all.size();
    }

    /** Upstreams with at least one available slot. */
    Set<String> upstreams() {
        return byUpstream.keySet();
    }

    int upstream(String upstream) {
        LinkedHashSet<Slot> set = byUpstream.get(upstream);
        return set == null ? 0 : set.size();
    }

    /**
     * The smallest index set that every match of {@code filter} belongs to: candidates still need
     * the full per-slot test. Empty when a term has no set at all.
     */
    Set<Slot> narrowest(ExtractionFilter filter) {
        Set<Slot> best = all;
        if (filter.upstream().isPresent()) {
            best = smaller(best, byUpstream.get(filter.upstream().get()));
        }
        if (filter.protocol().isPresent()) {
            best = smaller(best, byProtocol.get(filter.protocol().get()));
        }
        for (Map.Entry<String, String> term : filter.labels().required().entrySet()) {
            HashMap<String, LinkedHashSet<Slot>> values = byLabel.get(term.getKey());
            best = smaller(best, values == null ? null : values.get(term.getValue()));
        }
        return best;
    }

    private static Set<Slot> smaller(Set<Slot> current, Set<Slot> candidate) {
        if (candidate == null) {
            return Set.of();
        }
        return candidate.size() < current.size() ? candidate : current;
    }
}
