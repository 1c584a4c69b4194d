package dev.proxypool.cli.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.testkit.EchoResponse;
import dev.proxypool.testkit.RawHttp;
import dev.proxypool.testkit.TestPorts;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo's own upstream proxies and origin, spoken to on the wire as the gateway and curl speak to them. */
@Tag("slow")
class DemoUpstreamsTest {

    private static final String ESTABLISHED = "HTTP/1.1 200 Connection established\r\n\r\n";

    @Test
    void theHttpProxyForwardsEndToEndFieldsOnlyAndClosesAfterTheAnswer() throws IOException {
        try (DemoOrigin origin = DemoOrigin.http();
                DemoHttpProxy proxy = DemoHttpProxy.open();
                Socket s = connect(proxy.port())) {
            RawHttp.Response r = RawHttp.exchange(
                    RawHttp.buffered(s),
                    s.getOutputStream(),
                    "GET " + origin.url("/echo?x=1") + " HTTP/1.1\r\nHost: 127.0.0.1:" + origin.port()
                            + "\r\nProxy-Authorization: Basic c2Vzc2lvbi0xOmRlbW8tcGFzcw==\r\nConnection: keep-alive, X-Hop"
                            + "\r\nX-Hop: dropped\r\nX-Kept: yes\r\n\r\n",
                    false);
            assertEquals(200, r.status(), r.bodyText());
            assertEquals("close", r.header("Connection"));
            EchoResponse echo = r.echo();
            assertEquals("127.0.0.1", echo.ip());
            assertEquals("yes", echo.header("X-Kept"), echo.toString());
            assertNull(echo.header("Proxy-Authorization"), "credentials for the proxy never reach the origin: " + echo);
            assertNull(echo.header("X-Hop"), "a field named by Connection is hop-by-hop: " + echo);
            assertEquals(-1, s.getInputStream().read(), "one request per connection: the proxy closed");
        }
    }

    @Test
    void theHttpProxyPassesARequestBodyOn() throws IOException {
        try (DemoOrigin origin = DemoOrigin.http();
                DemoHttpProxy proxy = DemoHttpProxy.open();
                Socket s = connect(proxy.port())) {
            RawHttp.Response r = RawHttp.exchange(
                    RawHttp.buffered(s),
                    s.getOutputStream(),
                    "POST " + origin.url("/echo") + " HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
                    false);
            assertEquals(200, r.status(), r.bodyText());
            assertEquals("5", r.echo().header("Content-Length"), r.bodyText());
        }
    }

    @Test
    void basicAuthIsRequiredWhenConfigured() throws IOException {
        try (DemoOrigin origin = DemoOrigin.http();
                DemoHttpProxy proxy = DemoHttpProxy.withBasicAuth("demo-user", "demo-pass")) {
            String target = origin.url("/echo");
            RawHttp.Response none = get(proxy.port(), target, null);
            assertEquals(407, none.status());
            assertEquals("Basic realm=\"proxypool demo\"", none.header("Proxy-Authenticate"));
            assertEquals(407, get(proxy.port(), target, "demo-user:wrong").status());
            assertEquals(200, get(proxy.port(), target, "demo-user:demo-pass").status());
        }
    }

    @Test
    void connectOpensATunnelAndAnUnreachableTargetIs502() throws IOException {
        try (DemoOrigin origin = DemoOrigin.http();
                DemoHttpProxy proxy = DemoHttpProxy.open()) {
            try (Socket s = connect(proxy.port())) {
                String target = "127.0.0.1:" + origin.port();
                s.getOutputStream()
                        .write(("CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1));
                InputStream in = RawHttp.buffered(s);
                assertEquals(ESTABLISHED, new String(in.readNBytes(ESTABLISHED.length()), StandardCharsets.ISO_8859_1));
                RawHttp.Response r = RawHttp.exchange(
                        in, s.getOutputStream(), "GET /echo HTTP/1.1\r\nHost: " + target + "\r\n\r\n", false);
                assertEquals(200, r.status(), "through the tunnel: " + r.bodyText());
            }
            try (Socket s = connect(proxy.port())) {
                RawHttp.Response r = RawHttp.exchange(
                        RawHttp.buffered(s),
                        s.getOutputStream(),
                        "CONNECT 127.0.0.1:" + TestPorts.closedPort() + " HTTP/1.1\r\n\r\n",
                        false);
                assertEquals(502, r.status(), r.bodyText());
            }
        }
    }

    @Test
    void theJdksSocksClientReachesTheOriginThroughTheSocks5Proxy() throws IOException {
        try (DemoOrigin origin = DemoOrigin.http();
                DemoSocksProxy proxy = DemoSocksProxy.open();
                Socket s = new Socket(new Proxy(Proxy.Type.SOCKS, new InetSocketAddress("127.0.0.1", proxy.port())))) {
            s.setSoTimeout(10_000);
            s.connect(new InetSocketAddress("127.0.0.1", origin.port()), 10_000);
            RawHttp.Response r = RawHttp.get(s, "127.0.0.1", "/echo");
            assertEquals(200, r.status(), r.bodyText());
            assertEquals("127.0.0.1", r.echo().ip());
        }
    }

    @Test
    void socks5RepliesNameWhatItDoesNotDo() throws IOException {
        try (DemoSocksProxy proxy = DemoSocksProxy.open()) {
            try (Socket s = connect(proxy.port())) {
                s.getOutputStream().write(new byte[] {5, 1, 2}); // username/password only
                assertArrayEquals(
                        new byte[] {5, (byte) 0xFF}, s.getInputStream().readNBytes(2));
            }
            try (Socket s = connect(proxy.port())) {
                assertEquals(7, request(s, 2, 80), "BIND: command not supported");
            }
            try (Socket s = connect(proxy.port())) {
                assertEquals(5, request(s, 1, TestPorts.closedPort()), "CONNECT to a closed port: refused");
            }
        }
    }

    /** The handshake itself is DemoTest's (the banner's {@code curl -k} line through the gateway). */
    @Test
    void theSelfSignedKeyIsForLoopbackAndLeavesNoFileBehind(@TempDir Path dir) throws Exception {
        SSLContext server = DemoTls.selfSignedServer(dir);
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "the key store does not stay on disk");
        }
        try (DemoOrigin origin = DemoOrigin.https(server)) {
            assertTrue(origin.url("/echo").startsWith("https://127.0.0.1:"), origin.url("/echo"));
        }
    }

    /** Greets with "no authentication", sends {@code command} to 127.0.0.1:{@code port}, returns the reply code. */
    private static int request(Socket s, int command, int port) throws IOException {
        OutputStream out = s.getOutputStream();
        DataInputStream in = new DataInputStream(s.getInputStream());
        out.write(new byte[] {5, 1, 0});
        assertArrayEquals(new byte[] {5, 0}, in.readNBytes(2));
        out.write(new byte[] {5, (byte) command, 0, 1, 127, 0, 0, 1, (byte) (port >> 8), (byte) port});
        byte[] reply = in.readNBytes(10);
        assertEquals(5, reply[0]);
        return reply[1];
    }

    private static RawHttp.Response get(int proxyPort, String target, String credentials) throws IOException {
        try (Socket s = connect(proxyPort)) {
            String auth = credentials == null
                    ? ""
                    : "Proxy-Authorization: Basic "
                            + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)) + "\r\n";
            return RawHttp.exchange(
                    RawHttp.buffered(s),
                    s.getOutputStream(),
                    "GET " + target + " HTTP/1.1\r\nHost: x\r\n" + auth + "\r\n",
                    false);
        }
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(10_000);
        return s;
    }
}
