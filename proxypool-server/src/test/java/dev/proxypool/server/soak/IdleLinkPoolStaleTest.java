package dev.proxypool.server.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.ManualClock;
import dev.proxypool.server.gateway.IdleLinkPool;
import dev.proxypool.server.gateway.UpstreamLink;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Idle links are taken LIFO, so the bottom of the stack is never reached: links left over from a
 * burst of concurrency must still close once idle too long (found by the 30-minute soak: open file
 * descriptors rose by 4 after each latency spike and never came back).
 */
class IdleLinkPoolStaleTest {

    private static final Duration MAX_IDLE = Duration.ofSeconds(15);

    @Test
    void linksIdleTooLongAtTheColdEndAreClosedWhenAnotherComesBack() throws Exception {
        ManualClock clock = new ManualClock();
        IdleLinkPool pool = new IdleLinkPool(64, MAX_IDLE.toNanos(), clock);
        List<Socket> accepted = new ArrayList<>();
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            UpstreamLink burst1 = link(server, accepted);
            UpstreamLink burst2 = link(server, accepted);
            UpstreamLink steady = link(server, accepted);
            pool.give(burst1);
            pool.give(burst2);
            assertEquals(2, pool.size());

            clock.advance(MAX_IDLE.plusSeconds(1));
            pool.give(steady); // the steady link keeps coming back; the burst's links never get taken

            assertTrue(burst1.socket().isClosed(), "a link idle past the limit is closed");
            assertTrue(burst2.socket().isClosed(), "a link idle past the limit is closed");
            assertFalse(steady.socket().isClosed());
            assertEquals(1, pool.size());
            assertSame(steady, pool.take());
            assertNull(pool.take());
            steady.close();
        } finally {
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    @Test
    void linksWithinTheIdleLimitStay() throws Exception {
        ManualClock clock = new ManualClock();
        IdleLinkPool pool = new IdleLinkPool(64, MAX_IDLE.toNanos(), clock);
        List<Socket> accepted = new ArrayList<>();
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            UpstreamLink older = link(server, accepted);
            UpstreamLink newer = link(server, accepted);
            pool.give(older);
            clock.advance(MAX_IDLE.minusSeconds(1));
            pool.give(newer);
            assertEquals(2, pool.size());
            assertFalse(older.socket().isClosed());
            assertSame(newer, pool.take());
            assertSame(older, pool.take());
            older.close();
            newer.close();
        } finally {
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    private static UpstreamLink link(ServerSocket server, List<Socket> accepted) throws Exception {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()), 5_000);
        accepted.add(server.accept());
        return UpstreamLink.of(s, UpstreamLink.Mode.FORWARD, null, null);
    }
}
