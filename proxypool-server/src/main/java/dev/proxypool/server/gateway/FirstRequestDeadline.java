package dev.proxypool.server.gateway;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The deadline from a connection's accept to its first complete request ({@code
 * server.firstRequestTimeout}): the HTTP request head, or the SOCKS5 greeting, credentials and
 * request; a TLS handshake is part of it, being done by the first read. Kept by the gateway's
 * connection {@link IdleWatchdog}: when it passes, the connection is aborted ({@link
 * ClientChannel#abort()}: the plain socket under it is closed, which also ends a TLS handshake
 * blocked in a read), so that neither a silent client nor one trickling its ClientHello or head a
 * byte at a time holds a connection longer than the deadline plus one watchdog period.
 *
 * <p>Why one deadline from accept: the per-read timeouts cannot bound a handshake (each trickled byte
 * starts a new read), and {@code requestHeadTimeout} starts at a head's first byte, so before it a
 * connection had only the keep-alive idle timeout. Settled once, by the connection ({@link #met()})
 * or the sweeper ({@link #expire()}), whichever comes first.
 */
final class FirstRequestDeadline extends AtomicInteger implements IdleWatchdog.Watched {

    private static final int WAITING = 0;
    private static final int MET = 1;
    private static final int EXPIRED = 2;

    private final ClientChannel ch;
    private final IdleWatchdog watchdog;
    private final long since;
    private final long timeoutNanos;
    private final Runnable expired;

    private FirstRequestDeadline(
            ClientChannel ch, IdleWatchdog watchdog, long since, long timeoutNanos, Runnable expired) {
        this.ch = ch;
        this.watchdog = watchdog;
        this.since = since;
        this.timeoutNanos = timeoutNanos;
        this.expired = expired;
    }

    /**
     * Starts the deadline of a connection accepted at {@code since}, or returns an already met one
     * when the channel cannot be aborted from another thread (then its reads keep their timeouts).
     *
     * @param expired run once when the deadline aborts the connection (the metric)
     */
    static FirstRequestDeadline start(
            ClientChannel ch, IdleWatchdog watchdog, long since, long timeoutNanos, Runnable expired) {
        FirstRequestDeadline d = new FirstRequestDeadline(ch, watchdog, since, timeoutNanos, expired);
        if (ch.abortable()) {
            watchdog.watch(d);
        } else {
            d.set(MET);
        }
        return d;
    }

    /** True while the deadline guards the connection: its reads may then go without a timeout. */
    boolean guarding() {
        return get() == WAITING;
    }

    /** The {@link dev.proxypool.core.time.Ticker} time at which the first request must be complete. */
    long deadline() {
        return since + timeoutNanos;
    }

    /**
     * The first request is complete (or the connection ends): stops the deadline.
     *
     * @return false when the deadline had expired first (the connection is being aborted)
     */
    boolean met() {
        if (compareAndSet(WAITING, MET)) {
            watchdog.unwatch(this);
            return true;
        }
        return get() == MET;
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
            ch.abort();
            expired.run();
        }
    }
}
