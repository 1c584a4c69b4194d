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
import java.time.InstantSource;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The selector relay of established tunnels ({@link TunnelRelay}) on real loopback sockets: bytes
 * both ways, half-close from either side, back-pressure (a client that reads late gets every byte,
 * in order), an upstream reset reported as such, an explicit close and the close grace after the
 * upstream's end; and the gateway's own listener putting its tunnels on it, and ending them at shutdown.
 * A session with an end callback runs it once, on the relay's thread; a gateway connection whose tunnel
 * is on the relay is handed over to it (its thread returns, the relay's completes and closes it), except
 * with the access log on (a log line's I/O must not stall the relay).
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
    void aListenersTunnelCarriesBytesAndShutdownEndsIt() throws Exception {
        try (TestOrigin origin = TestOrigin.http()) {
            DirectEngine engine = new DirectEngine();
            GatewayFixture gw = new GatewayFixture(engine);
            try (RawClient c = gw.client()) {
                c.send("CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n");
                assertEquals(200, c.read(true).status());
                assertEquals(
                        "hello",
                        c.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n").read().text());
                gw.listener.stop(Duration.ofMillis(100)); // a tunnel is never idle for shutdown: it is aborted
                assertTrue(c.closedByServer(), "shutdown ends the relayed tunnel");
            }
            GatewayFixture.awaitInFlightZero(engine);
            Await.atMost(Duration.ofSeconds(5))
                    .until("the tunnel's connection no longer counted open", gw.gateway::openConnections, n -> n == 0);
        }
    }

    @Test
    void anEndCallbackRunsOnceOnTheRelayThreadWithTheFinalCountsAndNobodyWaits() throws Exception {
        SocketChannel[] c = pair();
        SocketChannel[] u = pair();
        AtomicInteger calls = new AtomicInteger();
        AtomicReference<String> thread = new AtomicReference<>();
        AtomicLong down = new AtomicLong();
        AtomicLong up = new AtomicLong();
        CountDownLatch ended = new CountDownLatch(1);
        TunnelRelay.Session s = TunnelRelay.shared().start(c[1], u[1], Ticker.system(), GRACE, done -> {
            calls.incrementAndGet();
            thread.set(Thread.currentThread().getName());
            down.set(done.bytesDown());
            up.set(done.bytesUp());
            ended.countDown();
        });
        write(c[0], "ping");
        assertEquals("ping", read(u[0], 4));
        write(u[0], "pong!");
        assertEquals("pong!", read(c[0], 5));
        c[0].shutdownOutput();
        u[0].shutdownOutput();
        assertTrue(ended.await(10, TimeUnit.SECONDS), "the callback runs when the tunnel ends");
        assertTrue(s.done());
        assertEquals(1, calls.get());
        assertTrue(thread.get().startsWith("gateway-tunnel-relay-"), "on the relay's thread: " + thread.get());
        assertEquals(5, down.get(), "bytes to the client, final when the callback runs");
        assertEquals(4, up.get());
        assertFalse(c[1].isOpen() || u[1].isOpen(), "both relayed channels are closed before the callback");
        closeAll(c[0], u[0]);
    }

    @Test
    void aConnectionWhoseTunnelIsOnTheRelayIsHandedOverAndClosedOnceWhenTheTunnelEnds() throws Exception {
        try (TestOrigin origin = TestOrigin.http()) {
            DirectEngine engine = new DirectEngine();
            try (GatewayFixture gw = new GatewayFixture(engine);
                    SocketChannel client = SocketChannel.open(server.getLocalAddress());
                    SocketChannel accepted = server.accept()) {
                Served served = new Served(gw.gateway, accepted);
                write(client, "CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n");
                assertTrue(readHead(client).startsWith("HTTP/1.1 200"));
                write(client, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                assertTrue(readHead(client).startsWith("HTTP/1.1 200"));
                assertEquals("hello", read(client, 5));
                assertTrue(
                        served.returned.await(10, TimeUnit.SECONDS),
                        "the connection's thread returned while its tunnel is still open");
                assertEquals(0, served.closedCalls.get(), "not closed while the tunnel relays");
                assertEquals(
                        1, gw.gateway.openConnections(), "the handed-over connection still counts (shutdown sees it)");
                assertEquals(1, engine.inFlight(), "the attempt holds its capacity for the tunnel's life");
                write(client, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                assertTrue(readHead(client).startsWith("HTTP/1.1 200"), "the tunnel still carries bytes");
                assertEquals("hello", read(client, 5));
                client.close();
                assertTrue(served.closed.await(10, TimeUnit.SECONDS), "the tunnel's end closes the connection");
                assertEquals(1, served.closedCalls.get(), "closed exactly once");
                assertTrue(
                        served.closedOn.get().startsWith("gateway-tunnel-relay-"),
                        "completed on the relay's thread: " + served.closedOn.get());
                assertEquals(0, gw.gateway.openConnections());
                assertEquals(0, engine.inFlight(), "the attempt completed, its capacity released");
                assertEquals(0, gw.gateway.tunnelWatchdog().watching());
            }
        }
    }

    @Test
    void withTheAccessLogOnTheConnectionsThreadWaitsForItsTunnel() throws Exception {
        try (TestOrigin origin = TestOrigin.http()) {
            DirectEngine engine = new DirectEngine();
            Gateway gateway = Gateway.builder(engine)
                    .accessLog(true, InstantSource.system())
                    .build();
            try (SocketChannel client = SocketChannel.open(server.getLocalAddress());
                    SocketChannel accepted = server.accept()) {
                Served served = new Served(gateway, accepted);
                write(client, "CONNECT " + origin.authority() + " HTTP/1.1\r\n\r\n");
                assertTrue(readHead(client).startsWith("HTTP/1.1 200"));
                write(client, "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                assertTrue(readHead(client).startsWith("HTTP/1.1 200"));
                assertEquals("hello", read(client, 5));
                // an access-log line may block on its handlers' I/O: never on the relay's thread
                assertFalse(served.returned.await(300, TimeUnit.MILLISECONDS), "the thread waits for the tunnel");
                client.close();
                assertTrue(served.closed.await(10, TimeUnit.SECONDS));
                assertTrue(served.returned.await(10, TimeUnit.SECONDS));
                assertEquals(1, served.closedCalls.get());
                assertEquals(served.thread.getName(), served.closedOn.get(), "closed on the connection's own thread");
            } finally {
                gateway.shutdown(Duration.ofMillis(100));
            }
        }
    }

    /** One connection served through {@link Gateway#serve(ClientChannel, Runnable)} on its own thread. */
    private static final class Served {
        final CountDownLatch returned = new CountDownLatch(1);
        final CountDownLatch closed = new CountDownLatch(1);
        final AtomicInteger closedCalls = new AtomicInteger();
        final AtomicReference<String> closedOn = new AtomicReference<>();
        final Thread thread;

        Served(Gateway gateway, SocketChannel accepted) throws IOException {
            SocketClientChannel ch = new SocketClientChannel(accepted.socket());
            thread = Thread.ofVirtual().name("test-conn").start(() -> {
                gateway.serve(ch, () -> {
                    closedCalls.incrementAndGet();
                    closedOn.set(Thread.currentThread().getName());
                    closed.countDown();
                });
                returned.countDown();
            });
        }
    }

    /** Reads a response head (up to the blank line) byte by byte, so nothing after it is consumed. */
    private static String readHead(SocketChannel ch) throws IOException {
        StringBuilder b = new StringBuilder();
        ByteBuffer one = ByteBuffer.allocate(1);
        while (b.length() < 8192
                && !(b.length() >= 4 && b.substring(b.length() - 4).equals("\r\n\r\n"))) {
            if (ch.read(one.clear()) < 0) {
                break;
            }
            b.append((char) one.get(0));
        }
        return b.toString();
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
