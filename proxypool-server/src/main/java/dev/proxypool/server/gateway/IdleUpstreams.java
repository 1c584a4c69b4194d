package dev.proxypool.server.gateway;

import io.netty.channel.Channel;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Idle keep-alive upstream connections of plain requests, per event loop (a connection is only ever
 * used by the loop it is registered with) and per {@link UpstreamDial#poolKey()}: confined to the
 * loop's thread, no locks. A connection that closes while idle is dropped when next looked at.
 */
final class IdleUpstreams {

    /** Idle connections kept per key and loop; more are closed. */
    private static final int MAX_PER_KEY = 32;

    private static final FastThreadLocal<Map<String, ArrayDeque<Channel>>> IDLE = new FastThreadLocal<>() {
        @Override
        protected Map<String, ArrayDeque<Channel>> initialValue() {
            return new HashMap<>();
        }
    };

    private IdleUpstreams() {}

    /** An open idle connection for {@code key} on the calling loop, or null. */
    static Channel take(String key) {
        ArrayDeque<Channel> q = IDLE.get().get(key);
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
        ArrayDeque<Channel> q = IDLE.get().computeIfAbsent(key, k -> new ArrayDeque<>());
        q.removeIf(x -> !x.isActive());
        if (q.size() >= MAX_PER_KEY || !c.isActive()) {
            c.close();
            return;
        }
        q.addLast(c);
    }
}
