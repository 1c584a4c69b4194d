package dev.proxypool.server.gateway;

import dev.proxypool.core.time.Ticker;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Idle keep-alive connections to one upstream proxy. LIFO: the most recently used link is the
 * least likely to have been closed by the proxy; links idle longer than {@code maxIdleNanos} are
 * dropped on the way (well below squid's 60 s persistent-connection timeout). A stale link that
 * slips through is caught by the wire layer, which retries once on a fresh one. Thread-safe.
 */
public final class IdleLinkPool {

    private record Idle(UpstreamLink link, long since) {
    }

    private final ConcurrentLinkedDeque<Idle> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger size = new AtomicInteger();
    private final int maxIdle;
    private final long maxIdleNanos;
    private final Ticker ticker;

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
        if (size.incrementAndGet() > maxIdle) {
            size.decrementAndGet();
            link.close();
            return;
        }
        idle.offerFirst(new Idle(link, ticker.read()));
    }

    public int size() {
        return size.get();
    }

    public void closeAll() {
        Idle e;
        while ((e = idle.pollFirst()) != null) {
            size.decrementAndGet();
            e.link().close();
        }
    }
}
