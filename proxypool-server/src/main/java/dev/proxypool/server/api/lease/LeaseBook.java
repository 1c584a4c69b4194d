package dev.proxypool.server.api.lease;

import dev.proxypool.core.extract.IdempotencyKey;
import dev.proxypool.core.task.BackgroundTasks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.Lease;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * This process's leases: the held ones, the recently ended ones (so a second release is answered,
 * not refused), and the acquires' {@code Idempotency-Key}s. Leases live in memory, in the process
 * that issued them: a release must reach that process.
 *
 * <p>A lease ends once: the client's {@link #release} or the sweeper's expiry, whichever comes
 * first, releases the capacity ({@link HeldLease#end}); the other is told how it ended. The sweeper
 * runs every {@code sweepEvery} as one background task ({@link BackgroundTasks}), expires at most {@value #MAX_EXPIRE_PER_SWEEP}
 * leases a round and forgets ended leases after {@link #RETENTION} (at most {@value #MAX_ENDED} are
 * remembered). Thread-safe.
 */
final class LeaseBook implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LeaseBook.class.getName());

    /** How long an ended lease (and its acquire's idempotency key) is remembered. */
    static final Duration RETENTION = Duration.ofHours(1);

    static final int MAX_ENDED = 100_000;
    static final int MAX_EXPIRE_PER_SWEEP = 10_000;

    /** An idempotent acquire in flight or done. */
    static final class Claim {
        private final AcquireCall call;
        private volatile HeldLease lease;

        private Claim(AcquireCall call) {
            this.call = call;
        }
    }

    /** What an {@code Idempotency-Key} finds. */
    sealed interface ClaimResult {
        /** The key is new: run the acquire, then {@link #settle} the claim. */
        record Claimed(Claim claim) implements ClaimResult {}

        /** The key's acquire handed out this lease: answer with it again. */
        record Replay(HeldLease lease) implements ClaimResult {}

        /** The key's acquire is still running. */
        record InProgress() implements ClaimResult {}

        /** The key was used with a different body. */
        record Mismatch() implements ClaimResult {}
    }

    /** What a release found. */
    sealed interface ReleaseResult {
        /** This call released it. */
        record Released(HeldLease lease, long heldMs) implements ReleaseResult {}

        /** An earlier release did; nothing was released again. */
        record AlreadyReleased(HeldLease lease) implements ReleaseResult {}

        /** The server released it at its {@code expiresAt}. */
        record Expired(HeldLease lease) implements ReleaseResult {}

        /** No such lease of this client (never issued here, or forgotten). */
        record Unknown() implements ReleaseResult {}
    }

    private final ConcurrentHashMap<String, HeldLease> held = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, HeldLease> ended = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<HeldLease> endedOrder = new ConcurrentLinkedQueue<>();
    private final ConcurrentHashMap<IdempotencyKey, Claim> claims = new ConcurrentHashMap<>();
    private final LeaseLedger ledger;
    private final LeaseMetrics metrics;
    private final Ticker ticker;
    private final InstantSource wall;
    private final SecureRandom random = new SecureRandom();
    private final BackgroundTasks tasks = BackgroundTasks.of("proxy lease book");

    LeaseBook(LeaseLedger ledger, LeaseMetrics metrics, Ticker ticker, InstantSource wall, Duration sweepEvery) {
        this.ledger = ledger;
        this.metrics = metrics;
        this.ticker = ticker;
        this.wall = wall;
        Duration every = sweepEvery.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : sweepEvery;
        tasks.every("proxypool-lease-sweeper", every, this::sweepQuietly);
    }

    /** Claims {@code key} for {@code call}, or finds what it already stands for. */
    ClaimResult claim(IdempotencyKey key, AcquireCall call) {
        Claim mine = new Claim(call);
        Claim existing = claims.putIfAbsent(key, mine);
        if (existing == null) {
            return new ClaimResult.Claimed(mine);
        }
        if (!existing.call.equals(call)) {
            return new ClaimResult.Mismatch();
        }
        HeldLease h = existing.lease;
        return h == null ? new ClaimResult.InProgress() : new ClaimResult.Replay(h);
    }

    /** The claimed acquire handed out {@code lease}, or ({@code null}) nothing: then the key is free again. */
    void settle(IdempotencyKey key, Claim claim, HeldLease lease) {
        if (lease == null) {
            claims.remove(key, claim);
        } else {
            claim.lease = lease;
        }
    }

    /** Records an acquired lease, held until {@code expiresAt}. */
    HeldLease register(
            String client, AcquireCall call, Lease lease, Instant now, Instant expiresAt, IdempotencyKey key) {
        long t = ticker.read();
        long hold = Math.max(0, Duration.between(now, expiresAt).toNanos());
        HeldLease h = new HeldLease(newId(), client, call, lease, now, expiresAt, t, t + hold, key);
        held.put(h.id(), h);
        ledger.acquired(h);
        return h;
    }

    /** Releases {@code call.leaseId()} of {@code client} with its outcome, once. */
    ReleaseResult release(String client, ReleaseCall call) {
        HeldLease h = held.get(call.leaseId());
        if (h == null) {
            h = ended.get(call.leaseId());
        }
        if (h == null || !h.client().equals(client)) {
            return new ReleaseResult.Unknown();
        }
        Instant now = wall.instant();
        if (!h.end(new HeldLease.End(HeldLease.EndKind.RELEASED, call.outcome(), now))) {
            HeldLease.End how = h.ended();
            return how.kind() == HeldLease.EndKind.RELEASED
                    ? new ReleaseResult.AlreadyReleased(h)
                    : new ReleaseResult.Expired(h);
        }
        long heldMs = TimeUnit.NANOSECONDS.toMillis(ticker.read() - h.acquiredNanos());
        try {
            report(h, call);
        } finally {
            h.lease().close();
            retire(h);
        }
        metrics.release(call.outcome());
        ledger.released(h, call.outcome(), call.latencyMs(), heldMs, now);
        return new ReleaseResult.Released(h, heldMs);
    }

    /** The outcome into health, exactly as the gateway reports an attempt's. */
    private static void report(HeldLease h, ReleaseCall call) {
        Lease lease = h.lease();
        if (call.bannedDomain() != null) {
            lease.banned(call.bannedDomain());
        }
        String host = h.call().host();
        if (call.failure() != null) {
            lease.failed(call.failure(), host.isEmpty() ? null : host);
        } else if (call.outcome().equals(ReleaseCall.OK)) {
            // without a reported latency the success counts, its speed is unknown (0 is not blended in)
            lease.succeeded(Duration.ofMillis(Math.max(0, call.latencyMs())));
        }
        // abandoned: not the proxy's doing, nothing to report
    }

    /** Expires the leases past their {@code expiresAt}, forgets old ended ones; returns how many expired. */
    int sweep() {
        long now = ticker.read();
        int expired = 0;
        for (HeldLease h : held.values()) {
            if (expired >= MAX_EXPIRE_PER_SWEEP) {
                break;
            }
            if (now - h.deadlineNanos() >= 0
                    && h.end(new HeldLease.End(HeldLease.EndKind.EXPIRED, "expired", wall.instant()))) {
                h.lease().close();
                retire(h);
                expired++;
                metrics.expired();
                ledger.expired(
                        h,
                        TimeUnit.NANOSECONDS.toMillis(now - h.acquiredNanos()),
                        h.ended().at());
            }
        }
        forgetOld();
        return expired;
    }

    private void sweepQuietly() {
        try {
            sweep();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "lease sweep failed: " + e);
        }
    }

    private void retire(HeldLease h) {
        ended.put(h.id(), h);
        endedOrder.add(h);
        held.remove(h.id(), h);
    }

    private void forgetOld() {
        Instant horizon = wall.instant().minus(RETENTION);
        for (HeldLease h; (h = endedOrder.peek()) != null; ) {
            if (ended.size() <= MAX_ENDED && h.ended().at().isAfter(horizon)) {
                break;
            }
            endedOrder.poll();
            forget(h);
        }
    }

    private void forget(HeldLease h) {
        ended.remove(h.id(), h);
        if (h.idempotencyKey() != null) {
            claims.computeIfPresent(h.idempotencyKey(), (k, c) -> c.lease == h ? null : c);
        }
    }

    /** Leases held now. */
    int heldCount() {
        return held.size();
    }

    /** The held or recently ended lease of that id (tests, inspection). */
    HeldLease find(String id) {
        HeldLease h = held.get(id);
        return h != null ? h : ended.get(id);
    }

    /** A view of the held leases (tests). */
    Map<String, HeldLease> held() {
        return Map.copyOf(held);
    }

    private String newId() {
        byte[] b = new byte[18];
        random.nextBytes(b);
        return "l-" + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** Stops the sweeper and releases every lease still held (the server is stopping). */
    @Override
    public void close() {
        tasks.close();
        Instant now = wall.instant();
        for (HeldLease h : held.values()) {
            if (h.end(new HeldLease.End(HeldLease.EndKind.EXPIRED, "server_stopped", now))) {
                h.lease().close();
                retire(h);
            }
        }
    }
}
