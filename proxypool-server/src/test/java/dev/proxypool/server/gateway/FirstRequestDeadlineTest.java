package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.TestTls;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code server.firstRequestTimeout} and {@code server.maxConnectionsPerAddress} on the gateway's own
 * listeners, over raw sockets: a silent connection and a ClientHello trickled a byte at a time (TLS
 * listener) are closed at the deadline from accept, not at the keep-alive idle timeout; a head whose
 * bytes start late still has to be complete by it; one address over its cap is closed at once; each
 * close is counted by listener and reason.
 */
class FirstRequestDeadlineTest {

    private static final Duration FIRST = Duration.ofMillis(1_500);

    private final RecordingMetrics metrics = new RecordingMetrics();
    private TestOrigin origin;
    private Gateway gateway;
    private GatewayListener http;
    private GatewayListener socks;

    private void start(TlsLayer tls, int perAddress) throws IOException {
        origin = TestOrigin.http();
        gateway = Gateway.builder(new DirectEngine())
                .metrics(metrics)
                .config(GatewayConfig.builder()
                        .firstRequestTimeout(FIRST)
                        .maxConnectionsPerAddress(perAddress)
                        .build())
                .build();
        http = GatewayListener.start(gateway, InetAddress.getLoopbackAddress(), 0, tls, 0);
        socks = GatewayListener.startSocks(http, InetAddress.getLoopbackAddress(), 0);
    }

    @AfterEach
    void stop() {
        if (socks != null) {
            socks.stop(Duration.ofSeconds(1));
        }
        if (http != null) {
            http.stop(Duration.ofSeconds(1));
        }
        if (origin != null) {
            origin.close();
        }
    }

    private static TlsLayer tls() {
        SSLContext context = TestTls.serverContext();
        return () -> {
            SSLEngine e = context.createSSLEngine();
            e.setUseClientMode(false);
            return e;
        };
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
        s.setSoTimeout(15_000);
        return s;
    }

