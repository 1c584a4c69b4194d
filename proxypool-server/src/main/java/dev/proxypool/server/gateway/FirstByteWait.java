package dev.proxypool.server.gateway;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Waits for the first byte of a client's request (keep-alive idle wait, or the start of a SOCKS
 * greeting) with a read that has no timeout, the deadline being kept by the gateway's connection
 * {@link IdleWatchdog}: when it passes, the watchdog shuts the connection's input down and the
 * blocked read returns end of stream.
 *
 * <p>Why: on a socket channel (the listener accepts through a {@code ServerSocketChannel}) a
 * blocking read <em>with</em> a timeout switches the socket to non-blocking and back around every
 * read (four {@code fcntl} calls) and arms and cancels a timer for the parked virtual thread; a read
 * without a timeout sets non-blocking once per socket and just parks. The first read of a connection
 * usually returns the whole request head, so this wait is, per tunnel, the only timed read left on
 * the client side. Only the wait for the first byte is moved: expiry shuts the input down, which is
 * harmless for a connection closed without an answer, but would make the lingering close after a
 * {@code 408} answer impossible (the reads that drain the client's last bytes, so the close does not
 * turn into a reset that destroys the answer). The rest of a head that did not come in one read keeps
 * its timed reads under {@code requestHeadTimeout}.
 *
 * <p>Precision: the wait ends up to one watchdog period after its deadline (see {@link IdleWatchdog}).
 * One object per wait, so an expiry decided by the sweeper for an earlier wait can never shut down a
 * later one; its state is settled once, by the connection ({@link #end()}) or the sweeper ({@link
 * #expire()}), whichever comes first.
 */
final class FirstByteWait extends AtomicInteger implements IdleWatchdog.Watched {

    private static final int WAITING = 0;
    private static final int ENDED = 1;
    private static final int EXPIRED = 2;

    private final ClientChannel ch;
    private final long since;
    private final long timeoutNanos;

    private FirstByteWait(ClientChannel ch, long since, long timeoutNanos) {
        this.ch = ch;
        this.since = since;
        this.timeoutNanos = timeoutNanos;
    }

    /**
     * Fills {@code in} once (it must be empty), waiting at most {@code timeoutNanos} from {@code
     * since} (plus up to a watchdog period), with no read timeout on the socket.
     *
     * @param ch a channel whose {@link ClientChannel#readsInterruptible()} is true
     * @return true when bytes arrived in time; false at end of stream or when the deadline passed (the
     *         input is shut down then: the connection must end)
     */
    static boolean fill(WireReader in, ClientChannel ch, IdleWatchdog watchdog, long since, long timeoutNanos)
            throws IOException {
        ch.readTimeout(0);
        FirstByteWait w = new FirstByteWait(ch, since, timeoutNanos);
        watchdog.watch(w);
        boolean filled;
        try {
            filled = in.fill();
        } finally {
            watchdog.unwatch(w);
        }
        return w.end() && filled;
    }

    /** Settles the wait as ended by the connection; false when the watchdog expired it first. */
    private boolean end() {
        return compareAndSet(WAITING, ENDED);
    }

    @Override
    public long lastActivity() {
        return since;
    }

    @Override
    public long idleNanos() {
        return timeoutNanos;
    }

    @Override
    public void expire() {
        if (compareAndSet(WAITING, EXPIRED)) {
            ch.shutdownInput();
        }
    }
}
