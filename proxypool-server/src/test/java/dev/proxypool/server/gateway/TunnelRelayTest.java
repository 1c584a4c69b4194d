package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.Ticker;
import dev.proxypool.testkit.Await;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The selector relay of established tunnels ({@link TunnelRelay}) on real loopback sockets: bytes
 * both ways, half-close from either side, back-pressure (a client that reads late gets every byte,
 * in order), an upstream reset reported as such, an explicit close and the close grace after the
 * upstream's end; and the gateway's own listener putting its tunnels on it, and ending them at shutdown.
 */
@Timeout(60)
class TunnelRelayTest {

    private static final long GRACE = TimeUnit.SECONDS.toNanos(5);

    private ServerSocketChannel server;

    @BeforeEach
    void listen() throws IOException {
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    @AfterEach
    void close() throws IOException {
        server.close();
    }

    /** [0] the end the test holds (client or upstream server), [1] the end handed to the relay. */
    private SocketChannel[] pair() throws IOException {
        SocketChannel mine = SocketChannel.open(server.getLocalAddress());
        SocketChannel relayed = server.accept();
        return new SocketChannel[] {mine, relayed};
    }

    /** A session started and awaited on its own thread, as a gateway connection does. */
    private static final class Running {
        volatile TunnelRelay.Session session;
        final Thread thread;

        Running(SocketChannel client, SocketChannel upstream, long graceNanos) throws InterruptedException {
            TunnelRelay relay = TunnelRelay.shared();
            assertNotNull(relay, "the selector relay is on by default");
            CountDownLatch started = new CountDownLatch(1);
            thread = Thread.ofVirtual().start(() -> {
                session = relay.start(client, upstream, Ticker.system(), graceNanos);
                started.countDown();
                session.await();
            });
            assertTrue(started.await(10, TimeUnit.SECONDS));
        }

        void awaitEnd() throws InterruptedException {
            assertTrue(thread.join(Duration.ofSeconds(10)), "the session ends");
            assertTrue(session.done());
        }
    }

    @Test
    void relaysBothWaysAndKeepsTheClientsSideOpenAfterTheUpstreamsEnd() throws Exception {
        SocketChannel[] c = pair();
        SocketChannel[] u = pair();
        Running r = new Running(c[1], u[1], GRACE);
        write(c[0], "hello");
        assertEquals("hello", read(u[0], 5));
        write(u[0], "world");
        u[0].shutdownOutput();
        assertEquals("world", readToEnd(c[0]), "the upstream's end reaches the client as an end of stream");
        write(c[0], "more");
        assertEquals("more", read(u[0], 4), "the client's direction still flows (half-close)");
        c[0].shutdownOutput();
        assertEquals("", readToEnd(u[0]));
        r.awaitEnd();
        assertEquals(5, r.session.bytesDown());
        assertEquals(9, r.session.bytesUp());
        assertFalse(r.session.upstreamBroke());
        assertFalse(c[1].isOpen() || u[1].isOpen(), "both relayed channels are closed at the end");
        closeAll(c[0], u[0]);
    }

    @Test
    void clientEndFirstHalfClosesTheUpstreamWhichMayStillAnswer() throws Exception {
        SocketChannel[] c = pair();
        SocketChannel[] u = pair();
        Running r = new Running(c[1], u[1], GRACE);
        write(c[0], "request");
        c[0].shutdownOutput();
        assertEquals("request", readToEnd(u[0]));
        byte[] answer = pattern(300_000);
        writeAll(u[0], answer);
        u[0].close();
        assertArrayEquals(answer, readAll(c[0]));
        r.awaitEnd();
        assertEquals(answer.length, r.session.bytesDown());
        closeAll(c[0]);
    }

    @Test
    void aClientThatReadsLateGetsEveryByteInOrder() throws Exception {
        SocketChannel[] c = pair();
        SocketChannel[] u = pair();
        c[0].setOption(StandardSocketOptions.SO_RCVBUF, 16 * 1024);
        Running r = new Running(c[1], u[1], GRACE);
        byte[] bulk = pattern(24 * 1024 * 1024); // far beyond both sockets' buffers: partial writes, paused reads
        Thread writer = Thread.ofVirtual().start(() -> {
            try {
                writeAll(u[0], bulk);
                u[0].shutdownOutput();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        Await.atMost(Duration.ofSeconds(10))
                .until(
                        "the upstream's writer to be held back by the unread client",
                        () -> writer.getState() == Thread.State.WAITING);
        MessageDigest want = MessageDigest.getInstance("SHA-256");
        MessageDigest got = MessageDigest.getInstance("SHA-256");
        want.update(bulk);
        ByteBuffer b = ByteBuffer.allocate(64 * 1024);
        long total = 0;
        while (c[0].read(b.clear()) >= 0) {
            got.update(b.flip());
            total += b.limit();
        }
        assertEquals(bulk.length, total);
        assertArrayEquals(want.digest(), got.digest());
        c[0].shutdownOutput();
        r.awaitEnd();
        assertEquals(bulk.length, r.session.bytesDown());
        assertTrue(writer.join(Duration.ofSeconds(10)));
        closeAll(c[0], u[0]);
    }

    @Test
    void anUpstreamResetEndsTheTunnelAndIsReportedAsABreak() throws Exception {
        SocketChannel[] c = pair();
        SocketChannel[] u = pair();
        Running r = new Running(c[1], u[1], GRACE);
        write(c[0], "x");
        assertEquals("x", read(u[0], 1));
        u[0].setOption(StandardSocketOptions.SO_LINGER, 0);
        u[0].close(); // RST
        r.awaitEnd();
        assertTrue(r.session.upstreamBroke(), "a reset read from the upstream counts against the proxy");
        closeAll(c[0]);
    }

    @Test
    void closeEndsTheSessionWithoutCountingABreak() throws Exception {
        SocketChannel[] c = pair();
        SocketChannel[] u = pair();
        Running r = new Running(c[1], u[1], GRACE);
        r.session.close();
        r.awaitEnd();
        assertFalse(r.session.upstreamBroke());
        assertEquals("", readToEnd(c[0]), "the client sees the end");
        assertEquals("", readToEnd(u[0]), "the upstream sees the end");
        closeAll(c[0], u[0]);
    }

    @Test
    void aClientSilentAfterTheUpstreamsEndIsClosedAfterTheGrace() throws Exception {
        SocketChannel[] c = pair();
        SocketChannel[] u = pair();
        Running r = new Running(c[1], u[1], TimeUnit.MILLISECONDS.toNanos(200));
        long t0 = System.nanoTime();
        u[0].shutdownOutput();
        r.awaitEnd();
        long took = System.nanoTime() - t0;
        assertTrue(took >= TimeUnit.MILLISECONDS.toNanos(150), "not before the grace: " + took);
        assertFalse(c[1].isOpen());
        closeAll(c[0], u[0]);
    }

    @Test
    void theListenersTunnelsRunOnTheRelayAndShutdownEndsThem() throws Exception {
        try (TestOrigin origin = TestOrigin.http()) {
            DirectEngine engine = new DirectEngine();
            GatewayFixture gw = new GatewayFixture(engine);
            long before = TunnelRelay.shared().sessionsStarted();
            try (RawClient c = gw.client()) {
                c.send("CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n");
                assertEquals(200, c.read(true).status());
                assertEquals(
                        "hello",
                        c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").read().text());
                assertTrue(TunnelRelay.shared().sessionsStarted() > before, "the tunnel went to the selector relay");
                gw.listener.stop(Duration.ofMillis(100)); // a tunnel is never idle for shutdown: it is aborted
                assertTrue(c.closedByServer(), "shutdown ends the relayed tunnel");
            }
            GatewayFixture.awaitInFlightZero(engine);
            Await.atMost(Duration.ofSeconds(5))
                    .until("the tunnel to leave the watchdog", gw.gateway.tunnelWatchdog()::watching, n -> n == 0);
        }
    }

    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + (i >>> 11));
        }
        return b;
    }

    private static void write(SocketChannel ch, String s) throws IOException {
        writeAll(ch, s.getBytes(StandardCharsets.US_ASCII));
    }

    private static void writeAll(SocketChannel ch, byte[] b) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(b);
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }

    private static String read(SocketChannel ch, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                break;
            }
        }
        return new String(b.array(), 0, b.position(), StandardCharsets.US_ASCII);
    }

    private static String readToEnd(SocketChannel ch) throws IOException {
        return new String(readAll(ch), StandardCharsets.US_ASCII);
    }

    private static byte[] readAll(SocketChannel ch) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer b = ByteBuffer.allocate(64 * 1024);
        while (ch.read(b.clear()) >= 0) {
            out.write(b.array(), 0, b.position());
        }
        return out.toByteArray();
    }

    private static void closeAll(SocketChannel... chs) throws IOException {
        for (SocketChannel ch : chs) {
            ch.close();
        }
    }
}