    /** Reads to the end; the milliseconds from {@code t0} to it. */
    private static long millisToEnd(Socket s, long t0) throws IOException {
        InputStream in = s.getInputStream();
        try {
            while (in.read() >= 0) {
                // drain
            }
        } catch (java.net.SocketException reset) {
            // a reset is a close too
        }
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private static void assertClosedAtTheDeadline(long ms) {
        assertTrue(ms >= FIRST.toMillis() - 100, "not before the deadline: " + ms + " ms");
        assertTrue(ms < FIRST.toMillis() + 2_000, "closed within the deadline + 2 s: " + ms + " ms");
    }

    @Test
    void aSilentPlainConnectionIsClosedAtTheFirstRequestDeadlineNotTheIdleTimeout() throws IOException {
        start(null, 256);
        try (Socket s = connect(http.port())) {
            assertClosedAtTheDeadline(millisToEnd(s, System.nanoTime()));
        }
        Await.atMost(Duration.ofSeconds(5))
                .until(
                        "the close to be counted",
                        () -> metrics.count(ClosedReason.LISTENER_GATEWAY, ClosedReason.FIRST_REQUEST_TIMEOUT) == 1);
    }

    @Test
    void aSilentAndATricklingTlsHandshakeAreClosedAtTheDeadline() throws Exception {
        start(tls(), 256);
        byte[] hello = TlsClientHello.of(TestTls.clientContext());
        try (Socket silent = connect(http.port());
                Socket trickling = connect(http.port())) {
            long t0 = System.nanoTime();
            InputStream tin = trickling.getInputStream();
            java.io.OutputStream tout = trickling.getOutputStream();
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    Trickle.bytes(tin, tout, hello, Duration.ofMillis(200), Duration.ofSeconds(10));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertClosedAtTheDeadline(millisToEnd(silent, t0));
            assertClosedAtTheDeadline(millisToEnd(trickling, t0));
            writer.join(Duration.ofSeconds(15));
        }
        Await.atMost(Duration.ofSeconds(5))
                .until(
                        "both closes to be counted",
                        () -> metrics.count(ClosedReason.LISTENER_GATEWAY, ClosedReason.FIRST_REQUEST_TIMEOUT) == 2);
        // and a real TLS client is served, on a connection of its own
        try (SSLSocket c =
                (SSLSocket) TestTls.clientContext().getSocketFactory().createSocket("127.0.0.1", http.port())) {
            c.setSoTimeout(10_000);
            c.getOutputStream()
                    .write(("GET http://" + origin.authority() + "/hello HTTP/1.1\r\nHost: " + origin.authority()
                                    + "\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
            String answer = new String(c.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            assertTrue(answer.endsWith("hello"), answer);
        }
    }

    @Test
    void aHeadStartedLateMustStillBeCompleteByTheFirstRequestDeadline() throws Exception {
        start(null, 256);
        byte[] head = ("GET http://" + origin.authority() + "/hello HTTP/1.1\r\nHost: " + origin.authority()
                        + "\r\nX-Slow: " + "s".repeat(40) + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        try (Socket s = connect(http.port())) {
            long t0 = System.nanoTime();
            // the default requestHeadTimeout (10 s from the first byte) alone would let this run to the end
            int sent = Trickle.bytes(
                    s.getInputStream(), s.getOutputStream(), head, Duration.ofMillis(100), Duration.ofSeconds(10));
            assertTrue(sent < head.length, "cut short: " + sent + " of " + head.length);
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(answer.isEmpty() || answer.startsWith("HTTP/1.1 408 "), answer);
            assertClosedAtTheDeadline(ms);
        }
        assertEquals(0, origin.requests.get());
    }

    @Test
    void aSilentSocksConnectionIsClosedAtTheDeadlineAndCountedForTheSocksListener() throws IOException {
        start(null, 256);
        try (Socket s = connect(socks.port())) {
            assertClosedAtTheDeadline(millisToEnd(s, System.nanoTime()));
        }
        Await.atMost(Duration.ofSeconds(5))
                .until(
                        "the close to be counted",
                        () -> metrics.count(ClosedReason.LISTENER_SOCKS, ClosedReason.FIRST_REQUEST_TIMEOUT) == 1);
    }

    @Test
    void oneAddressOverItsCapIsClosedAtOnceAndOthersAreNotHeldBack() throws Exception {
        start(null, 3);
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                held.add(connect(http.port()));
            }
            Await.atMost(Duration.ofSeconds(5)).until("three open", () -> http.openConnections() == 3);
            try (Socket over = connect(http.port())) {
                long ms = millisToEnd(over, System.nanoTime());
                assertTrue(ms < 1_000, "closed at once, not at the deadline: " + ms + " ms");
            }
            assertEquals(1, http.refusedPerAddress());
            assertEquals(1, metrics.count(ClosedReason.LISTENER_GATEWAY, ClosedReason.PER_ADDRESS_LIMIT));
            // the cap is per listener: the SOCKS5 listener still takes this address
            try (Socket other = connect(socks.port())) {
                other.getOutputStream().write(new byte[] {5, 1, 0});
                byte[] method = other.getInputStream().readNBytes(2);
                assertEquals(5, method[0], "a SOCKS5 answer");
            }
            // a closed connection gives its slot back
            held.removeFirst().close();
            Await.atMost(Duration.ofSeconds(5)).until("two open", () -> http.openConnections() == 2);
            try (RawClient c = new RawClient(http.port())) {
                RawClient.Response r = c.send("GET http://" + origin.authority() + "/hello HTTP/1.1\r\nHost: "
                                + origin.authority() + "\r\n\r\n")
                        .read();
                assertEquals(200, r.status());
            }
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    /** Counts {@link GatewayMetrics#connectionClosed} by listener and reason. */
    static final class RecordingMetrics implements GatewayMetrics {
        private final Map<String, AtomicInteger> closed = new ConcurrentHashMap<>();

        int count(String listener, String reason) {
            AtomicInteger n = closed.get(listener + " " + reason);
            return n == null ? 0 : n.get();
        }

        @Override
        public void connectionClosed(String listener, String reason) {
            closed.computeIfAbsent(listener + " " + reason, k -> new AtomicInteger())
                    .incrementAndGet();
        }

        @Override
        public void started(boolean tunnel) {}

        @Override
        public void finished(boolean tunnel, ExchangeResult result, long nanos) {}

        @Override
        public void error(String reason) {}

        @Override
        public void retried() {}
    }
}
