package dev.proxypool.core.sticky;

import dev.proxypool.core.dispatch.PickRequest;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.runtime.ProxyRuntime;
import dev.proxypool.core.snapshot.CandidateSet;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The per-worker sticky-session cache (docs/design.md#sticky-sessions): (client, routing, session id) → the proxy
 * the session is pinned to. A binding lives until the earliest of its lifetime
 * ({@code sticky.lifetime}) and its proxy's expiry, and is dropped when unused for
 * {@code sticky.idle}. A lookup returns the proxy only while it still qualifies in the
 * <em>current</em> snapshot; otherwise the binding is cleared and the caller learns why
 * ({@link StickyLookup.Lost}), so it can repin or fail with {@code session_lost}. See
 * {@link StickyDispatch} for the whole flow.
 *
 * <p>Bound: at most about {@code maxEntries} bindings. When a bind pushes the table over, that
 * thread sweeps: first every expired or idle binding, then, if still above 90% of the bound, the
 * least recently used ones (the cut-off is estimated from a sample of ≤ 1,024 last-use times, so the
 * sweep is O(entries) with no sort of the whole table). Sweeping down to 90% amortizes the cost to
 * O(10) per bind. Other binds that find the table over the bound wait for the running sweep (binds
 * happen after a connect, off the pick path), so the table exceeds the bound by at most the number
 * of concurrent writers.
 *
 * <p>Thread-safety: a {@link ConcurrentHashMap}; bindings are immutable except their volatile
 * last-use time; a lost binding is removed only if it is still the one examined
 * ({@code remove(key, binding)}), so a concurrent re-bind survives. Lookups and binds are O(1)
 * (plus the O(segments · log n) candidate-set membership test).
 */
public final class StickyTable {

    /**
     * A read-only view of one binding (tests, admin). Times are ticker nanoseconds.
     *
     * @param proxyId       the proxy the session is pinned to
     * @param createdNanos  when the binding was made
     * @param lastUsedNanos the last lookup that returned it (or its creation)
     * @param expiresNanos  {@code min(created + lifetime, proxy expiry)}
     * @param failureStreak the session's failed requests in a row on the proxy
     * @param windowRequests the session's recent requests on the proxy the error rate covers
     * @param windowFailures how many of those failed
     */
    public record BindingView(
            String proxyId,
            long createdNanos,
            long lastUsedNanos,
            long expiresNanos,
            int failureStreak,
            int windowRequests,
            int windowFailures) {}

    private static final int SAMPLE = 1024;

    private final StickyPolicy policy;
    private final long lifetimeNanos;
    private final long idleNanos;
    private final int maxEntries;
    private final ConcurrentHashMap<SessionKey, Binding> bindings = new ConcurrentHashMap<>();
    private final Object sweepLock = new Object();

    /**
     * An empty table.
     *
     * @param policy the routing's sticky settings (lifetime, idle, bound); not null
     */
    public StickyTable(StickyPolicy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.lifetimeNanos = policy.lifetime().toNanos();
        this.idleNanos = policy.idle().toNanos();
        this.maxEntries = policy.maxEntries();
    }

    /**
     * The settings this table enforces.
     *
     * @return the policy given at construction
     */
    public StickyPolicy policy() {
        return policy;
    }

    /**
     * The session's proxy if the binding holds: unexpired, not idle, and the proxy present in
     * {@code snapshot}, a candidate of {@code request}'s filter, not expiring, healthy, with a fresh
     * enough health verdict, and not banned for the request's domain. A hit refreshes the last-use
     * time. A binding that fails any check is removed. Capacity and health admission are not taken
     * here: reserve the proxy with {@code Dispatcher.pickSlot} (no side effects in a lookup).
     *
     * @param key      the session
     * @param snapshot the snapshot the request picks from
     * @param request  the request's filter, domain and exclusions
     * @param now      the current {@link dev.proxypool.core.time.Ticker} reading
     * @return Bound with the proxy's slot, Unbound, or Lost with the reason
     */
    public StickyLookup lookup(SessionKey key, PoolSnapshot snapshot, PickRequest request, long now) {
        Binding b = bindings.get(key);
        if (b == null) {
            return StickyLookup.Unbound.INSTANCE;
        }
        int slot = snapshot.slotOf(b.proxyId);
        LossReason loss = check(b, slot, snapshot, request, now);
        if (loss == LossReason.EXCLUDED) { // a retry after one failure: served elsewhere, the session stays
            b.lastUsedNanos = now;
            return new StickyLookup.Excluded(b.proxyId);
        }
        if (loss != null) {
            bindings.remove(key, b);
            return new StickyLookup.Lost(b.proxyId, loss);
        }
        b.lastUsedNanos = now;
        return new StickyLookup.Bound(slot, b.proxyId);
    }

    /** The first reason the binding no longer holds, or null when it does. */
    private LossReason check(Binding b, int slot, PoolSnapshot snapshot, PickRequest request, long now) {
        if (b.abandoned) {
            return LossReason.SESSION_FAILURES;
        }
        if (b.expired(now)) {
            return b.cappedByProxy ? LossReason.PROXY_EXPIRED : LossReason.LIFETIME_ENDED;
        }
        if (b.idle(now, idleNanos)) {
            return LossReason.IDLE;
        }
        if (slot < 0) {
            return LossReason.PROXY_GONE;
        }
        CandidateSet set = snapshot.candidates(request.filter());
        if (!set.contains(slot)) {
            return LossReason.FILTERED_OUT;
        }
        long remaining = snapshot.remainingNanos(slot, now);
        if (remaining != PoolSnapshot.NO_DEADLINE && remaining < set.minRemainingTtlNanos()) {
            return LossReason.PROXY_EXPIRING;
        }
        ProxyRuntime runtime = snapshot.runtime(slot);
        ProxyHealth health = runtime.health();
        if (health.state() != HealthState.HEALTHY) {
            return LossReason.UNHEALTHY;
        }
        if (set.maxHealthAgeNanos() > 0 && now - health.lastCheckedNanos() > set.maxHealthAgeNanos()) {
            return LossReason.STALE_HEALTH;
        }
        if (!request.domain().isEmpty() && health.isBannedFor(request.domain(), now)) {
            return LossReason.BANNED;
        }
        if (request.excludedProxyIds().contains(b.proxyId)) {
            return LossReason.EXCLUDED;
        }
        return null;
    }

    /**
     * Pins the session to the proxy in {@code slot} of {@code snapshot}, after a successful
     * connect. Replaces any earlier binding of the session.
     *
     * @param key      the session
     * @param snapshot the snapshot the pick came from
     * @param slot     the picked proxy's slot in it
     * @param now      the current {@link dev.proxypool.core.time.Ticker} reading
     */
    public void bind(SessionKey key, PoolSnapshot snapshot, int slot, long now) {
        bind(key, snapshot.proxy(slot).id(), snapshot.deadlineNanos(slot), now);
    }

    /**
     * Pins the session to {@code proxyId}, whose expiry is at ticker reading
     * {@code proxyDeadlineNanos} ({@link PoolSnapshot#NO_DEADLINE} if it never expires). The binding
     * expires at {@code min(now + lifetime, proxyDeadlineNanos)}.
     *
     * @param key                the session; not null
     * @param proxyId            the proxy's id; not null
     * @param proxyDeadlineNanos the proxy's expiry as a ticker reading
     * @param now                the current ticker reading
     */
    public void bind(SessionKey key, String proxyId, long proxyDeadlineNanos, long now) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(proxyId, "proxyId");
        long lifetimeEnd = now + lifetimeNanos;
        boolean capped = proxyDeadlineNanos != PoolSnapshot.NO_DEADLINE && proxyDeadlineNanos - lifetimeEnd < 0;
        bindings.put(key, new Binding(proxyId, now, capped ? proxyDeadlineNanos : lifetimeEnd, capped));
        if (bindings.size() > maxEntries) {
            evict(now);
        }
    }

    /**
     * Records the outcome of one of the session's requests on {@code proxyId}
     * (docs/design.md#sticky-sessions, S8). Only the bound proxy's outcomes count: a request served
     * elsewhere (a fresh pick that never connected, a detour) changes nothing. When the failure
     * makes {@code sticky.switchFailures} in a row, or at least {@code sticky.switchErrorRate} of the
     * session's last {@code sticky.switchWindow} requests on the proxy (judged once half the window
     * is filled), the binding is marked abandoned: the next lookup drops it as
     * {@link LossReason#SESSION_FAILURES}.
     *
     * @param key     the session
     * @param proxyId the proxy that served the request
     * @param failed  whether the request failed on the proxy
     * @return true if this outcome made the session move off the proxy
     */
    public boolean recordOutcome(SessionKey key, String proxyId, boolean failed) {
        Binding b = bindings.get(key);
        if (b == null || b.abandoned || !b.proxyId.equals(proxyId)) {
            return false;
        }
        if (b.record(failed, policy)) {
            b.abandoned = true;
            return true;
        }
        return false;
    }

    /**
     * Drops the session's binding, whatever it points to.
     *
     * @param key the session
     */
    public void clear(SessionKey key) {
        bindings.remove(key);
    }

    /**
     * Drops the session's binding only if it still points to {@code proxyId}.
     *
     * @param key     the session
     * @param proxyId the proxy the caller found bound
     * @return true if this call removed the binding
     */
    public boolean clear(SessionKey key, String proxyId) {
        Binding b = bindings.get(key);
        return b != null && b.proxyId.equals(proxyId) && bindings.remove(key, b);
    }

    /**
     * The session's binding as stored (expired or not), for inspection.
     *
     * @param key the session
     * @return the binding, or empty
     */
    public Optional<BindingView> find(SessionKey key) {
        Binding b = bindings.get(key);
        return b == null ? Optional.empty() : Optional.of(b.view());
    }

    /**
     * Bindings held now, expired ones included until a sweep or lookup drops them.
     *
     * @return the count, about {@code maxEntries} at most
     */
    public int size() {
        return bindings.size();
    }

    private void evict(long now) {
        synchronized (sweepLock) { // writers wait for a running sweep: the bound holds under any load
            if (bindings.size() > maxEntries) {
                sweep(now);
            }
        }
    }

    private void sweep(long now) {
        bindings.entrySet()
                .removeIf(e -> e.getValue().expired(now) || e.getValue().idle(now, idleNanos));
        int target = maxEntries - Math.max(1, maxEntries / 10);
        int excess = bindings.size() - target;
        if (excess <= 0) {
            return;
        }
        long cutoff = lastUsedQuantile((double) excess / bindings.size());
        for (Iterator<Map.Entry<SessionKey, Binding>> it = bindings.entrySet().iterator();
                it.hasNext() && excess > 0; ) {
            Map.Entry<SessionKey, Binding> e = it.next();
            if (e.getValue().lastUsedNanos - cutoff <= 0 && bindings.remove(e.getKey(), e.getValue())) {
                excess--;
            }
        }
        for (Iterator<Map.Entry<SessionKey, Binding>> it = bindings.entrySet().iterator();
                it.hasNext() && excess > 0; ) {
            Map.Entry<SessionKey, Binding> e = it.next();
            if (bindings.remove(e.getKey(), e.getValue())) {
                excess--; // ties at the cut-off, or bindings used since the sample: drop arbitrary ones
            }
        }
    }

    /** Estimated last-use time below which {@code fraction} of the bindings lie, from a strided sample. */
    private long lastUsedQuantile(double fraction) {
        int size = bindings.size();
        int stride = Math.max(1, size / SAMPLE);
        long[] sample = new long[Math.min(size, SAMPLE) + 1];
        int n = 0;
        int i = 0;
        for (Binding b : bindings.values()) {
            if (i++ % stride == 0) {
                sample[n++] = b.lastUsedNanos;
                if (n == sample.length) {
                    break;
                }
            }
        }
        if (n == 0) {
            return Long.MIN_VALUE;
        }
        Arrays.sort(sample, 0, n);
        return sample[Math.min(n - 1, (int) (fraction * n))];
    }
}
