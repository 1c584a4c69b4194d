package dev.proxypool.server.gateway;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Predicate;

/**
 * Idle keep-alive upstream connections of plain requests, per event loop (a connection is only ever
 * used by the loop it is registered with) and per {@link UpstreamDial#poolKey()} (the proxy's id):
 * each loop's pool is confined to the loop's thread, no locks. A connection that closes while idle is
 * dropped when next looked at; one idle for longer than {@value #MAX_IDLE_SECONDS} s is closed then
 * (proxies drop idle keep-alive connections on their own timers, often silently behind a NAT: reusing
 * one that old fails more often than dialing anew).
 *
 * <p>The engine closes idle connections from outside the loops ({@link #close}): when a proxy leaves
 * the pool, and on stop. The close runs on each loop as a task queued before anything the caller
 * does afterwards reaches that loop, so a request sent after the call finds none of them.
 */
public final class IdleUpstreams {

    /** Idle connections kept per key and loop; more are closed. */
    private static final int MAX_PER_KEY = 32;

    /** How long a connection may wait idle for its next request. */
    static final int MAX_IDLE_SECONDS = 15;

    private static final long MAX_IDLE_NANOS = MAX_IDLE_SECONDS * 1_000_000_000L;

    /** An idle connection and when it became idle ({@link System#nanoTime()}). */
    private record Idle(Channel channel, long since) {}

    /** Every loop's pool, so that {@link #close} reaches them. */
    private static final Set<LoopPool> POOLS = ConcurrentHashMap.newKeySet();

    private static final FastThreadLocal<LoopPool> IDLE = new FastThreadLocal<>();

    /** One loop's idle connections; touched on that loop only. */
    private static final class LoopPool {
        final EventLoop loop;
        final Map<String, ArrayDeque<Idle>> byKey = new HashMap<>();

        LoopPool(EventLoop loop) {
            this.loop = loop;
        }

        void close(Predicate<String> keys) {
            for (Iterator<Map.Entry<String, ArrayDeque<Idle>>> it =
                            byKey.entrySet().iterator();
                    it.hasNext(); ) {
                Map.Entry<String, ArrayDeque<Idle>> e = it.next();
                if (keys.test(e.getKey())) {
                    e.getValue().forEach(i -> i.channel().close());
                    it.remove();
                }
            }
        }
    }

    private IdleUpstreams() {}

    private static LoopPool pool(EventLoop loop) {
        LoopPool p = IDLE.get();
        if (p == null) {
            p = new LoopPool(loop);
            IDLE.set(p);
            POOLS.add(p);
        }
        return p;
    }

    /** An open idle connection for {@code key} on {@code loop} (the calling thread's), or null. */
    static Channel take(EventLoop loop, String key) {
        return take(loop, key, System.nanoTime());
    }

    /** {@link #take} at {@code now}: the most recently idle first; any idle too long is closed. */
    static Channel take(EventLoop loop, String key, long now) {
        ArrayDeque<Idle> q = pool(loop).byKey.get(key);
        if (q == null) {
            return null;
        }
        dropStale(q, now);
        Idle i;
        while ((i = q.pollLast()) != null) {
            if (i.channel().isActive()) {
                return i.channel();
            }
        }
        return null;
    }

    /** Keeps {@code c} (registered with the calling loop) for the next request of {@code key}, or closes it. */
    static void give(String key, Channel c) {
        give(key, c, System.nanoTime());
    }

    /** {@link #give} at {@code now}. */
    static void give(String key, Channel c, long now) {
        ArrayDeque<Idle> q = pool(c.eventLoop()).byKey.computeIfAbsent(key, k -> new ArrayDeque<>());
        dropStale(q, now);
        if (q.size() >= MAX_PER_KEY || !c.isActive()) {
            c.close();
            return;
        }
        q.addLast(new Idle(c, now));
    }

    /** Idle connections of one key waiting, closed ones included until next looked at (tests). */
    static int idle(EventLoop loop, String key) {
        ArrayDeque<Idle> q = pool(loop).byKey.get(key);
        return q == null ? 0 : q.size();
    }

    /** Closes the connections idle too long (the oldest are first) and forgets the closed ones. */
    private static void dropStale(ArrayDeque<Idle> q, long now) {
        Idle oldest;
        while ((oldest = q.peekFirst()) != null && now - oldest.since() > MAX_IDLE_NANOS) {
            q.pollFirst().channel().close();
        }
        q.removeIf(i -> !i.channel().isActive());
    }

    /** True once some loop pooled a connection (until the loops stop and a close notices). */
    public static boolean inUse() {
        return !POOLS.isEmpty();
    }

    /**
     * Closes, on every loop, the idle connections whose key {@code keys} accepts (a proxy that left the
     * pool; every key on stop). Keys are proxy ids, so a close for one server's proxies leaves another's
     * (in the same process) alone unless they share a proxy.
     *
     * @param keys which keys' connections to close
     */
    public static void close(Predicate<String> keys) {
        for (LoopPool p : POOLS) {
            if (p.loop.isShuttingDown()) {
                POOLS.remove(p);
                continue;
            }
            try {
                p.loop.execute(() -> p.close(keys));
            } catch (RejectedExecutionException e) {
                POOLS.remove(p); // the loop stopped: its connections went with it
            }
        }
    }
}
