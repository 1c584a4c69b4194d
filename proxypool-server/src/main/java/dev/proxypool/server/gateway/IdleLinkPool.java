package dev.proxypool.server.gateway;

import dev.proxypool.core.time.Ticker;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Idle keep-alive connections to one upstream proxy. LIFO: the most recently used link is the
 * least likely to have been closed by the proxy; links idle longer than {@code maxIdleNanos} are
 * dropped on the way (well below squid's 60 s persistent-connection timeout), and from the cold
 * end on every {@link #give}: LIFO never reaches the bottom of the stack, so without that a burst
 * of concurrency would keep its extra links open for good. A stale link that
 * slips through is caught by the wire layer, which retries once on a fresh one. After
 * {@link #closeAll()} the pool is closed: a link given back later (an exchange that was still
 * running) is closed instead of kept. Thread-safe.
 */
public final class IdleLinkPool {

    private record Idle(UpstreamLink link, long since) {}

    private final ConcurrentLinkedDeque<Idle> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger size = new AtomicInteger();
    private final int maxIdle;
    private final long maxIdleNanos;
    private final Ticker ticker;
    private volatile boolean closed;

    public IdleLinkPool(int maxIdle, long maxIdleNanos, Ticker ticker) {
        this.maxIdle = maxIdle;
        this.maxIdleNanos = maxIdleNanos;
        this.ticker = ticker;
    }

    /** A live idle link, or {@code null}. */
    public UpstreamLink take() {
        Idle e;
        while ((e = idle.pollFirst()) != null) {
            size.decrementAndGet();
            if (ticker.read() - e.since() < maxIdleNanos && !e.link().socket().isClosed()) {
                e.link().markReused();
                return e.link();
            }
            e.link().close();
        }
        return null;
    }

    public void give(UpstreamLink link) {
        if (closed) {
            link.close();
            return;
        }
        if (size.incrementAndGet() > maxIdle) {
            size.decrementAndGet();
            link.close();
            return;
        }
        long now = ticker.read();
        idle.offerFirst(new Idle(link, now));
        if (closed) { // closeAll ran between the check above and the offer
            closeAll();
            return;
        }
        dropStale(now);
    }

    /** Closes the links at the cold end that have been idle for {@code maxIdleNanos} or longer. */
    private void dropStale(long now) {
        for (int i = 0; i < maxIdle; i++) {
            Idle oldest = idle.peekLast();
            if (oldest == null || now - oldest.since() < maxIdleNanos) {
                return;
            }
            if (idle.removeLastOccurrence(oldest)) {
                size.decrementAndGet();
                oldest.link().close();
            }
        }
    }

    public int size() {
        return size.get();
    }

    /** Closes every idle link, and every link given back from now on. */
    public void closeAll() {
        closed = true;
        Idle e;
        while ((e = idle.pollFirst()) != null) {
            size.decrementAndGet();
            e.link().close();
        }
    }
}
