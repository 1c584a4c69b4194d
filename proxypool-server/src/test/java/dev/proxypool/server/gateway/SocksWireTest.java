package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.wire.Socks5Codec;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.TestPorts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The SOCKS5 listener byte by byte: RFC 1928 method selection, RFC 1929 credentials, the request
 * with every address type, the reply codes, and bad input (truncated, wrong versions, zero methods,
 * unknown commands and address types, slow clients, bytes right behind the request): a clear reply
 * or a clean close, and the listener keeps serving.
 */
class SocksWireTest {

    private static final Duration HANDSHAKE = Duration.ofMillis(800);

    private TestOrigin origin;
    private DirectEngine engine;
    private Gateway gateway;
    private GatewayListener http;
    private GatewayListener socks;

    @BeforeEach
    void start() throws IOException {
        origin = TestOrigin.http();
        engine = new DirectEngine();
        start(
                GatewayConfig.builder()
                        .requestHeadTimeout(HANDSHAKE)
                        .firstRequestTimeout(HANDSHAKE)
                        .build(),
                ProxyAuthenticator.basic(Map.of("alice", "wonder")));
    }

    private void start(GatewayConfig cfg, ProxyAuthenticator auth) throws IOException {
        gateway = Gateway.builder(engine).authenticator(auth).config(cfg).build();
        http = GatewayListener.start(gateway, InetAddress.getLoopbackAddress(), 0);
        socks = GatewayListener.startSocks(http, InetAddress.getLoopbackAddress(), 0);
    }

