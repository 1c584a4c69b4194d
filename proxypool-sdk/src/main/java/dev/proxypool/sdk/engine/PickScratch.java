package dev.proxypool.sdk.engine;

import dev.proxypool.core.dispatch.ReusablePick;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The engine's caller-owned pick results ({@link ReusablePick}), one per stripe: a caller takes the
 * one of its thread's stripe for the length of one pick and puts it back, so a pick allocates
 * nothing in steady state, whether the caller is a platform thread (an event loop), one virtual
 * thread per connection, or many threads at once. Taking is an exchange (never shared: no race on
 * the result's fields); a caller that finds its stripe's result taken (another thread of the same
 * stripe is picking) uses a new one, and one of the two is dropped when both are put back.
 *
 * <p>A result is back with its reservation ended (the lease took the unit over, or nothing was
 * reserved). A result keeps the snapshot of its last successful pick reachable until its next one,
 * so at most {@link #stripes()} snapshots besides the live one.
 */
final class PickScratch {

    /** 16 references apart: two stripes' slots never share a 64-byte cache line. */
    private static final int SPACING = 16;

    private final AtomicReferenceArray<ReusablePick> slots;
    private final int mask;

    /** @param minStripes at least this many stripes (rounded up to a power of two) */
    PickScratch(int minStripes) {
        int stripes = Integer.highestOneBit(Math.max(1, minStripes - 1)) << 1;
        this.mask = stripes - 1;
        this.slots = new AtomicReferenceArray<>(stripes * SPACING);
        for (int i = 0; i < stripes; i++) {
            slots.set(i * SPACING, new ReusablePick());
        }
    }

    /** Stripes for this machine: four per core. */
    static PickScratch forThisMachine() {
        return new PickScratch(4 * Runtime.getRuntime().availableProcessors());
    }

    int stripes() {
        return mask + 1;
    }

    private int index() {
        long id = Thread.currentThread().threadId();
        int h = (int) (id ^ (id >>> 32)) * 0x9E3779B9; // spreads consecutive ids (virtual threads) over the stripes
        return ((h >>> 16) & mask) * SPACING;
    }

    /** This thread's stripe's result, taken for one pick; a new one when another thread holds it. */
    ReusablePick take() {
        ReusablePick p = slots.getAndSet(index(), null);
        return p != null ? p : new ReusablePick();
    }

    /** Puts a result taken by this thread back (its reservation ended). */
    void give(ReusablePick p) {
        slots.setRelease(index(), p);
    }
}
