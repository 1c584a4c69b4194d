package dev.proxypool.sdk.dial;

import dev.proxypool.core.time.Ticker;
import java.io.IOException;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps the connect and handshake deadlines of {@link UpstreamDialer#withSweptDeadlines() swept}
 * dials from one sweeper thread: a dial's connect and reads then run with no socket timeout, and a
 * deadline that passes closes the dial's socket, which ends the blocked connect or read.
 *
 * <p>Why: on a {@code SocketChannel}'s socket, the socket's {@code connect} (with a timeout or not)
 * switches the socket to non-blocking and back around the connect (four {@code fcntl} calls) and,
 * with a timeout, arms a timer; a read with a timeout on a virtual thread arms and cancels a timer.
 * The channel's own blocking {@code connect} and reads without a timeout set the socket non-blocking
 * once (two {@code fcntl}, which the first write would make anyway) and just park. A gateway dials
 * once per tunnel: four {@code fcntl} and two timers per tunnel.
 *
 * <p>Precision: a deadline fires within one period after it passed; the period is an eighth of the
 * shorter of the policy's two timeouts, between {@value #MIN_PERIOD_MILLIS} ms and
 * {@value #MAX_PERIOD_MILLIS} ms. The sweeper is a virtual thread that starts with the first watched
 * deadline and ends at the first sweep that finds none; thread-safe.
 */
final class DeadlineSweeper {

    static final long MIN_PERIOD_MILLIS = 10;
    static final long MAX_PERIOD_MILLIS = 1_000;

    /**
     * One deadline of one socket. Settled once: by the dialing thread ({@link #end()}) or by the
     * sweeper ({@link #expire()}), whichever comes first; a fresh object per deadline, so an expiry
     * decided for an ended one never touches the next.
     */
    static final class Deadline extends AtomicInteger {
        private static final int WATCHED = 0;
        private static final int ENDED = 1;
        private static final int EXPIRED = 2;

        private final Socket socket;
        private final long at;

        Deadline(Socket socket, long at) {
            this.socket = socket;
            this.at = at;
        }

        /** Settles it as ended in time; false when the sweeper expired it first (the socket is closed then). */
        boolean end() {
            return compareAndSet(WATCHED, ENDED);
        }

        /** True when the sweeper expired it: the operation failed because it closed the socket. */
        boolean expired() {
            return get() == EXPIRED;
        }

        void expire() {
            if (compareAndSet(WATCHED, EXPIRED)) {
                try {
                    socket.close();
                } catch (IOException ignored) {
                    // closing it is all we can do
                }
            }
        }
    }

    private final Ticker ticker;
    private final long periodNanos;
    private final Set<Deadline> watched = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean sweeping = new AtomicBoolean();

    DeadlineSweeper(Ticker ticker, DialPolicy policy) {
        this.ticker = ticker;
        this.periodNanos = periodFor(policy);
    }

    static long periodFor(DialPolicy policy) {
        Duration shorter = policy.connectTimeout().compareTo(policy.handshakeTimeout()) < 0
                ? policy.connectTimeout()
                : policy.handshakeTimeout();
        return Math.clamp(shorter.toMillis() / 8, MIN_PERIOD_MILLIS, MAX_PERIOD_MILLIS) * 1_000_000L;
    }

    long periodNanos() {
        return periodNanos;
    }

    /** Watches {@code socket} until {@code at} ({@link Ticker} time): then it is closed unless ended first. */
    Deadline watch(Socket socket, long at) {
        Deadline d = new Deadline(socket, at);
        watched.add(d);
        if (!sweeping.get() && sweeping.compareAndSet(false, true)) {
            Thread.ofVirtual().name("dial-deadline-sweeper").start(this::sweepLoop);
        }
        return d;
    }

    /**
     * Stops watching {@code d} and settles it.
     *
     * @return true when it ended in time; false when it expired (its socket is closed)
     */
    boolean end(Deadline d) {
        watched.remove(d);
        return d.end();
    }

    /** Deadlines watched now. */
    int watching() {
        return watched.size();
    }

    /** One sweep: expires every passed deadline; returns how many. */
    int sweep() {
        long now = ticker.read();
        int expired = 0;
        for (Deadline d : watched) {
            if (now - d.at >= 0 && watched.remove(d)) {
                expired++;
                d.expire();
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
                // a deadline watched between the check and the reset saw sweeping == true and started no
                // thread: carry on for it, unless a new watch already started a sweeper of its own
                if (watched.isEmpty() || !sweeping.compareAndSet(false, true)) {
                    return;
                }
            }
        }
    }
}
