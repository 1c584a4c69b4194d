package dev.proxypool.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.Ticker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;

class FaultsTest {

    private static final Duration IDLE = Duration.ofSeconds(5);
    private static final String GET_BYTES = "GET /bytes?n=10000 HTTP/1.1\r\nHost: o\r\n\r\n";

    @Test
    void latencyDelaysTheFirstByte() throws Exception {
        try (FakeOrigin origin = FakeOrigin.builder()
                        .faults(Faults.NONE.latency(Duration.ofMillis(200)))
                        .start();
                Socket s = new Socket(origin.host(), origin.port())) {
            long start = Ticker.system().read();
            assertEquals(200, RawHttp.get(s, "o", "/").status());
            assertTrue(Ticker.system().read() - start >= Duration.ofMillis(200).toNanos());
        }
    }

    @Test
    void latencyAppliesToSocksHandshakeReplies() throws Exception {
        try (FakeSocks5Proxy proxy = FakeSocks5Proxy.builder()
                        .faults(Faults.NONE.latency(Duration.ofMillis(150)))
                        .start();
                Socket s = new Socket(proxy.host(), proxy.port())) {
            long start = Ticker.system().read();
            assertEquals(0, SocksClient.socks5Greeting(s, 0));
            assertTrue(Ticker.system().read() - start >= Duration.ofMillis(150).toNanos());
        }
    }

    @Test
    void hangAcceptsButNeverAnswersUntilTheClientCloses() throws Exception {
        try (FakeHttpProxy proxy =
                FakeHttpProxy.builder().faults(Faults.NONE.hang()).start()) {
            try (Socket s = new Socket(proxy.host(), proxy.port())) {
                s.setSoTimeout(300);
                s.getOutputStream().write("CONNECT 127.0.0.1:1 HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertThrows(
                        SocketTimeoutException.class, () -> s.getInputStream().read());
                assertEquals(1, proxy.openConnections());
            }
            assertTrue(proxy.awaitIdle(IDLE));
        }
    }

    @Test
    void hangAlsoStallsTheTlsHandshake() throws Exception {
        try (FakeHttpProxy proxy =
                        FakeHttpProxy.builder().tls().faults(Faults.NONE.hang()).start();
                SSLSocket s = (SSLSocket)
                        TestTls.clientContext().getSocketFactory().createSocket(proxy.host(), proxy.port())) {
            s.setSoTimeout(300);
            assertThrows(SocketTimeoutException.class, s::startHandshake);
        }
    }

    @Test
    void resetAfterSendsThatManyBytesThenAReset() throws Exception {
        try (FakeOrigin origin =
                        FakeOrigin.builder().faults(Faults.NONE.resetAfter(50)).start();
                Socket s = new Socket(origin.host(), origin.port())) {
            s.getOutputStream().write(GET_BYTES.getBytes(StandardCharsets.US_ASCII));
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            SocketException reset = assertThrows(SocketException.class, () -> readAll(s.getInputStream(), got));
            assertTrue(reset.getMessage().toLowerCase().contains("reset"), reset.getMessage());
            assertTrue(got.size() <= 50, "got " + got.size());
            assertTrue(origin.awaitIdle(IDLE));
        }
    }

    @Test
    void resetMidTunnelClosesBothSides() throws Exception {
        // 2 (method) + 10 (connect reply) handshake bytes, then 100 bytes of the tunnelled response
        try (FakeOrigin origin = FakeOrigin.start();
                FakeSocks5Proxy proxy = FakeSocks5Proxy.builder()
                        .faults(Faults.NONE.resetAfter(112))
                        .start();
                Socket s = new Socket(proxy.host(), proxy.port())) {
            assertEquals(0, SocksClient.socks5Greeting(s, 0));
            assertEquals(0, SocksClient.socks5Connect(s, 1, "127.0.0.1", origin.port()));
            s.getOutputStream().write(GET_BYTES.getBytes(StandardCharsets.US_ASCII));
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            assertThrows(SocketException.class, () -> readAll(s.getInputStream(), got));
            assertTrue(got.size() <= 100, "got " + got.size());
            assertTrue(proxy.awaitIdle(IDLE), "proxy leaked a connection");
            assertTrue(origin.awaitIdle(IDLE), "the tunnel's origin side stayed open");
        }
    }

