package dev.proxypool.server.gateway;

import dev.proxypool.core.time.Ticker;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Closes what has been idle too long from one sweeper thread, so the blocking reads it guards need
 * no timeout of their own. A read with a timeout on a virtual thread arms a timer before it parks
 * and cancels it after, on every read; an established tunnel does that twice per relayed chunk. With
 * the watchdog, a watched party only writes a volatile time stamp per transfer, and the sweeper
 * reads those stamps once per period.
 *
 * <p>Precision: a party idle for its {@link Watched#idleNanos()} is expired within one period after
 * that (the period is an eighth of the watched timeout, between {@value #MIN_PERIOD_MILLIS} ms and
 * {@value #MAX_PERIOD_MILLIS} ms). The sweeper is a virtual thread that starts with the first watched
 * party and ends at the first sweep that finds nothing to watch; thread-safe.
 */
final class IdleWatchdog {

    static final long MIN_PERIOD_MILLIS = 10;
    static final long MAX_PERIOD_MILLIS = 1_000;

    /** Something the watchdog may expire. */
    interface Watched {

        /** The {@link Ticker} time of the last transfer; written by the party, read by the sweeper. */
        long lastActivity();

        /** How long without a transfer makes the party idle. */
        long idleNanos();

        /** Ends the party because it was idle; called once, from the sweeper, never while holding a lock. */
        void expire();
    }

    private final Ticker ticker;
    private final long periodNanos;
    private final Set<Watched> watched = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean sweeping = new AtomicBoolean();

    /** @param timeout the (typical) idle timeout of the watched parties; sets the sweep period */
    IdleWatchdog(Ticker ticker, Duration timeout) {
        this.ticker = ticker;
        this.periodNanos = periodFor(timeout);
    }

    static long periodFor(Duration timeout) {
        long millis = Math.clamp(timeout.toMillis() / 8, MIN_PERIOD_MILLIS, MAX_PERIOD_MILLIS);
        return millis * 1_000_000L;
    }

    /** Starts watching {@code w} (its {@link Watched#lastActivity()} must be set already). */
    void watch(Watched w) {
        watched.add(w);
        if (!sweeping.get() && sweeping.compareAndSet(false, true)) {
            Thread.ofVirtual().name("gateway-idle-watchdog").start(this::sweepLoop);
        }
    }

    /** Stops watching {@code w}; harmless when it was expired already. */
    void unwatch(Watched w) {
        watched.remove(w);
    }

    /** Parties watched now. */
    int watching() {
        return watched.size();
    }

    /** True while a sweeper thread runs. */
    boolean sweeping() {
        return sweeping.get();
    }

    /** One sweep: expires every party idle for at least its timeout; returns how many. */
    int sweep() {
        long now = ticker.read();
        int expired = 0;
        for (Watched w : watched) {
            if (now - w.lastActivity() >= w.idleNanos() && watched.remove(w)) {
                expired++;
                try {
                    w.expire();
                } catch (RuntimeException e) {
                    // one party failing to close must not stop the sweeps of the others
                }
            }
        }
        return expired;
    }

    private void sweepLoop() {
        while (true) {
            LockSupport.parkNanos(periodNanos);
            sweep();
            if (watched.isEmpty()) {
                sweeping.set(false);
                // a party watched between the check and the reset saw sweeping == true and started no
                // thread: carry on for it, unless a new watch already started a sweeper of its own
                if (watched.isEmpty() || !sweeping.compareAndSet(false, true)) {
                    return;
                }
            }
        }
    }
}
