package dev.proxypool.server.api.lease;

import dev.proxypool.core.extract.IdempotencyKey;
import dev.proxypool.sdk.Lease;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One lease handed out by {@code POST /v1/proxy/acquire}: the engine's {@link Lease} (it holds the
 * proxy's capacity) and when it lapses. It ends exactly once ({@link #end}): by the client's
 * release or by the sweeper at {@link #expiresAt}; whoever ends it releases the capacity, the
 * other learns how it ended.
 */
final class HeldLease {

    /** How a lease ended. */
    enum EndKind {
        RELEASED,
        EXPIRED
    }

    /**
     * How and when a lease ended.
     *
     * @param kind    released or expired
     * @param outcome the release's outcome ({@code ok}, a failure kind, ...), {@code expired} for an expiry
     * @param at      when
     */
    record End(EndKind kind, String outcome, Instant at) {}

    private final String id;
    private final String client;
    private final AcquireCall call;
    private final Lease lease;
    private final Instant acquiredAt;
    private final Instant expiresAt;
    private final long acquiredNanos;
    private final long deadlineNanos;
    private final IdempotencyKey idempotencyKey;
    private final AtomicReference<End> end = new AtomicReference<>();

    HeldLease(
            String id,
            String client,
            AcquireCall call,
            Lease lease,
            Instant acquiredAt,
            Instant expiresAt,
            long acquiredNanos,
            long deadlineNanos,
            IdempotencyKey idempotencyKey) {
        this.id = id;
        this.client = client;
        this.call = call;
        this.lease = lease;
        this.acquiredAt = acquiredAt;
        this.expiresAt = expiresAt;
        this.acquiredNanos = acquiredNanos;
        this.deadlineNanos = deadlineNanos;
        this.idempotencyKey = idempotencyKey;
    }

    String id() {
        return id;
    }

    String client() {
        return client;
    }

    AcquireCall call() {
        return call;
    }

    Lease lease() {
        return lease;
    }

    Instant acquiredAt() {
        return acquiredAt;
    }

    Instant expiresAt() {
        return expiresAt;
    }

    long acquiredNanos() {
        return acquiredNanos;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    /** The acquire's {@code Idempotency-Key}, or {@code null}. */
    IdempotencyKey idempotencyKey() {
        return idempotencyKey;
    }

    /** How it ended, or {@code null} while held. */
    End ended() {
        return end.get();
    }

    /** Ends the lease with {@code how}: true for the one caller that ends it, who must release it. */
    boolean end(End how) {
        return end.compareAndSet(null, how);
    }

    /** {@code held}, {@code released} or {@code expired}. */
    String state() {
        End e = end.get();
        return e == null ? "held" : e.kind() == EndKind.RELEASED ? "released" : "expired";
    }

    /** The id, routing and upstream; never the proxy's address. */
    @Override
    public String toString() {
        return "HeldLease[" + id + " " + lease + "]";
    }
}