    @Test
    void halfCloseEndsTheOutputButKeepsReading() throws Exception {
        try (FakeOrigin origin =
                FakeOrigin.builder().faults(Faults.NONE.halfCloseAfter(30)).start()) {
            try (Socket s = new Socket(origin.host(), origin.port())) {
                s.getOutputStream().write(GET_BYTES.getBytes(StandardCharsets.US_ASCII));
                ByteArrayOutputStream got = new ByteArrayOutputStream();
                readAll(s.getInputStream(), got);
                assertEquals(30, got.size());
                assertTrue(got.toString(StandardCharsets.US_ASCII).startsWith("HTTP/1.1 200 OK"));
                s.getOutputStream().write(GET_BYTES.getBytes(StandardCharsets.US_ASCII)); // still accepted
                assertEquals(1, origin.openConnections());
            }
            assertTrue(origin.awaitIdle(IDLE));
        }
    }

    @Test
    void trickleSendsASlowBody() throws Exception {
        try (FakeOrigin origin = FakeOrigin.builder()
                        .faults(Faults.NONE.trickleAfter(0, 40, Duration.ofMillis(25)))
                        .start();
                Socket s = new Socket(origin.host(), origin.port())) {
            long start = Ticker.system().read();
            RawHttp.Response r = RawHttp.get(s, "o", "/bytes?n=200"); // 79 head + 200 body: 7 chunks, 6 pauses between
            assertEquals(200, r.body().length);
            assertTrue(
                    Ticker.system().read() - start >= Duration.ofMillis(6 * 25).toNanos());
        }
    }

    @Test
    void slicedWritesArriveIntactInManyReads() throws Exception {
        // every answer intact; and the slicing seen: more than one read. A reader descheduled while the
        // origin writes (a busy machine) finds every byte already in its socket buffer and reads them
        // at once, so up to 5 exchanges are tried for that (one full run saw a single read)
        List<Integer> reads = new ArrayList<>();
        try (FakeOrigin origin =
                FakeOrigin.builder().faults(Faults.NONE.slicedWrites()).start()) {
            for (int exchange = 0; exchange < 5 && reads.stream().allMatch(n -> n == 1); exchange++) {
                try (Socket s = new Socket(origin.host(), origin.port())) {
                    s.getOutputStream()
                            .write("GET /bytes?n=300 HTTP/1.1\r\nHost: o\r\nConnection: close\r\n\r\n"
                                    .getBytes(StandardCharsets.US_ASCII));
                    ByteArrayOutputStream got = new ByteArrayOutputStream();
                    reads.add(readAll(s.getInputStream(), got));
                    String text = got.toString(StandardCharsets.US_ASCII);
                    assertTrue(text.startsWith("HTTP/1.1 200 OK"), text);
                    assertTrue(text.endsWith("abcdefghijklmn".substring(0, 300 % 26)), text);
                }
            }
        }
        assertTrue(reads.stream().anyMatch(n -> n > 1), "reads per exchange: " + reads);
    }

    @Test
    void changedFaultsApplyToNewConnectionsOnly() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                Socket first = new Socket(origin.host(), origin.port())) {
            assertEquals(200, RawHttp.get(first, "o", "/").status());
            origin.faults(Faults.NONE.hang());
            InputStream in = RawHttp.buffered(first);
            assertEquals(
                    200,
                    RawHttp.exchange(in, first.getOutputStream(), "GET / HTTP/1.1\r\nHost: o\r\n\r\n", false)
                            .status());
            try (Socket second = new Socket(origin.host(), origin.port())) {
                second.setSoTimeout(200);
                second.getOutputStream().write("GET / HTTP/1.1\r\nHost: o\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertThrows(
                        SocketTimeoutException.class,
                        () -> second.getInputStream().read());
            }
            origin.faults(Faults.NONE);
            assertEquals(Faults.NONE, origin.faults());
        }
    }

    @Test
    void invalidFaultsAreRejectedWithTheirName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Faults.NONE.resetAfter(-2));
        assertTrue(e.getMessage().contains("resetAfter"));
        assertThrows(IllegalArgumentException.class, () -> Faults.NONE.trickle(0, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> Faults.NONE.latency(Duration.ofMillis(-1)));
        assertFalse(Faults.NONE.hang().equals(Faults.NONE));
        assertArrayEquals(new Object[] {true}, new Object[] {Faults.NONE.passThrough()});
    }

    /** Reads to the end; returns the number of reads that returned data. */
    private static int readAll(InputStream in, ByteArrayOutputStream sink) throws IOException {
        byte[] buf = new byte[8192];
        int reads = 0;
        for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
            sink.write(buf, 0, n);
            reads++;
        }
        return reads;
    }
}
