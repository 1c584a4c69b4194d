package dev.proxypool.sdk.dial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Raw-socket proxies that put the reply and the first tunnel bytes in one segment (a target that
 * speaks first, like SSH or SMTP): the dialer must hand over the socket with those bytes unread.
 */
class HandshakeBytesTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "crlf reply          | HTTP/1.1 200 Connection established\\r\\n\\r\\n",
                "with headers        | HTTP/1.1 200 OK\\r\\nVia: 1.1 squid\\r\\nX-A: b\\r\\n\\r\\n",
                "http/1.0 reply      | HTTP/1.0 200 OK\\r\\n\\r\\n",
                "interim 100 first   | HTTP/1.1 100 Continue\\r\\n\\r\\nHTTP/1.1 200 OK\\r\\n\\r\\n"
            })
    void connectReplyAndBannerInOneSegmentLosesNoByte(String name, String reply) throws Exception {
        String banner = "SSH-2.0-OpenSSH_9.6\r\n";
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<String> request = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> {
                try (Socket s = server.accept()) {
                    String head = readHead(s.getInputStream());
                    s.getOutputStream()
                            .write((reply.replace("\\r\\n", "\r\n") + banner).getBytes(StandardCharsets.US_ASCII));
                    request.complete(head);
                    s.getInputStream().read(); // until the client closes
                } catch (IOException e) {
                    request.completeExceptionally(e);
                }
            });
            Proxy proxy = Proxy.builder(new ProxyKey(Protocol.HTTP, "127.0.0.1", server.getLocalPort(), null))
                    .build();
            try (Socket tunnel = ProxyKind.dialer().connect(proxy, "example.com", 22)) {
                byte[] got = tunnel.getInputStream().readNBytes(banner.length());
                assertEquals(banner, new String(got, StandardCharsets.US_ASCII));
            }
            assertEquals("CONNECT example.com:22 HTTP/1.1\r\nHost: example.com:22\r\n\r\n", request.get());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "bare LF reply      | HTTP/1.1 200 OK\\n\\n     | ",
                "not HTTP           | SSH-2.0-x\\r\\n\\r\\n     | PROTOCOL_ERROR",
                "no status code     | HTTP/1.1 abc\\r\\n\\r\\n  | PROTOCOL_ERROR",
                "407                | HTTP/1.1 407 No\\r\\n\\r\\n | PROXY_AUTH_REJECTED",
                "502                | HTTP/1.1 502 Bad\\r\\n\\r\\n | UPSTREAM_UNREACHABLE",
                "500 (squid, tinyproxy) | HTTP/1.1 500 Unable to connect\\r\\n\\r\\n | UPSTREAM_UNREACHABLE",
                "403 (an ACL)       | HTTP/1.1 403 Forbidden\\r\\n\\r\\n | UPSTREAM_UNREACHABLE",
                "404                | HTTP/1.1 404 Not Found\\r\\n\\r\\n | UPSTREAM_UNREACHABLE",
                "405                | HTTP/1.1 405 No\\r\\n\\r\\n | PROTOCOL_ERROR"
            })
    void httpRepliesAreParsedStrictly(String name, String reply, FailureKind expected) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 2, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) { // one connection per dial method
                    try (Socket s = server.accept()) {
                        readHead(s.getInputStream());
                        s.getOutputStream()
                                .write(reply.strip()
                                        .replace("\\r", "\r")
                                        .replace("\\n", "\n")
                                        .getBytes(StandardCharsets.US_ASCII));
                        s.getInputStream().read();
                    } catch (IOException ignored) {
                        // the client went away, or the test ended
                    }
                }
            });
            Proxy proxy = Proxy.builder(new ProxyKey(Protocol.HTTP, "127.0.0.1", server.getLocalPort(), null))
                    .build();
            UpstreamDialer dialer = ProxyKind.dialer(ProxyKind.shortTimeouts());
            if (expected == null) {
                dialer.connect(proxy, "example.com", 443).close();
                dialer.openTunnel(proxy, "example.com", 443).close();
            } else {
                DialException e = assertThrows(DialException.class, () -> dialer.connect(proxy, "example.com", 443));
                assertEquals(expected, e.kind(), e.getMessage());
                // openTunnel reads the reply in large reads, and judges it the same
                e = assertThrows(DialException.class, () -> dialer.openTunnel(proxy, "example.com", 443));
                assertEquals(expected, e.kind(), "openTunnel: " + e.getMessage());
            }
        }
    }

    /**
     * {@link UpstreamDialer#openTunnel} reads the reply in large reads: the bytes behind it, sent in the
     * same segment or after a pause, split anywhere, reach the caller through {@link TunnelConnection#input()}
     * in order, also behind a reply ended by bare line feeds (which {@code connect} refuses when tunnel bytes
     * follow it at once).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "crlf reply, one segment       | HTTP/1.1 200 Connection established\\r\\n\\r\\n | 0",
                "with headers, one segment     | HTTP/1.1 200 OK\\r\\nVia: 1.1 squid\\r\\nX-A: b\\r\\n\\r\\n | 0",
                "interim 100 first             | HTTP/1.1 100 Continue\\r\\n\\r\\nHTTP/1.1 200 OK\\r\\n\\r\\n | 0",
                "bare LF reply then banner     | HTTP/1.1 200 OK\\n\\n | 0",
                "split inside the blank line   | HTTP/1.1 200 OK\\r\\n\\r\\n | 17",
                "split inside the status line  | HTTP/1.1 200 OK\\r\\n\\r\\n | 5",
                "split right after the head    | HTTP/1.1 200 OK\\r\\n\\r\\n | 19"
            })
    void openTunnelServesBytesBehindTheReplyFirst(String name, String reply, int splitAt) throws Exception {
        String banner = "SSH-2.0-OpenSSH_9.6\r\n";
        byte[] wire = (reply.replace("\\r", "\r").replace("\\n", "\n") + banner).getBytes(StandardCharsets.US_ASCII);
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<String> request = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> {
                try (Socket s = server.accept()) {
                    s.setTcpNoDelay(true);
                    String head = readHead(s.getInputStream());
                    request.complete(head);
                    if (splitAt > 0) {
                        s.getOutputStream().write(wire, 0, splitAt);
                        s.getOutputStream().flush();
                        Thread.sleep(50); // two segments, the dialer's first read gets only the first
                        s.getOutputStream().write(wire, splitAt, wire.length - splitAt);
                    } else {
                        s.getOutputStream().write(wire);
                    }
                    s.getInputStream().read(); // until the client closes
                } catch (IOException | InterruptedException e) {
                    request.completeExceptionally(e);
                }
            });
            Proxy proxy = Proxy.builder(new ProxyKey(Protocol.HTTP, "127.0.0.1", server.getLocalPort(), null))
                    .build();
            try (TunnelConnection tunnel = ProxyKind.dialer().openTunnel(proxy, "example.com", 22)) {
                byte[] got = tunnel.input().readNBytes(banner.length());
                assertEquals(banner, new String(got, StandardCharsets.US_ASCII));
                tunnel.output().write('x'); // the output is the socket's: the proxy sees the byte
            }
            assertEquals("CONNECT example.com:22 HTTP/1.1\r\nHost: example.com:22\r\n\r\n", request.get());
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        while (!b.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            b.write(c);
        }
        return b.toString(StandardCharsets.US_ASCII);
    }
}
