package dev.proxypool.core.extract;

import dev.proxypool.core.model.Proxy;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A stored proxy inside {@link MemoryPoolStore}: mutable, guarded by the store's lock. Identity
 * equality, so index sets hold slots without hashing the record. Fields that index the slot
 * (upstream, protocol, labels, expiresAt) change only while it is detached from the indices.
 *
 * <p>A slot whose proxy leaves the store (extracted, removed, purged) is <b>dead</b>: it keeps only
 * its expiry key, so the store's expiry queue can hold it until that instant instead of searching
 * the queue for it on the extraction's path ({@link MemoryPoolStore}).
 */
final class Slot {

    private static final AtomicLong SEQUENCE = new AtomicLong();

    /**
     * Expiry-queue order: soonest expiry first, ties by creation so distinct slots never compare
     * equal. Reads only the slot's own primitive fields: a queue search touches one object a level.
     */
    static final Comparator<Slot> BY_EXPIRY = (a, b) -> {
        int c = Long.compare(a.expirySecond, b.expirySecond);
        if (c == 0) {
            c = Integer.compare(a.expiryNano, b.expiryNano);
        }
        return c != 0 ? c : Long.compare(a.seq, b.seq);
    };

    /**
     * Order of the slots held out by health ({@code MemoryPoolStore}): soonest end of the hold first,
     * ties by creation. The end changes only while the slot is out of that set.
     */
    static final Comparator<Slot> BY_HOLD_END = (a, b) -> {
        int c = a.unhealthyUntil.compareTo(b.unhealthyUntil);
        return c != 0 ? c : Long.compare(a.seq, b.seq);
    };

    /** Null once dead. */
    Proxy proxy;

    boolean disabled;
    /** Null until the first health check. */
    Instant checkedAt;
    /**
     * End of a hold out of extraction (not HEALTHY on some worker); null when none. While set on an
     * available slot, the slot is out of the index (held out) until the hold ends or its end passes.
     */
    Instant unhealthyUntil;

    /** The index sets the slot is in while available (AvailabilityIndex.add); null otherwise. */
    AvailabilityIndex.Filed[] filed;

    /** Creation order, the expiry queue's tie-break. */
    private final long seq = SEQUENCE.incrementAndGet();
    /** Whether the slot is in the store's expiry queue; its key (below) changes only while it is not. */
    boolean queued;
    /** The expiry-queue key: the proxy's expiresAt when queued. */
    private long expirySecond;

    private int expiryNano;

    Slot(Proxy proxy) {
        this.proxy = proxy;
    }

    /** Sets the expiry-queue key from the proxy; only while not queued. */
    void keyExpiry() {
        if (queued) {
            throw new IllegalStateException("the expiry key of a queued slot must not change");
        }
        Instant at = proxy.expiresAt();
        expirySecond = at.getEpochSecond();
        expiryNano = at.getNano();
    }

    /** Whether the queue key has passed at {@code now} (the proxy it was taken from is expired). */
    boolean expiryPassed(Instant now) {
        long s = now.getEpochSecond();
        return s > expirySecond || s == expirySecond && now.getNano() >= expiryNano;
    }

    /** Whether the queue key is before {@code t} (the proxy it was taken from has less than that left). */
    boolean expiresBefore(Instant t) {
        long s = t.getEpochSecond();
        return s > expirySecond || s == expirySecond && t.getNano() > expiryNano;
    }

    /** Whether the proxy has left the store. */
    boolean dead() {
        return proxy == null;
    }

    /** Leaves the store: drops what a queued dead slot need not keep. */
    void die() {
        proxy = null;
        filed = null;
        checkedAt = null;
        unhealthyUntil = null;
    }

    ProxyState state() {
        return disabled ? ProxyState.DISABLED : ProxyState.AVAILABLE;
    }

    StoredProxy view() {
        return new StoredProxy(proxy, state(), Optional.ofNullable(checkedAt));
    }
}
