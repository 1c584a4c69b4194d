package dev.proxypool.sdk.dial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.sdk.credentials.Credentials;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The handshake codec without sockets: the same wire bytes fed one byte at a time, in small
 * pieces and in one buffer give the same verdict, consume exactly the handshake's bytes and leave
 * the tunnel's first bytes in the buffer.
 */
class UpstreamHandshakeTest {

    private static final Target TARGET = Target.of("example.com", 443);
    private static final byte[] BANNER = ascii("SSH-2.0-OpenSSH_9.6\r\n");

    /** Feeds {@code wire} in pieces of {@code piece} bytes (0: one buffer); the bytes left after open. */
    private static byte[] feed(UpstreamHandshake h, byte[] wire, int piece) throws HandshakeRejected {
        int step = piece == 0 ? wire.length : piece;
        for (int off = 0; off < wire.length; off += step) {
            ByteBuffer in = ByteBuffer.wrap(wire, off, Math.min(step, wire.length - off));
            boolean open = h.input(in);
            if (open) {
                assertTrue(h.open());
                ByteArrayOutputStream rest = new ByteArrayOutputStream();
                rest.write(wire, in.position(), in.remaining());
                int next = Math.min(wire.length, off + step);
                rest.write(wire, next, wire.length - next);
                return rest.toByteArray();
            }
            assertFalse(in.hasRemaining(), "false only with the buffer drained");
            assertFalse(h.open());
        }
        return null;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            b.writeBytes(p);
        }
        return b.toByteArray();
    }

    @ParameterizedTest(name = "pieces of {0} (0: one buffer)")
    @ValueSource(ints = {1, 2, 3, 7, 0})
    void connectSendsTheRequestAndLeavesTheBannerBehindTheReply(int piece) throws Exception {
        UpstreamHandshake h = UpstreamHandshake.tunnel(Protocol.HTTP, TARGET, Credentials.of("u", "p"));
        assertEquals(
                "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nProxy-Authorization: Basic dTpw\r\n\r\n",
                new String(h.output(), StandardCharsets.US_ASCII));
        assertEquals(0, h.output().length, "output() drains");
        byte[] rest = feed(h, concat(ascii("HTTP/1.1 200 Connection established\r\nVia: x\r\n\r\n"), BANNER), piece);
        assertArrayEquals(BANNER, rest);
        assertEquals(0, h.output().length);
        assertEquals(0, h.wanted());
        ByteBuffer more = ByteBuffer.wrap(BANNER);
        assertTrue(h.input(more), "open stays open");
        assertEquals(0, more.position(), "and consumes nothing more");
    }

    @ParameterizedTest(name = "pieces of {0} (0: one buffer)")
    @ValueSource(ints = {1, 5, 0})
    void interimRepliesAreSkippedUpToFour(int piece) throws Exception {
        String interim = "HTTP/1.1 100 Continue\r\n\r\n";
        UpstreamHandshake h = UpstreamHandshake.tunnel(Protocol.HTTPS, TARGET, null);
        byte[] rest = feed(h, concat(ascii(interim.repeat(4) + "HTTP/1.1 200 OK\r\n\r\n"), BANNER), piece);
        assertArrayEquals(BANNER, rest);

        UpstreamHandshake five = UpstreamHandshake.tunnel(Protocol.HTTP, TARGET, null);
        HandshakeRejected e = assertThrows(
                HandshakeRejected.class, () -> feed(five, ascii(interim.repeat(5) + "HTTP/1.1 200 OK\r\n\r\n"), piece));
        assertEquals(FailureKind.PROTOCOL_ERROR, e.kind());
        assertEquals("the proxy refused CONNECT with 100", e.getMessage());
    }

    @ParameterizedTest(name = "{0} with credentials {1}")
    @CsvSource({
        "407, true,  PROXY_AUTH_REJECTED,  false, the proxy rejected the credentials (407)",
        "407, false, PROXY_AUTH_REJECTED,  false, the proxy requires credentials (407) and the proxy has no credentialRef",
        "403, false, UPSTREAM_UNREACHABLE, true,  the proxy refused this target (403)",
        "502, false, UPSTREAM_UNREACHABLE, false, the proxy could not reach the target (502)",
        "500, false, UPSTREAM_UNREACHABLE, false, the proxy could not reach the target (500)",
        "404, false, UPSTREAM_UNREACHABLE, false, the proxy could not reach the target (404)",
        "405, false, PROTOCOL_ERROR,       false, the proxy refused CONNECT with 405",
        "301, false, PROTOCOL_ERROR,       false, the proxy refused CONNECT with 301"
    })
    void connectRefusalsAreClassifiedByTheTable(
            int status, boolean withCredentials, FailureKind kind, boolean forbidden, String message) {
        for (int piece : new int[] {1, 0}) {
            UpstreamHandshake h =
                    UpstreamHandshake.tunnel(Protocol.HTTP, TARGET, withCredentials ? Credentials.of("u", "p") : null);
            h.output();
            byte[] reply = ascii("HTTP/1.1 " + status + " Whatever\r\nContent-Length: 0\r\n\r\n");
            HandshakeRejected e = assertThrows(HandshakeRejected.class, () -> feed(h, reply, piece));
            assertEquals(kind, e.kind());
            assertEquals(forbidden, e.destinationForbidden());
            assertEquals(message, e.getMessage());
            assertEquals(0, h.wanted());
            assertThrows(IllegalStateException.class, () -> h.input(ByteBuffer.wrap(reply)), "rejected is final");
        }
    }

    @Test
    void aReplyThatIsNotHttpFailsAtItsFirstWrongByte() {
        UpstreamHandshake h = UpstreamHandshake.tunnel(Protocol.HTTP, TARGET, null);
        ByteBuffer in = ByteBuffer.wrap(ascii("SSH-2.0-x\r\n"));
        HandshakeRejected e = assertThrows(HandshakeRejected.class, () -> h.input(in));
        assertEquals(FailureKind.PROTOCOL_ERROR, e.kind());
        assertEquals("the reply is not HTTP", e.getMessage());
        assertEquals(1, in.position(), "no blank line awaited");
    }

    @Test
    void aHeadEndedByBareLineFeedsOpensTheTunnel() throws Exception {
        UpstreamHandshake h = UpstreamHandshake.tunnel(Protocol.HTTP, TARGET, null);
        assertArrayEquals(BANNER, feed(h, concat(ascii("HTTP/1.0 200 OK\nVia: y\n\n"), BANNER), 0));
    }

    @ParameterizedTest(name = "pieces of {0} (0: one buffer)")
    @ValueSource(ints = {1, 4096, 0})
    void aReplyHeadLongerThanTheLimitIsAProtocolError(int piece) throws Exception {
        String start = "HTTP/1.1 200 OK\r\nX: ";
        String fits = start + "a".repeat(UpstreamHandshake.MAX_HTTP_HEAD - start.length() - 4) + "\r\n\r\n";
        assertEquals(UpstreamHandshake.MAX_HTTP_HEAD, fits.length());
        UpstreamHandshake ok = UpstreamHandshake.tunnel(Protocol.HTTP, TARGET, null);
        assertArrayEquals(new byte[0], feed(ok, ascii(fits), piece), "a head of exactly the limit is read");

        UpstreamHandshake h = UpstreamHandshake.tunnel(Protocol.HTTP, TARGET, null);
        byte[] endless = ascii(start + "a".repeat(UpstreamHandshake.MAX_HTTP_HEAD * 2));
        HandshakeRejected e = assertThrows(HandshakeRejected.class, () -> feed(h, endless, piece));
        assertEquals(FailureKind.PROTOCOL_ERROR, e.kind());
        assertEquals("reply head longer than 16384 bytes", e.getMessage());
    }

    @Test
    void wantedNeverReachesPastACrlfHead() throws Exception {
        UpstreamHandshake h = UpstreamHandshake.tunnel(Protocol.HTTP, TARGET, null);
        byte[] wire = concat(ascii("HTTP/1.1 200 OK\r\nA: b\r\n\r\n"), BANNER);
        int off = 0;
        int reads = 0;
        while (!h.open()) {
            int n = h.wanted();
            assertTrue(n >= 1 && n <= 4, "wanted " + n);
            ByteBuffer in = ByteBuffer.wrap(wire, off, n);
            h.input(in);
            assertFalse(in.hasRemaining(), "a read of wanted() bytes is all handshake");
            off += n;
            reads++;
        }
        assertEquals(wire.length - BANNER.length, off);
        assertTrue(reads <= 10, "about 4 bytes a read: " + reads);
    }

    @ParameterizedTest(name = "pieces of {0} (0: one buffer)")
    @ValueSource(ints = {1, 2, 0})
    void socks5WithUsernameAndPassword(int piece) throws Exception {
        UpstreamHandshake h = UpstreamHandshake.tunnel(Protocol.SOCKS5, TARGET, Credentials.of("user", "pw"));
        assertArrayEquals(new byte[] {5, 2, 0, 2}, h.output());
        assertEquals(2, h.wanted());
        assertEquals(null, feed(h, new byte[] {5, 2}, piece));
        assertArrayEquals(new byte[] {1, 4, 'u', 's', 'e', 'r', 2, 'p', 'w'}, h.output());
        assertEquals(null, feed(h, new byte[] {1, 0}, piece));
        assertArrayEquals(Socks5.request(TARGET), h.output());
        byte[] reply = {5, 0, 0, 3, 4, 'h', '.', 'x', 'y', 0x01, (byte) 0xBB};
        assertArrayEquals(BANNER, feed(h, concat(reply, BANNER), piece));
        assertEquals(0, h.output().length);
    }

    @ParameterizedTest(name = "pieces of {0} (0: one buffer)")
    @ValueSource(ints = {1, 0})
    void socks5AuthenticationFailureIsACredentialRejection(int piece) throws Exception {
        UpstreamHandshake h = UpstreamHandshake.tunnel(Protocol.SOCKS5, TARGET, Credentials.of("user", "pw"));
        h.output();
        feed(h, new byte[] {5, 2}, piece);
        h.output();
        HandshakeRejected e = assertThrows(HandshakeRejected.class, () -> feed(h, new byte[] {1, 1}, piece));
        assertEquals(FailureKind.PROXY_AUTH_REJECTED, e.kind());
        assertEquals("the proxy rejected the username/password", e.getMessage());
        assertEquals(0, h.output().length, "nothing more goes to the proxy");

        UpstreamHandshake none = UpstreamHandshake.tunnel(Protocol.SOCKS5, TARGET, null);
        assertArrayEquals(new byte[] {5, 1, 0}, none.output());
        e = assertThrows(HandshakeRejected.class, () -> feed(none, new byte[] {5, (byte) 0xFF}, piece));
        assertEquals(FailureKind.PROXY_AUTH_REJECTED, e.kind());
        assertEquals("the proxy requires authentication and the proxy has no credentialRef", e.getMessage());
    }

    /** A proxy that sends its method choice and its reply at once (pipelined): both are read, in order. */
    @Test
    void socks5RepliesInOneBufferAreReadInOrder() throws Exception {
        Target v6 = Target.of("::1", 80);
        UpstreamHandshake h = UpstreamHandshake.tunnel(Protocol.SOCKS5, v6, null);
        h.output();
        byte[] reply = new byte[4 + 16 + 2];
        reply[0] = 5;
        reply[3] = 4;
        assertArrayEquals(BANNER, feed(h, concat(new byte[] {5, 0}, reply, BANNER), 0));
        assertArrayEquals(Socks5.request(v6), h.output(), "the request still goes out");
    }

    @ParameterizedTest(name = "SOCKS5 reply {0}")
    @CsvSource({
        "1, UPSTREAM_UNREACHABLE, false",
        "2, UPSTREAM_UNREACHABLE, true",
        "4, UPSTREAM_UNREACHABLE, false",
        "5, UPSTREAM_UNREACHABLE, false",
        "7, PROTOCOL_ERROR, false",
        "9, PROTOCOL_ERROR, false"
    })
    void socks5ReplyCodesAreClassifiedAfterTheWholeReply(int rep, FailureKind kind, boolean forbidden)
            throws Exception {
        UpstreamHandshake h = UpstreamHandshake.tunnel(Protocol.SOCKS5, Target.of("10.0.0.1", 80), null);
        h.output();
        feed(h, new byte[] {5, 0}, 0);
        byte[] reply = {5, (byte) rep, 0, 1, 0, 0, 0, 0, 0};
        assertEquals(null, feed(h, reply, 0), "one byte of the port is missing: no verdict yet");
        HandshakeRejected e = assertThrows(HandshakeRejected.class, () -> h.input(ByteBuffer.wrap(new byte[] {0})));
        assertEquals(kind, e.kind());
        assertEquals(forbidden, e.destinationForbidden());
    }

    @ParameterizedTest(name = "SOCKS4 reply {0}")
    @CsvSource({"91, UPSTREAM_UNREACHABLE", "92, PROXY_AUTH_REJECTED", "93, PROXY_AUTH_REJECTED", "95, PROTOCOL_ERROR"})
    void socks4RefusalsAreClassifiedByTheTable(int code, FailureKind kind) {
        for (int piece : new int[] {1, 0}) {
            UpstreamHandshake h = UpstreamHandshake.tunnel(Protocol.SOCKS4, TARGET, null);
            assertArrayEquals(Socks4.request(TARGET, null), h.output());
            HandshakeRejected e = assertThrows(
                    HandshakeRejected.class, () -> feed(h, new byte[] {0, (byte) code, 0, 0, 0, 0, 0, 0}, piece));
            assertEquals(kind, e.kind());
        }
    }

    @ParameterizedTest(name = "pieces of {0} (0: one buffer)")
    @ValueSource(ints = {1, 3, 0})
    void socks4GrantedLeavesTheBanner(int piece) throws Exception {
        UpstreamHandshake h = UpstreamHandshake.tunnel(Protocol.SOCKS4, Target.of("10.0.0.2", 22), null);
        assertEquals(8, h.wanted());
        byte[] granted = {0, 90, 0, 0, 0, 0, 0, 0};
        assertArrayEquals(BANNER, feed(h, concat(granted, BANNER), piece));
        HandshakeRejected e = assertThrows(
                HandshakeRejected.class,
                () -> feed(
                        UpstreamHandshake.tunnel(Protocol.SOCKS4, TARGET, null),
                        Arrays.copyOf(ascii("HTTP/1.1 200 OK\r\n"), 8),
                        piece));
        assertEquals("the reply is not SOCKS4", e.getMessage());
    }

    @Test
    void targetsAndCredentialsTheProtocolCannotCarryAreRefusedUpFront() {
        assertThrows(
                IllegalArgumentException.class,
                () -> UpstreamHandshake.tunnel(Protocol.SOCKS4, Target.of("::1", 80), null));
        Credentials longUser = Credentials.of("u".repeat(256), "p");
        assertFalse(UpstreamHandshake.credentialsFit(Protocol.SOCKS5, longUser));
        assertFalse(UpstreamHandshake.credentialsFit(Protocol.SOCKS4, longUser));
        assertTrue(UpstreamHandshake.credentialsFit(Protocol.HTTP, longUser));
        assertThrows(IllegalArgumentException.class, () -> UpstreamHandshake.tunnel(Protocol.SOCKS5, TARGET, longUser));
        assertTrue(UpstreamHandshake.credentialsFit(Protocol.SOCKS4, Credentials.of("u", "p".repeat(300))));
    }
}
