package dev.proxypool.sdk.coordination;

import dev.proxypool.core.model.Proxy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Pool content by proxy id, in publish order, with its running {@link ContentDigest}: the
 * publisher's last published content and the subscriber's last complete one.
 *
 * <p>{@link #diff} is O(n); {@link #apply} first computes the size and digest the delta leads to in
 * O(changes), compares them with the frame's header, and only then mutates — so a delta that does
 * not fit (a lost or reordered delta, a bug) leaves the content untouched. Not thread-safe: owned
 * by one publisher or subscriber thread.
 */
final class PoolContent {

    private final LinkedHashMap<String, Slot> byId;
    private long digest;

    private record Slot(Proxy proxy, long hash) {}

    private PoolContent(LinkedHashMap<String, Slot> byId, long digest) {
        this.byId = byId;
        this.digest = digest;
    }

    static PoolContent empty() {
        return new PoolContent(new LinkedHashMap<>(), 0);
    }

    /**
     * @throws IllegalArgumentException when two proxies share an id, or one is null
     */
    static PoolContent of(Collection<Proxy> proxies) {
        return of(proxies, null);
    }

    /**
     * Like {@link #of(Collection)}, reusing the hashes of {@code previous} for the very same proxy
     * instances (owners usually pass mostly unchanged objects).
     */
    static PoolContent of(Collection<Proxy> proxies, PoolContent previous) {
        LinkedHashMap<String, Slot> map = LinkedHashMap.newLinkedHashMap(proxies.size());
        long sum = 0;
        for (Proxy p : proxies) {
            Objects.requireNonNull(p, "proxies must not contain null");
            Slot known = previous == null ? null : previous.byId.get(p.id());
            long h = known != null && known.proxy == p ? known.hash : ContentDigest.of(p);
            if (map.putIfAbsent(p.id(), new Slot(p, h)) != null) {
                throw new IllegalArgumentException("pool content lists proxy id " + p.id() + " twice");
            }
            sum += h;
        }
        return new PoolContent(map, sum);
    }

    int size() {
        return byId.size();
    }

    long digest() {
        return digest;
    }

    /** The proxies in order (a fresh list). */
    List<Proxy> proxies() {
        List<Proxy> out = new ArrayList<>(byId.size());
        for (Slot s : byId.values()) {
            out.add(s.proxy);
        }
        return out;
    }

    /** What changed from this content to {@code next}: added or changed records, then removed ids. */
    Change diff(PoolContent next) {
        List<Proxy> upserts = new ArrayList<>();
        for (Map.Entry<String, Slot> e : next.byId.entrySet()) {
            Slot mine = byId.get(e.getKey());
            Slot theirs = e.getValue();
            if (mine == null
                    || mine.proxy != theirs.proxy && (mine.hash != theirs.hash || !mine.proxy.equals(theirs.proxy))) {
                upserts.add(theirs.proxy);
            }
        }
        List<String> removed = new ArrayList<>();
        for (String id : byId.keySet()) {
            if (!next.byId.containsKey(id)) {
                removed.add(id);
            }
        }
        return new Change(upserts, removed);
    }

    /** Added or changed proxies and removed ids. */
    record Change(List<Proxy> upserts, List<String> removed) {
        boolean isEmpty() {
            return upserts.isEmpty() && removed.isEmpty();
        }
    }

    /**
     * Applies a delta if it leads exactly to {@code expectedSize} proxies with {@code expectedDigest};
     * otherwise changes nothing.
     *
     * @return false when the delta does not fit this content (removes an unknown id, upserts one id
     *         twice, or the result's size or digest differs)
     */
    boolean apply(List<Proxy> upserts, List<String> removed, int expectedSize, long expectedDigest) {
        long d = digest;
        int size = byId.size();
        Map<String, Long> newHashes = LinkedHashMap.newLinkedHashMap(upserts.size());
        for (Proxy p : upserts) {
            long h = ContentDigest.of(p);
            if (newHashes.putIfAbsent(p.id(), h) != null) {
                return false;
            }
            Slot old = byId.get(p.id());
            if (old != null) {
                d -= old.hash;
            } else {
                size++;
            }
            d += h;
        }
        for (String id : removed) {
            Slot old = byId.get(id);
            if (old == null || newHashes.containsKey(id)) {
                return false;
            }
            d -= old.hash;
            size--;
        }
        if (size != expectedSize || d != expectedDigest) {
            return false;
        }
        for (Proxy p : upserts) {
            byId.put(p.id(), new Slot(p, newHashes.get(p.id())));
        }
        for (String id : removed) {
            byId.remove(id);
        }
        digest = d;
        return true;
    }
}
