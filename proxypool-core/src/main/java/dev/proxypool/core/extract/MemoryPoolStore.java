package dev.proxypool.core.extract;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The embedded {@link PoolStore}: the pool in one process, no external service.
 *
 * <p><b>Structures.</b> Slots by id (a {@link TreeMap}, so listings page in id order), by
 * {@link ProxyKey} (duplicate and tombstone identity), the expiry queue (a {@link TreeSet} of the
 * slots of proxies that expire, soonest first, for purging), and {@link AvailabilityIndex} sets of
 * available slots per upstream, protocol, label value, combination of the declared dimensions
 * ({@code store.index.dimensions}, as the Redis store) and combination of them with the protocol
 * ({@code store.index.protocol}).
 * Tombstones and idempotency records live in their own tables.
 *
 * <p><b>The expiry queue is cleaned lazily.</b> A proxy that leaves the store before it expires
 * (extracted, removed) leaves its slot in the queue, dead (no proxy, only its expiry key), until that
 * instant, when the purge polls it from the queue's head like any other: the extraction's path then
 * costs no search of the queue, which with its cache misses was a third of an extraction at 100,000
 * proxies (benchmarks/RESULTS.md). The price is about 100 bytes per such proxy until its expiry,
 * beside the tombstone the store keeps for it until then anyway. A publish that changes a proxy's
 * expiry takes its slot out of the queue first (its key changes), so a live slot is queued at most
 * once; one that keeps it (the common refresh) leaves the entry where it is.
 *
 * <p><b>Extraction</b> first drops proxies expired at {@code now} and ends the health holds whose end
 * passed (so the reserve's total is the all-set's size), then walks the narrowest index set of the
 * filter in publish order, testing each slot with {@link ExtractionRequest#admits}, and stops at the
 * request's allowance. A slot held by health is not in the index (it waits, counted available, in
 * its own set ordered by the hold's end), so no walk meets it, and a filter whose proxies are all
 * held costs an empty set, not a walk of them; nor does a {@code minRemainingTtl} or {@code
 * maxHealthAge} beyond every proxy's (the client's to choose: {@link #noneCanPass}). The slots a walk passed over (a filter term beyond
 * the set's, a TTL) go to the back of that set, so
 * the walks of a filter that takes few of its set's slots do not grow longer as its matches leave the
 * head. Cost: O(e log n + s + k log n) for e expired, s slots scanned (k when every scanned slot
 * matches, at most the narrowest set's size) and k extracted.
 *
 * <p><b>Thread-safety: one {@link ReentrantLock}</b> around every pool operation. Extraction must
 * read a global count (the gateway reserve) and may span every upstream, so a striped design would
 * take all stripes on each extraction anyway; each critical section is microseconds, the
 * Distribution API's rate is far below what one lock passes, and the gateway's hot path never
 * touches this store (it reads snapshots). Idempotency records have a separate lock. The store runs
 * no threads: the owner calls {@link #purgeExpired} periodically.
 */
public final class MemoryPoolStore implements PoolStore {

    private final ReentrantLock lock = new ReentrantLock();
    private final StoreSettings settings;
    private final TreeMap<String, Slot> byId = new TreeMap<>();
    private final HashMap<ProxyKey, Slot> byKey = new HashMap<>();
    private final TreeSet<Slot> byExpiry = new TreeSet<>(Slot.BY_EXPIRY);
    private final AvailabilityIndex index;
    private final HashMap<String, Integer> disabledByUpstream = new HashMap<>();
    /**
     * Available slots a health hold keeps out of extraction, by the hold's end: out of the index, so
     * no walk meets them (a pool or filter whose proxies are all held is empty to extraction, not a
     * walk of every held slot per call), and counted available by upstream here.
     */
    private final TreeSet<Slot> heldOut = new TreeSet<>(Slot.BY_HOLD_END);

    private final HashMap<String, Integer> heldByUpstream = new HashMap<>();
    /** The latest health check recorded ({@link #markChecked}): no slot's is later. Null: none yet. */
    private Instant latestCheck;
    /** Slots the last extraction tested ({@link #lastWalk}). */
    private int lastWalk;

    private final TombstoneTable tombstones = new TombstoneTable();
    private final IdempotencyTable idempotency;
    private volatile boolean closed;

    /** An empty store with {@link StoreSettings#DEFAULTS}. */
    public MemoryPoolStore() {
        this(StoreSettings.DEFAULTS);
    }

    /**
     * An empty store.
     *
     * @param settings tombstone retention and idempotency limits; not null
     * @throws IllegalArgumentException if {@code settings} is null
     */
    public MemoryPoolStore(StoreSettings settings) {
        if (settings == null) {
            throw new IllegalArgumentException("store settings must not be null");
        }
        this.settings = settings;
        this.index = new AvailabilityIndex(settings);
        this.idempotency = new IdempotencyTable(settings);
    }

    @Override
    public PublishResult upsert(Collection<Proxy> proxies, Instant now) {
        int added = 0, refreshed = 0, tombstoned = 0, expired = 0, duplicate = 0;
        lock();
        try {
            for (Proxy p : proxies) {
                if (p == null) {
                    throw new IllegalArgumentException("proxies must not contain null");
                }
                Slot existing = byId.get(p.id());
                Slot sameKey = byKey.get(p.key());
                if (p.isExpired(now)) {
                    expired++;
                } else if (tombstones.contains(p.key(), now)) {
                    tombstoned++;
                } else if (sameKey != null && sameKey != existing) {
                    duplicate++;
                } else if (existing == null) {
                    attach(new Slot(p));
                    added++;
                } else {
                    refresh(existing, p);
                    refreshed++;
                }
            }
        } finally {
            lock.unlock();
        }
        return new PublishResult(added, refreshed, tombstoned, expired, duplicate);
    }

    private void refresh(Slot s, Proxy p) {
        boolean sameIndexing = s.proxy.upstream().equals(p.upstream())
                && s.proxy.protocol() == p.protocol()
                && s.proxy.labels().equals(p.labels());
        // the common refresh, a provider listing the proxy again, keeps its expiry: its queue entry stays
        boolean sameExpiry = s.proxy.expiresAt().equals(p.expiresAt());
        if (sameIndexing) { // keep the slot's place in publish order
            if (!sameExpiry) {
                dequeue(s);
            }
            byKey.remove(s.proxy.key());
            index.expiryChanged(s, p.expires());
            s.proxy = p;
            byKey.put(p.key(), s);
            enqueue(s);
        } else {
            detach(s);
            if (!sameExpiry) {
                dequeue(s);
            }
            s.proxy = p;
            attach(s);
        }
    }

    private void attach(Slot s) {
        byId.put(s.proxy.id(), s);
        byKey.put(s.proxy.key(), s);
        enqueue(s);
        if (s.disabled) {
            disabledByUpstream.merge(s.proxy.upstream(), 1, Integer::sum);
        } else if (s.unhealthyUntil != null) {
            holdOut(s);
        } else {
            index.add(s);
        }
    }

    /** An available slot with a hold leaves extraction's reach (the index) and is counted held. */
    private void holdOut(Slot s) {
        heldOut.add(s);
        heldByUpstream.merge(s.proxy.upstream(), 1, Integer::sum);
    }

    /** The reverse of {@link #holdOut}, its hold unchanged. */
    private void unholdOut(Slot s) {
        heldOut.remove(s);
        heldByUpstream.computeIfPresent(s.proxy.upstream(), (u, n) -> n == 1 ? null : n - 1);
    }

    /**
     * Sets the hold of a stored slot ({@code null}: none): an available slot moves between the index
     * and {@link #heldOut}; a disabled one only keeps the end, for its enable.
     */
    private void setHold(Slot s, Instant until) {
        if (s.disabled || s.unhealthyUntil == null && until == null) {
            s.unhealthyUntil = until;
            return;
        }
        if (s.unhealthyUntil != null) {
            unholdOut(s); // its key in heldOut is the end: out before it changes
        } else {
            index.remove(s);
        }
        s.unhealthyUntil = until;
        if (until != null) {
            holdOut(s);
        } else {
            index.add(s);
        }
    }

    /** Takes a slot out of every structure but the expiry queue (its entry stays valid while the proxy is the same). */
    private void detach(Slot s) {
        byId.remove(s.proxy.id());
        byKey.remove(s.proxy.key());
        if (s.disabled) {
            disabledByUpstream.computeIfPresent(s.proxy.upstream(), (u, n) -> n == 1 ? null : n - 1);
        } else if (s.unhealthyUntil != null) {
            unholdOut(s);
        } else {
            index.remove(s);
        }
    }

    /** The proxy leaves the store: a queued slot stays in the expiry queue, dead, until its expiry. */
    private void bury(Slot s) {
        detach(s);
        s.die();
    }

    /** Queues a slot whose proxy expires, keyed by its expiresAt, unless it is queued already. */
    private void enqueue(Slot s) {
        if (!s.queued && s.proxy.expires()) {
            s.keyExpiry();
            byExpiry.add(s);
            s.queued = true;
        }
    }

    /** Takes a slot out of the expiry queue before its proxy (and so its key) changes. */
    private void dequeue(Slot s) {
        if (s.queued) {
            byExpiry.remove(s);
            s.queued = false;
        }
    }

    @Override
    public int remove(Collection<String> proxyIds) {
        return eachStored(proxyIds, this::bury);
    }

    /** Applies {@code change} to the slot of each stored id, under the lock; returns how many were stored. */
    private int eachStored(Collection<String> proxyIds, Consumer<Slot> change) {
        lock();
        try {
            int n = 0;
            for (String id : proxyIds) {
                Slot s = byId.get(id);
                if (s != null) {
                    change.accept(s);
                    n++;
                }
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int purgeExpired(Instant now) {
        int n;
        lock();
        try {
            n = purgeLocked(now);
            tombstones.purge(now);
        } finally {
            lock.unlock();
        }
        idempotency.purge(now);
        return n;
    }

    private int purgeLocked(Instant now) {
        while (!heldOut.isEmpty() && !heldOut.first().unhealthyUntil.isAfter(now)) {
            setHold(heldOut.first(), null); // its worker stopped renewing it: the hold lapsed
        }
        int n = 0;
        while (!byExpiry.isEmpty() && byExpiry.first().expiryPassed(now)) {
            Slot s = byExpiry.pollFirst();
            s.queued = false;
            if (!s.dead()) { // else it left the store before expiring: only its queue entry was left
                bury(s);
                n++;
            }
        }
        return n;
    }

    /** Entries of the expiry queue, dead ones included (for tests). */
    int expiryQueueSize() {
        lock();
        try {
            return byExpiry.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int markChecked(Collection<String> proxyIds, Instant checkedAt) {
        if (checkedAt == null) {
            throw new IllegalArgumentException("checkedAt must not be null");
        }
        return eachStored(proxyIds, s -> {
            if (s.checkedAt == null || s.checkedAt.isBefore(checkedAt)) {
                s.checkedAt = checkedAt;
            }
            if (latestCheck == null || latestCheck.isBefore(checkedAt)) {
                latestCheck = checkedAt;
            }
        });
    }

    @Override
    public int markUnhealthy(Collection<String> proxyIds, Instant until) {
        if (until == null) {
            throw new IllegalArgumentException("until must not be null");
        }
        return hold(proxyIds, until);
    }

    @Override
    public int markHealthy(Collection<String> proxyIds) {
        return hold(proxyIds, null);
    }

    private int hold(Collection<String> proxyIds, Instant until) {
        return eachStored(proxyIds, s -> setHold(s, until));
    }

    @Override
    public boolean setDisabled(String proxyId, boolean disabled) {
        lock();
        try {
            Slot s = byId.get(proxyId);
            if (s == null) {
                return false;
            }
            if (s.disabled != disabled) {
                detach(s);
                s.disabled = disabled;
                attach(s);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public ExtractionResult extract(ExtractionRequest request, Instant now) {
        lock();
        try {
            purgeLocked(now);
            int limit = request.maxExtractable(index.total());
            List<Slot> chosen = new ArrayList<>(limit);
            int walked = 0;
            if (limit > 0 && !noneCanPass(request, now)) {
                Set<Slot> candidates = index.narrowest(request.filter());
                List<Slot> passed = null; // walked past: not a match now
                for (Slot s : candidates) {
                    walked++;
                    if (request.admits(s.proxy, s.checkedAt, now)) {
                        chosen.add(s);
                        if (chosen.size() == limit) {
                            break;
                        }
                    } else {
                        if (passed == null) {
                            passed = new ArrayList<>();
                        }
                        passed.add(s);
                    }
                }
                if (passed != null && chosen.size() == limit) {
                    // to the back of the set walked, so the next walk does not pass them again: the
                    // matches taken from the head would otherwise leave the non-matches piling up
                    // there, each walk longer than the last
                    AvailabilityIndex.toBack(candidates, passed);
                }
            }
            lastWalk = walked;
            if (request.fulfillment() == Fulfillment.ALL_OR_NOTHING && chosen.size() < request.count()) {
                return new ExtractionResult.Insufficient(chosen.size());
            }
            List<ExtractedProxy> out = new ArrayList<>(chosen.size());
            for (Slot s : chosen) {
                Proxy p = s.proxy;
                bury(s);
                tombstones.add(p.key(), tombstoneEnd(p, now));
                out.add(new ExtractedProxy(p, now));
            }
            return new ExtractionResult.Extracted(out);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether no slot can pass the request's own bounds, known without a walk: a
     * {@code minRemainingTtl} beyond the latest expiry queued while no slot of the index lasts
     * forever, or a {@code maxHealthAge} that the latest check recorded fails. Both are the client's
     * to choose; without this, asked for more than any proxy has, each call walked every slot of its
     * filter's set (of the pool, unfiltered) under the store's lock. The queue may hold dead or held
     * slots: a bound, so "maybe" walks as before.
     */
    private boolean noneCanPass(ExtractionRequest request, Instant now) {
        Duration maxAge = request.maxHealthAge();
        if (!maxAge.isZero()
                && (latestCheck == null || Duration.between(latestCheck, now).compareTo(maxAge) > 0)) {
            return true;
        }
        Duration minTtl = request.minRemainingTtl();
        return !minTtl.isZero()
                && index.lasting() == 0
                && (byExpiry.isEmpty() || byExpiry.last().expiresBefore(now.plus(minTtl)));
    }

    /** Slots the last extraction tested (for tests: a bound the client chose must not cost a walk). */
    int lastWalk() {
        lock();
        try {
            return lastWalk;
        } finally {
            lock.unlock();
        }
    }

    private Instant tombstoneEnd(Proxy p, Instant now) {
        return p.expires() ? p.expiresAt() : now.plus(settings.tombstoneRetentionForNoExpiry());
    }

    @Override
    public IdempotencyStart beginIdempotent(IdempotencyKey key, String fingerprint, Instant now) {
        checkOpen();
        return idempotency.begin(key, requireFingerprint(fingerprint), now);
    }

    @Override
    public boolean completeIdempotent(IdempotencyKey key, String fingerprint, String response, Instant now) {
        checkOpen();
        if (response == null) {
            throw new IllegalArgumentException("idempotent response must not be null");
        }
        return idempotency.complete(key, requireFingerprint(fingerprint), response, now);
    }

    @Override
    public boolean abandonIdempotent(IdempotencyKey key, String fingerprint) {
        checkOpen();
        return idempotency.abandon(key, requireFingerprint(fingerprint));
    }

    private static String requireFingerprint(String fingerprint) {
        if (fingerprint == null || fingerprint.isEmpty()) {
            throw new IllegalArgumentException("idempotency fingerprint must not be empty");
        }
        return fingerprint;
    }

    @Override
    public int available(String upstream) {
        lock();
        try {
            return availableOf(upstream);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Map<String, UpstreamCounts> countsByUpstream() {
        lock();
        try {
            TreeMap<String, UpstreamCounts> counts = new TreeMap<>();
            for (String upstream : upstreamNames()) {
                counts.put(
                        upstream,
                        new UpstreamCounts(availableOf(upstream), disabledByUpstream.getOrDefault(upstream, 0)));
            }
            return counts;
        } finally {
            lock.unlock();
        }
    }

    /** The available proxies of {@code upstream}: extractable ones and those held out by health. */
    private int availableOf(String upstream) {
        return index.upstream(upstream) + heldByUpstream.getOrDefault(upstream, 0);
    }

    private Set<String> upstreamNames() {
        TreeSet<String> names = new TreeSet<>(disabledByUpstream.keySet());
        names.addAll(index.upstreams());
        names.addAll(heldByUpstream.keySet());
        return names;
    }

    @Override
    public Optional<StoredProxy> get(String proxyId) {
        lock();
        try {
            Slot s = byId.get(proxyId);
            return s == null ? Optional.empty() : Optional.of(s.view());
        } finally {
            lock.unlock();
        }
    }

    @Override
    public ProxyPage list(PoolQuery query, PageRequest page) {
        lock();
        try {
            Map<String, Slot> tail =
                    page.afterId().isPresent() ? byId.tailMap(page.afterId().get(), false) : byId;
            List<StoredProxy> out = new ArrayList<>(Math.min(page.limit(), 64));
            String next = PageRequest.FIRST;
            for (Slot s : tail.values()) {
                if (!query.matches(s.proxy, s.state())) {
                    continue;
                }
                if (out.size() == page.limit()) {
                    next = PageRequest.cursorAfter(out.getLast().id());
                    break;
                }
                out.add(s.view());
            }
            return new ProxyPage(out, next);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isTombstoned(ProxyKey key, Instant now) {
        lock();
        try {
            return tombstones.contains(key, now);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        closed = true;
    }

    private void lock() {
        checkOpen();
        lock.lock();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("pool store is closed");
        }
    }

    @Override
    public String toString() {
        return "MemoryPoolStore";
    }
}
