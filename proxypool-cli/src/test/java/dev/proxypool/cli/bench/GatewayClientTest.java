package dev.proxypool.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.testkit.TestPorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The bench's raw client on the wire: framing, keep-alive, reconnects and error kinds. */
class GatewayClientTest {

    /** Answers each request with the next canned response; records request heads and connections. */
    private static final class Scripted implements AutoCloseable {
        final ServerSocket server;
        final List<String> heads = new CopyOnWriteArrayList<>();
        final AtomicInteger connections = new AtomicInteger();
        final Thread thread;

        Scripted(String... responses) throws IOException {
            server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
            thread = Thread.ofVirtual().start(() -> {
                int next = 0;
                while (!server.isClosed()) {
                    try (Socket s = server.accept()) {
                        connections.incrementAndGet();
                        InputStream in = s.getInputStream();
                        OutputStream out = s.getOutputStream();
                        while (next < responses.length) {
                            String head = readHead(in);
                            if (head == null) {
                                break;
                            }
                            heads.add(head);
                            String r = responses[next++];
                            out.write(r.getBytes(StandardCharsets.ISO_8859_1));
                            out.flush();
                            if (r.contains("Connection: close")
                                    || !(r.contains("Content-Length")
                                            || r.contains("chunked")
                                            || r.startsWith("HTTP/1.1 204"))) {
                                break;
                            }
                        }
                    } catch (IOException e) {
                        // next connection
                    }
                }
            });
        }

        static String readHead(InputStream in) throws IOException {
            StringBuilder sb = new StringBuilder();
            int c;
            while ((c = in.read()) >= 0) {
                sb.append((char) c);
                if (sb.length() >= 4 && sb.substring(sb.length() - 4).equals("\r\n\r\n")) {
                    return sb.toString();
                }
            }
            return null;
        }

        InetSocketAddress address() {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    private static GatewayClient client(Scripted s, String url, String user) {
        return new GatewayClient(s.address(), URI.create(url), user, Duration.ofSeconds(5), null);
    }

    @Test
    void framingsAreReadAndTheConnectionIsReused() throws Exception {
        try (Scripted s = new Scripted(
                        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
                        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: t\r\n\r\n",
                        "HTTP/1.1 204 No Content\r\n\r\n",
                        "HTTP/1.1 503 Service Unavailable\r\nX-ProxyPool-Error: no_candidate\r\nContent-Length: 0\r\n\r\n",
                        "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok",
                        "HTTP/1.1 200 OK\r\n\r\nuntil close");
                GatewayClient c = client(s, "http://origin.test:8081/path?q=1", "alice:s3cret")) {
            assertNull(c.attempt()); // Content-Length
            assertNull(c.attempt()); // chunked with an extension and a trailer
            assertNull(c.attempt()); // 204, no body
            assertEquals("http_503_no_candidate", c.attempt()); // the gateway's reason header
            assertNull(c.attempt()); // Connection: close ...
            assertNull(c.attempt()); // ... so a new connection; body until close
            assertEquals(6, s.heads.size());
            assertEquals(2, s.connections.get());
            String first = s.heads.getFirst();
            assertTrue(first.startsWith("GET http://origin.test:8081/path?q=1 HTTP/1.1\r\n"), first);
            assertTrue(first.contains("Host: origin.test:8081\r\n"), first);
            assertTrue(first.contains("Proxy-Authorization: Basic YWxpY2U6czNjcmV0\r\n"), first);
        }
    }

    @Test
    void errorKindsNameWhatWentWrong() throws Exception {
        try (Scripted s = new Scripted(
                        "HTTP/1.1 503 Service Unavailable\r\nX-ProxyPool-Error: no_candidate\r\nContent-Length: 0\r\n\r\n",
                        "HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n",
                        "garbage\r\n\r\n");
                GatewayClient c = client(s, "http://origin.test/", null)) {
            assertEquals("http_503_no_candidate", c.attempt());
            assertEquals("http_407", c.attempt());
            assertEquals("protocol", c.attempt());
            assertEquals(1, s.connections.get());
        }
        GatewayClient refused = new GatewayClient(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), TestPorts.closedPort()),
                URI.create("http://x/"),
                null,
                Duration.ofSeconds(2),
                null);
        assertEquals("connect_refused", refused.attempt());
    }

    @Test
    void aRefusedConnectIsReportedWithoutATunnel() throws Exception {
        try (Scripted s = new Scripted("HTTP/1.1 403 Forbidden\r\nX-ProxyPool-Error: destination_denied\r\n"
                        + "Content-Length: 0\r\n\r\n");
                GatewayClient c = client(s, "https://secure.test/", "bob:pw")) {
            assertEquals("connect_403_destination_denied", c.attempt());
            String head = s.heads.getFirst();
            assertTrue(head.startsWith("CONNECT secure.test:443 HTTP/1.1\r\n"), head);
            assertTrue(head.contains("Proxy-Authorization: Basic Ym9iOnB3\r\n"), head);
        }
    }
}
