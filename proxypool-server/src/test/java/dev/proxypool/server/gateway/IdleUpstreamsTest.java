package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The event loops' pool of idle keep-alive upstream connections: the most recently idle is reused first,
 * one closed by its proxy is never handed out, one idle too long is closed when the pool is next touched,
 * at most 32 wait per key, and a proxy leaving the pool closes its connections. Netty's embedded channels
 * stand in for upstream connections (the test thread is their loop).
 */
class IdleUpstreamsTest {

    private static final long SECOND = 1_000_000_000L;
    private final List<EmbeddedChannel> channels = new ArrayList<>();
    private final String key = "proxy-" + System.nanoTime(); // the pools are per thread and key: one key per test

    private EmbeddedChannel channel() {
        EmbeddedChannel c = new EmbeddedChannel();
        channels.add(c);
        return c;
    }

    @AfterEach
    void closeAll() {
        IdleUpstreams.close(k -> k.equals(key));
        channels.forEach(c -> c.finishAndReleaseAll());
    }

    @Test
    void theMostRecentlyIdleIsReusedFirstAndAClosedOneIsNeverHandedOut() {
        EmbeddedChannel older = channel();
        EmbeddedChannel newer = channel();
        IdleUpstreams.give(key, older, 0);
        IdleUpstreams.give(key, newer, SECOND);
        assertSame(newer, IdleUpstreams.take(newer.eventLoop(), key, 2 * SECOND));
        newer.close();
        older.close(); // the proxy closed it while it waited
        assertNull(IdleUpstreams.take(older.eventLoop(), key, 3 * SECOND));
        assertEquals(0, IdleUpstreams.idle(older.eventLoop(), key));
    }

    @Test
    void aConnectionIdleLongerThanTheLimitIsClosedWhenThePoolIsNextTouched() {
        EmbeddedChannel stale = channel();
        EmbeddedChannel fresh = channel();
        long limit = IdleUpstreams.MAX_IDLE_SECONDS * SECOND;
        IdleUpstreams.give(key, stale, 0);
        IdleUpstreams.give(key, fresh, limit);
        assertTrue(stale.isActive(), "not touched yet: still open");
        Channel got = IdleUpstreams.take(fresh.eventLoop(), key, limit + SECOND);
        assertSame(fresh, got);
        assertFalse(stale.isActive(), "idle past the limit: closed, not reused");
        assertEquals(0, IdleUpstreams.idle(fresh.eventLoop(), key));

        EmbeddedChannel alone = channel();
        IdleUpstreams.give(key, alone, 0);
        assertNull(IdleUpstreams.take(alone.eventLoop(), key, limit + 1), "the only one, too old");
        assertFalse(alone.isActive());
    }

    @Test
    void atMost32WaitPerKeyAndAProxyLeavingClosesItsConnections() {
        List<EmbeddedChannel> kept = new ArrayList<>();
        for (int i = 0; i < 33; i++) {
            EmbeddedChannel c = channel();
            kept.add(c);
            IdleUpstreams.give(key, c, i);
        }
        assertEquals(32, IdleUpstreams.idle(kept.getFirst().eventLoop(), key));
        assertFalse(kept.getLast().isActive(), "the 33rd is closed, not kept");
        IdleUpstreams.close(k -> k.equals(key));
        for (EmbeddedChannel c : kept) {
            c.runPendingTasks(); // the close runs as a task on each connection's loop
        }
        assertTrue(kept.stream().noneMatch(Channel::isActive), "every idle connection of the leaving proxy closed");
    }
}
