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
 * dropped when next looked at.
 *
 * <p>The engine closes idle connections from outside the loops ({@link #close}): when a proxy leaves
 * the pool, and on stop. The close runs on each loop as a task queued before anything the caller
 * does afterwards reaches that loop, so a request sent after the call finds none of them.
 */
public final class IdleUpstreams {

    /** Idle connections kept per key and loop; more are closed. */
    private static final int MAX_PER_KEY = 32;

    /** Every loop's pool, so that {@link #close} reaches them. */
    private static final Set<LoopPool> POOLS = ConcurrentHashMap.newKeySet();

    private static final FastThreadLocal<LoopPool> IDLE = new FastThreadLocal<>();

    /** One loop's idle connections; touched on that loop only. */
    private static final class LoopPool {
        final EventLoop loop;
        final Map<String, ArrayDeque<Channel>> byKey = new HashMap<>();

        LoopPool(EventLoop loop) {
            this.loop = loop;
        }

        void close(Predicate<String> keys) {
            for (Iterator<Map.Entry<String, ArrayDeque<Channel>>> it =
                            byKey.entrySet().iterator();
                    it.hasNext(); ) {
                Map.Entry<String, ArrayDeque<Channel>> e = it.next();
                if (keys.test(e.getKey())) {
                    e.getValue().forEach(Channel::close);
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
        ArrayDeque<Channel> q = pool(loop).byKey.get(key);
        if (q == null) {
            return null;
        }
        Channel c;
        while ((c = q.pollLast()) != null) {
            if (c.isActive()) {
                return c;
            }
        }
        return null;
    }

    /** Keeps {@code c} (registered with the calling loop) for the next request of {@code key}, or closes it. */
    static void give(String key, Channel c) {
        ArrayDeque<Channel> q = pool(c.eventLoop()).byKey.computeIfAbsent(key, k -> new ArrayDeque<>());
        q.removeIf(x -> !x.isActive());
        if (q.size() >= MAX_PER_KEY || !c.isActive()) {
            c.close();
            return;
        }
        q.addLast(c);
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