    @AfterEach
    void stop() {
        socks.stop(Duration.ofSeconds(1));
        http.stop(Duration.ofSeconds(1));
        GatewayFixture.awaitInFlightZero(engine);
        origin.close();
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), socks.port()), 5_000);
        s.setSoTimeout(10_000);
        return s;
    }

    private static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    static byte[] login(String user, String password) {
        byte[] u = user.getBytes(StandardCharsets.UTF_8);
        byte[] p = password.getBytes(StandardCharsets.UTF_8);
        return concat(bytes(1, u.length), u, bytes(p.length), p);
    }

    static byte[] connectDomain(String host, int port) {
        byte[] h = host.getBytes(StandardCharsets.ISO_8859_1);
        return concat(bytes(5, 1, 0, 3, h.length), h, bytes(port >> 8, port & 0xFF));
    }

    private static byte[] readN(InputStream in, int n) throws IOException {
        byte[] b = in.readNBytes(n);
        assertEquals(n, b.length, "the server closed early: " + Arrays.toString(b));
        return b;
    }

    /** Everything until the server closes; a reset counts as a close. */
    private static byte[] rest(Socket s) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            s.getInputStream().transferTo(out);
        } catch (SocketException reset) {
            // closed with a RST: what came before is what counts
        }
        return out.toByteArray();
    }

    private static final byte[] SUCCESS = bytes(5, 0, 0, 1, 0, 0, 0, 0, 0, 0);

    private static byte[] failure(int code) {
        return bytes(5, code, 0, 1, 0, 0, 0, 0, 0, 0);
    }

    /** Greeting with username/password, login as alice, CONNECT: the reply. */
    private byte[] handshake(Socket s, byte[] request) throws IOException {
        s.getOutputStream().write(concat(bytes(5, 1, 2), login("alice", "wonder"), request));
        InputStream in = s.getInputStream();
        assertArrayEquals(bytes(5, 2), readN(in, 2), "username/password chosen");
        assertArrayEquals(bytes(1, 0), readN(in, 2), "credentials accepted");
        return readN(in, 10);
    }

    private String get(Socket s) throws IOException {
        s.getOutputStream()
                .write(("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
        return new String(rest(s), StandardCharsets.ISO_8859_1);
    }

    private void stillServes() throws IOException {
        try (Socket s = connect()) {
            assertArrayEquals(SUCCESS, handshake(s, connectDomain("localhost", origin.port())));
            assertTrue(get(s).endsWith("hello"), "a normal tunnel still works");
        }
        Await.atMost(Duration.ofSeconds(10))
                .until("no SOCKS connection left open", () -> gateway.openConnections(), n -> n == 0);
    }

    @Test
    void domainIpv4AndPasswordReachTheOriginThroughATunnel() throws IOException {
        try (Socket s = connect()) {
            assertArrayEquals(SUCCESS, handshake(s, connectDomain("LocalHost", origin.port())));
            String answer = get(s);
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            assertTrue(answer.endsWith("hello"), answer);
        }
        try (Socket s = connect()) {
            byte[] ipv4 = bytes(5, 1, 0, 1, 127, 0, 0, 1, origin.port() >> 8, origin.port() & 0xFF);
            assertArrayEquals(SUCCESS, handshake(s, ipv4));
            assertTrue(get(s).endsWith("hello"));
        }
    }

    @Test
    void ipv6TargetIsParsedAndARefusedConnectAnswers05() throws IOException {
        int closed = TestPorts.closedPort();
        byte[] ipv6 = new byte[22];
        ipv6[0] = 5;
        ipv6[1] = 1;
        ipv6[3] = 4;
        ipv6[19] = 1; // ::1
        ipv6[20] = (byte) (closed >> 8);
        ipv6[21] = (byte) closed;
        try (Socket s = connect()) {
            assertArrayEquals(failure(Socks5Codec.Reply.CONNECTION_REFUSED.code()), handshake(s, ipv6));
            assertEquals(0, rest(s).length, "closed after the failure reply");
        }
        try (Socket s = connect()) {
            byte[] ipv4 = bytes(5, 1, 0, 1, 127, 0, 0, 1, closed >> 8, closed & 0xFF);
            assertArrayEquals(failure(Socks5Codec.Reply.CONNECTION_REFUSED.code()), handshake(s, ipv4));
        }
        stillServes();
    }

    @Test
    void bytesRightBehindTheRequestGoThroughTheTunnel() throws IOException {
        try (ServerSocket echo = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                Socket s = connect()) {
            Thread echoer = Thread.ofVirtual().start(() -> {
                try (Socket c = echo.accept()) {
                    c.getInputStream().transferTo(c.getOutputStream());
                } catch (IOException ignored) {
                    // the test fails on what it reads
                }
            });
            byte[] junk = bytes(0xde, 0xad, 0xbe, 0xef, 5, 1, 0, 0xff, 0);
            s.getOutputStream()
                    .write(concat(
                            bytes(5, 1, 2),
                            login("alice", "wonder"),
                            connectDomain("127.0.0.1", echo.getLocalPort()),
                            junk));
            s.shutdownOutput();
            byte[] all = rest(s);
            assertArrayEquals(concat(bytes(5, 2, 1, 0), SUCCESS, junk), all, "replies, then the junk echoed back");
            echoer.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        stillServes();
    }

    @Test
    void wrongPasswordGetsTheRfc1929FailureAndAClose() throws IOException {
        try (Socket s = connect()) {
            s.getOutputStream().write(concat(bytes(5, 2, 0, 2), login("alice", "wrong")));
            assertArrayEquals(bytes(5, 2, 1, 1), rest(s));
        }
        try (Socket s = connect()) { // a colon cannot be in a Basic user name: refused the same way
            s.getOutputStream().write(concat(bytes(5, 1, 2), login("alice:x", "wonder")));
            assertArrayEquals(bytes(5, 2, 1, 1), rest(s));
        }
        stillServes();
    }

    @Test
    void noAcceptableMethodAndZeroMethodsGet0xFF() throws IOException {
        try (Socket s = connect()) { // credentials required, the client offers none
            s.getOutputStream().write(bytes(5, 1, 0));
            assertArrayEquals(bytes(5, 0xFF), rest(s));
        }
        try (Socket s = connect()) { // GSSAPI only
            s.getOutputStream().write(bytes(5, 1, 1));
            assertArrayEquals(bytes(5, 0xFF), rest(s));
        }
        try (Socket s = connect()) {
            s.getOutputStream().write(bytes(5, 0));
            assertArrayEquals(bytes(5, 0xFF), rest(s));
        }
        stillServes();
    }

    @Test
    void anonymousGatewayAcceptsNoAuthentication() throws IOException {
        stop();
        origin = TestOrigin.http();
        start(GatewayConfig.DEFAULTS, ProxyAuthenticator.anonymous());
        try (Socket s = connect()) {
            s.getOutputStream().write(concat(bytes(5, 1, 0), connectDomain("localhost", origin.port())));
            assertArrayEquals(bytes(5, 0), readN(s.getInputStream(), 2));
            assertArrayEquals(SUCCESS, readN(s.getInputStream(), 10));
            assertTrue(get(s).endsWith("hello"));
        }
    }

    @Test
    void bindAndUdpAssociateAreNotSupportedUnknownAddressTypesNeither() throws IOException {
        for (int command : new int[] {2, 3, 9}) {
            try (Socket s = connect()) {
                byte[] request = bytes(5, command, 0, 1, 127, 0, 0, 1, origin.port() >> 8, origin.port() & 0xFF);
                assertArrayEquals(failure(Socks5Codec.Reply.COMMAND_NOT_SUPPORTED.code()), handshake(s, request));
                assertEquals(0, rest(s).length);
            }
        }
        try (Socket s = connect()) {
            assertArrayEquals(
                    failure(Socks5Codec.Reply.ADDRESS_TYPE_NOT_SUPPORTED.code()),
                    handshake(s, bytes(5, 1, 0, 7, 1, 2)));
        }
        try (Socket s = connect()) { // a name no host has
            assertArrayEquals(
                    failure(Socks5Codec.Reply.HOST_UNREACHABLE.code()),
                    handshake(s, connectDomain("bad host\r\n", 80)));
        }
        try (Socket s = connect()) {
            assertArrayEquals(failure(Socks5Codec.Reply.HOST_UNREACHABLE.code()), handshake(s, connectDomain("", 80)));
        }
        try (Socket s = connect()) {
            assertArrayEquals(
                    failure(Socks5Codec.Reply.NOT_ALLOWED.code()), handshake(s, connectDomain("localhost", 0)));
        }
        stillServes();
    }

    @Test
    void otherVersionsAreRefusedOrClosed() throws IOException {
        try (Socket s = connect()) { // SOCKS4 CONNECT: a SOCKS4 "rejected"
            s.getOutputStream().write(bytes(4, 1, 0, 80, 127, 0, 0, 1, 0));
            assertArrayEquals(bytes(0, 0x5B, 0, 0, 0, 0, 0, 0), rest(s));
        }
        try (Socket s = connect()) { // an HTTP client on the wrong port: closed, nothing said
            s.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals(0, rest(s).length);
        }
        try (Socket s = connect()) { // RFC 1929 version must be 1
            s.getOutputStream()
                    .write(concat(
                            bytes(5, 1, 2, 5, 5),
                            "alice".getBytes(StandardCharsets.US_ASCII),
                            bytes(6),
                            "wonder".getBytes(StandardCharsets.US_ASCII)));
            assertArrayEquals(bytes(5, 2, 1, 1), rest(s));
        }
        try (Socket s = connect()) { // request with version 4 after a good login
            assertArrayEquals(
                    failure(Socks5Codec.Reply.GENERAL_FAILURE.code()),
                    handshake(s, bytes(4, 1, 0, 1, 127, 0, 0, 1, 0, 80)));
        }
        stillServes();
    }

    @Test
    void truncatedInputEndsInACleanClose() throws IOException {
        byte[][] truncated = {
            bytes(5),
            bytes(5, 3, 0),
            concat(bytes(5, 1, 2), bytes(1, 5), "ali".getBytes(StandardCharsets.US_ASCII)),
            concat(
                    bytes(5, 1, 2),
                    login("alice", "wonder"),
                    bytes(5, 1, 0, 3, 200),
                    "short".getBytes(StandardCharsets.US_ASCII)),
            concat(bytes(5, 1, 2), login("alice", "wonder"), bytes(5, 1, 0, 1, 127, 0))
        };
        for (byte[] input : truncated) {
            try (Socket s = connect()) {
                s.getOutputStream().write(input);
                s.shutdownOutput();
                byte[] answer = rest(s);
                // whatever the server already owed (the method, the login result), never a request reply
                assertTrue(answer.length <= 4, "answer to a truncated handshake: " + Arrays.toString(answer));
            }
        }
        stillServes();
    }

    @Test
    void aSlowHandshakeIsClosedAtTheDeadline() throws IOException {
        try (Socket s = connect()) {
            long t0 = System.nanoTime();
            s.getOutputStream().write(bytes(5, 1)); // and never the method list
            assertEquals(0, rest(s).length);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms >= HANDSHAKE.toMillis() - 100 && ms < 8_000, "closed after " + ms + " ms");
        }
        try (Socket s = connect()) { // a silent client too
            long t0 = System.nanoTime();
            assertEquals(0, rest(s).length);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 8_000, "closed after " + ms + " ms");
        }
        stillServes();
    }

    @Test
    void theConnectionCapIsSharedWithTheHttpListener() throws IOException {
        stop();
        origin = TestOrigin.http();
        start(GatewayConfig.builder().maxConnections(1).build(), ProxyAuthenticator.anonymous());
        try (Socket held = new Socket(InetAddress.getLoopbackAddress(), http.port())) {
            Await.atMost(Duration.ofSeconds(5))
                    .until("the HTTP connection counted", http::openConnections, n -> n == 1);
            assertEquals(1, socks.openConnections(), "one count for both listeners");
            try (Socket s = connect()) {
                s.getOutputStream().write(bytes(5, 1, 0));
                assertEquals(0, rest(s).length, "over the cap: closed before any byte is read");
            } catch (SocketException reset) {
                // refused by a reset: just as closed
            }
            assertTrue(http.refusedConnections() >= 1);
        }
    }
}
