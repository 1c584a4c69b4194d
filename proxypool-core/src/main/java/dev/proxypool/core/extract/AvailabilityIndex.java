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
 * in publish order. Each slot keeps the sets it was added to ({@link Slot#filed}), so removing it
 * reads none of its proxy's labels and looks no set up: on the extraction's path the proxy's data is
 * cold, and reading its labels again was a third of an extraction (benchmarks/RESULTS.md). Not
 * thread-safe: guarded by the store's lock.
 */
final class AvailabilityIndex {

    /** The declared dimensions, sorted (StoreSettings keeps them so). */
    private final List<String> dims;
    /** Whether their combinations with the protocol have sets too ({@link StoreSettings#indexProtocol()}). */
    private final boolean withProtocol;
    /** Whether the upstream's combinations have sets too ({@link StoreSettings#indexUpstream()}). */
    private final boolean withUpstream;

    /** One index set and where it is filed, so the last slot leaving it takes it out without a lookup. */
    static final class Filed {
        final LinkedHashSet<Slot> slots = new LinkedHashSet<>();
        private final Map<?, Filed> in;
        private final Object key;
        /** Run after it leaves {@code in} (a label's map of values, emptied, leaves byLabel); or null. */
        private final Runnable then;

        private Filed(Map<?, Filed> in, Object key, Runnable then) {
            this.in = in;
            this.key = key;
            this.then = then;
        }

        /** Takes {@code s} out; the set leaves its map when that was its last slot. */
        void remove(Slot s) {
            slots.remove(s);
            if (slots.isEmpty()) {
                in.remove(key, this);
                if (then != null) {
                    then.run();
                }
            }
        }
    }

    private final LinkedHashSet<Slot> all = new LinkedHashSet<>();
    /** Slots of {@link #all} whose proxy never expires. */
    private int lasting;

    private final HashMap<String, Filed> byUpstream = new HashMap<>();
    private final EnumMap<Protocol, Filed> byProtocol = new EnumMap<>(Protocol.class);
    /** label key → label value → slots. */
    private final HashMap<String, HashMap<String, Filed>> byLabel = new HashMap<>();
    /**
     * {@link #composite} key → slots: one set per combination of two or more declared dimensions'
     * values, one per combination of one or more of them with the protocol (its key starts with
     * {@code @} and the protocol), and the upstream's (its key starts with {@code ^}, the upstream
     * length-prefixed, then the protocol's part when it has one).
     */
    private final HashMap<String, Filed> byComposite = new HashMap<>();

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
        if (!all.add(s)) {
            return;
        }
        if (!s.proxy.expires()) {
            lasting++;
        }
        List<String> composites = composites(s.proxy);
        Map<String, String> labels = s.proxy.labels().values();
        Filed[] filed = new Filed[2 + labels.size() + composites.size()];
        int i = 0;
        filed[i++] = fileIn(byUpstream, s.proxy.upstream(), s);
        filed[i++] = fileIn(byProtocol, s.proxy.protocol(), s);
        for (Map.Entry<String, String> label : labels.entrySet()) {
            String key = label.getKey();
            HashMap<String, Filed> values = byLabel.computeIfAbsent(key, k -> new HashMap<>());
            filed[i++] = fileIn(values, label.getValue(), s, () -> {
                if (values.isEmpty()) {
                    byLabel.remove(key, values);
                }
            });
        }
        for (String key : composites) {
            filed[i++] = fileIn(byComposite, key, s);
        }
        s.filed = filed;
    }

    void remove(Slot s) {
        if (!all.remove(s)) {
            return;
        }
        if (!s.proxy.expires()) {
            lasting--;
        }
        for (Filed f : s.filed) {
            f.remove(s);
        }
        s.filed = null;
    }

    /** Adds {@code s} to the set of {@code key} in {@code sets}, filing a new one when there is none. */
    private static <K> Filed fileIn(Map<K, Filed> sets, K key, Slot s) {
        return fileIn(sets, key, s, null);
    }

    /** The same, {@code then} run after an emptied set leaves {@code sets} (null: nothing). */
    private static <K> Filed fileIn(Map<K, Filed> sets, K key, Slot s, Runnable then) {
        Filed f = sets.get(key);
        if (f == null) {
            f = new Filed(sets, key, then);
            sets.put(key, f);
        }
        f.slots.add(s);
        return f;
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

    /** The index sets filed, every kind together (for tests: an emptied set is dropped). */
    int sets() {
        int n = byUpstream.size() + byProtocol.size() + byComposite.size() + byLabel.size();
        for (Map<String, Filed> values : byLabel.values()) {
            n += values.size();
        }
        return n;
    }

    /** Before a slot's proxy is replaced in place: whether the new one expires ({@link #lasting} counts the others). */
    void expiryChanged(Slot s, boolean expires) {
        if (s.proxy.expires() != expires && all.contains(s)) {
            lasting += expires ? -1 : 1;
        }
    }

    /** The slots whose proxy never expires (a minRemainingTtl none of the others reaches still finds these). */
    int lasting() {
        return lasting;
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
        Filed set = byUpstream.get(upstream);
        return set == null ? 0 : set.slots.size();
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
            HashMap<String, Filed> values = byLabel.get(term.getKey());
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

    private static Set<Slot> smaller(Set<Slot> current, Filed candidate) {
        if (candidate == null) {
            return Set.of();
        }
        return candidate.slots.size() < current.size() ? candidate.slots : current;
    }
}
