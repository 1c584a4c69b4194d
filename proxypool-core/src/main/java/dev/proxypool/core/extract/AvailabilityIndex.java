package dev.proxypool.core.extract;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Index sets of the AVAILABLE slots of {@link MemoryPoolStore}: all of them, and one set per
 * upstream, per protocol, per label value, per combination of two or more values of the declared
 * dimensions ({@link StoreSettings#indexDimensions()}), per combination of one or more of them with
 * the protocol, and (when {@link StoreSettings#indexUpstream()}) per combination of the upstream with
 * one or more of them, with the protocol, or with both — the in-memory image of the Redis sets, so a
 * filter on such a combination walks only its matches. Insertion ordered, so extraction takes proxies
 * in publish order. Not thread-safe: guarded by the store's lock.
 */
final class AvailabilityIndex {

    /** The declared dimensions, sorted (StoreSettings keeps them so). */
    private final List<String> dims;
    /** Whether their combinations with the protocol have sets too ({@link StoreSettings#indexProtocol()}). */
    private final boolean withProtocol;
    /** Whether the upstream's combinations have sets too ({@link StoreSettings#indexUpstream()}). */
    private final boolean withUpstream;

    private final LinkedHashSet<Slot> all = new LinkedHashSet<>();
    private final HashMap<String, LinkedHashSet<Slot>> byUpstream = new HashMap<>();
    private final EnumMap<Protocol, LinkedHashSet<Slot>> byProtocol = new EnumMap<>(Protocol.class);
    /** label key → label value → slots. */
    private final HashMap<String, HashMap<String, LinkedHashSet<Slot>>> byLabel = new HashMap<>();
    /**
     * {@link #composite} key → slots: one set per combination of two or more declared dimensions'
     * values, one per combination of one or more of them with the protocol (its key starts with
     * {@code @} and the protocol), and the upstream's (its key starts with {@code ^}, the upstream
     * length-prefixed, then the protocol's part when it has one).
     */
    private final HashMap<String, LinkedHashSet<Slot>> byComposite = new HashMap<>();

    /**
     * An empty index.
     *
     * @param dims the declared dimensions, sorted and distinct ({@link StoreSettings#indexDimensions()})
     * @param withProtocol whether each combination of one or more of them with the protocol has a set
     *     ({@link StoreSettings#indexProtocol()})
     * @param withUpstream whether each combination of the upstream with one or more of them, with the
     *     protocol (when {@code withProtocol}) or with both has a set ({@link StoreSettings#indexUpstream()})
     */
    AvailabilityIndex(List<String> dims, boolean withProtocol, boolean withUpstream) {
        this.dims = dims;
        this.withProtocol = withProtocol;
        this.withUpstream = withUpstream;
    }

    /** An index of {@code settings}' declared dimensions and combinations. */
    AvailabilityIndex(StoreSettings settings) {
        this(settings.indexDimensions(), settings.indexProtocol(), settings.indexUpstream());
    }

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
        for (String key : composites(s.proxy)) {
            byComposite.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(s);
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
        for (String key : composites(s.proxy)) {
            removeFrom(byComposite, key, s);
        }
    }

    /**
     * The keys of the composite sets of {@code proxy}: one per combination of two or more of the
     * declared dimensions it has values of, one per combination of one or more of them with its
     * protocol, and its upstream's with one or more of them, with the protocol, and with both (those
     * that are indexed).
     */
    private List<String> composites(Proxy proxy) {
        Labels labels = proxy.labels();
        List<String> present = new ArrayList<>(dims.size());
        for (String d : dims) {
            String v = labels.get(d);
            if (v != null) {
                present.add(d);
            }
        }
        int n = present.size();
        List<String> out = new ArrayList<>(4 << n);
        String upstream = withUpstream ? upstreamPrefix(proxy.upstream()) : null;
        if (upstream != null && withProtocol) {
            out.add(upstream + withProtocol(proxy.protocol(), ""));
        }
        for (int mask = 1; mask < 1 << n; mask++) {
            StringBuilder key = new StringBuilder();
            for (int i = 0; i < n; i++) {
                if ((mask & 1 << i) != 0) {
                    composite(key, present.get(i), labels.get(present.get(i)));
                }
            }
            if (Integer.bitCount(mask) >= 2) {
                out.add(key.toString());
            }
            if (withProtocol) {
                out.add(withProtocol(proxy.protocol(), key));
            }
            if (upstream != null) {
                out.add(upstream + key);
                if (withProtocol) {
                    out.add(upstream + withProtocol(proxy.protocol(), key));
                }
            }
        }
        return out;
    }

    /** The key of a label combination's set with a protocol. */
    private static String withProtocol(Protocol protocol, CharSequence labelsKey) {
        return "@" + protocol.name() + labelsKey;
    }

    /** The start of the key of a combination's set with an upstream: {@code ^}, the upstream length-prefixed. */
    private static String upstreamPrefix(String upstream) {
        return "^" + upstream.length() + ":" + upstream;
    }

    /** Appends one label to a composite key, each part length-prefixed so no two combinations share a key. */
    private static void composite(StringBuilder key, String k, String v) {
        key.append(k.length())
                .append(':')
                .append(k)
                .append(v.length())
                .append(':')
                .append(v);
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
        Map<String, String> required = filter.labels().required();
        for (Map.Entry<String, String> term : required.entrySet()) {
            HashMap<String, LinkedHashSet<Slot>> values = byLabel.get(term.getKey());
            best = smaller(best, values == null ? null : values.get(term.getValue()));
        }
        Protocol protocol = withProtocol ? filter.protocol().orElse(null) : null;
        String upstream = withUpstream ? filter.upstream().orElse(null) : null;
        if (required.isEmpty() && (upstream == null || protocol == null)) {
            return best; // no combination set: the single terms' above
        }
        // the combination of the declared dimensions among them, with the protocol and the upstream
        // when there are ones and their combinations are indexed
        StringBuilder key = new StringBuilder();
        int parts = 0;
        for (String d : dims) {
            String v = required.get(d);
            if (v != null) {
                composite(key, d, v);
                parts++;
            }
        }
        String combination = protocol == null ? key.toString() : withProtocol(protocol, key);
        if (upstream != null && (parts >= 1 || protocol != null)) {
            best = smaller(best, byComposite.get(upstreamPrefix(upstream) + combination));
        } else if (parts >= 2 || protocol != null && parts >= 1) {
            best = smaller(best, byComposite.get(combination));
        }
        return best;
    }

    /**
     * Moves {@code passed}, slots of {@code set} (one this index returned from {@link #narrowest}),
     * to its back: the next walk of the set meets them after every slot it has not passed yet.
     */
    static void toBack(Set<Slot> set, List<Slot> passed) {
        for (Slot s : passed) {
            set.remove(s);
            set.add(s);
        }
    }

    private static Set<Slot> smaller(Set<Slot> current, Set<Slot> candidate) {
        if (candidate == null) {
            return Set.of();
        }
        return candidate.size() < current.size() ? candidate : current;
    }
}
