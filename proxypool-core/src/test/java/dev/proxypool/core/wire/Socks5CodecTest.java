package dev.proxypool.core.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class Socks5CodecTest {

    private static byte[] bytes(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return b;
    }

    /** Every strict prefix decodes to null and leaves the buffer alone; the whole message decodes once. */
    private static <T> T decodeAfterPrefixes(byte[] message, Function<ByteBuffer, T> decoder) {
        for (int n = 0; n < message.length; n++) {
            ByteBuffer part = ByteBuffer.wrap(message, 0, n);
            assertNull(decoder.apply(part), "prefix of " + n + " bytes");
            assertEquals(0, part.position(), "a prefix is not consumed");
        }
        byte[] withMore = Arrays.copyOf(message, message.length + 3); // pipelined bytes behind it
        ByteBuffer all = ByteBuffer.wrap(withMore);
        T decoded = decoder.apply(all);
        assertEquals(message.length, all.position(), "exactly the message is taken");
        return decoded;
    }

    @Test
    void everyReplyCodeHasItsMeaning() {
        String[] meanings = {
            "succeeded",
            "general SOCKS server failure",
            "connection not allowed by ruleset",
            "network unreachable",
            "host unreachable",
            "connection refused",
            "TTL expired",
            "command not supported",
            "address type not supported"
        };
        assertEquals(meanings.length, Socks5Codec.Reply.values().length);
        for (int code = 0; code < meanings.length; code++) {
            Socks5Codec.Reply r = Socks5Codec.Reply.of(code);
            assertEquals(code, r.code());
            assertEquals(meanings[code], r.meaning());
            assertEquals(meanings[code], Socks5Codec.Reply.describe(code));
        }
        assertNull(Socks5Codec.Reply.of(9));
        assertNull(Socks5Codec.Reply.of(-1));
        assertEquals("unknown SOCKS5 reply code 255", Socks5Codec.Reply.describe(255));
    }

    @ParameterizedTest
    @EnumSource(Socks5Codec.Reply.class)
    void everyReplyCodeRoundTrips(Socks5Codec.Reply r) {
        byte[] wire = Socks5Codec.reply(r.code());
        assertArrayEquals(bytes(5, r.code(), 0, 1, 0, 0, 0, 0, 0, 0), wire);
        Socks5Codec.Message m = decodeAfterPrefixes(wire, Socks5Codec::decodeMessage);
        assertEquals(r, Socks5Codec.Reply.of(m.code()));
        assertEquals("0.0.0.0", m.host());
        assertEquals(0, m.port());
        assertEquals(0, Socks5Codec.missing(ByteBuffer.wrap(wire)));
    }

    @Test
    void greetingAndMethodChoice() throws HeadException {
        byte[] g = Socks5Codec.greeting(Socks5Codec.METHOD_NONE, Socks5Codec.METHOD_USER_PASSWORD);
        assertArrayEquals(bytes(5, 2, 0, 2), g);
        Socks5Codec.Greeting decoded = decodeAfterPrefixes(g, Socks5Codec::decodeGreeting);
        assertEquals(5, decoded.version());
        assertTrue(decoded.offers(Socks5Codec.METHOD_NONE));
        assertTrue(decoded.offers(Socks5Codec.METHOD_USER_PASSWORD));
        assertFalse(decoded.offers(0x01));
        assertEquals(
                0, decodeAfterPrefixes(bytes(5, 0), Socks5Codec::decodeGreeting).methods().length);

        assertArrayEquals(bytes(5, 0xFF), Socks5Codec.methodChoice(Socks5Codec.METHOD_NO_ACCEPTABLE));
        assertEquals(-1, Socks5Codec.decodeMethodChoice(ByteBuffer.wrap(bytes(5))));
        assertEquals(0xFF, Socks5Codec.decodeMethodChoice(ByteBuffer.wrap(bytes(5, 0xFF))));
        HeadException e =
                assertThrows(HeadException.class, () -> Socks5Codec.decodeMethodChoice(ByteBuffer.wrap(bytes(4, 0))));
        assertEquals(HeadException.Kind.SOCKS5_PROTOCOL, e.kind());
    }

    @Test
    void usernamePasswordSubNegotiation() throws HeadException {
        byte[] user = "user".getBytes(StandardCharsets.UTF_8);
        byte[] pass = "pässword".getBytes(StandardCharsets.UTF_8);
        byte[] req = Socks5Codec.authRequest(user, pass);
        Socks5Codec.AuthRequest a = decodeAfterPrefixes(req, Socks5Codec::decodeAuthRequest);
        assertEquals(1, a.version());
        assertArrayEquals(user, a.username());
        assertArrayEquals(pass, a.password());
        assertArrayEquals(bytes(1, 0, 0), Socks5Codec.authRequest(new byte[0], new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> Socks5Codec.authRequest(new byte[256], new byte[0]));

        assertArrayEquals(bytes(1, 0), Socks5Codec.authStatus(true));
        assertArrayEquals(bytes(1, 1), Socks5Codec.authStatus(false));
        assertEquals(0, Socks5Codec.decodeAuthStatus(ByteBuffer.wrap(bytes(1, 0))));
        assertEquals(0, Socks5Codec.decodeAuthStatus(ByteBuffer.wrap(bytes(5, 0))));
        assertEquals(1, Socks5Codec.decodeAuthStatus(ByteBuffer.wrap(bytes(1, 1))));
        assertEquals(-1, Socks5Codec.decodeAuthStatus(ByteBuffer.wrap(bytes(1))));
        assertThrows(HeadException.class, () -> Socks5Codec.decodeAuthStatus(ByteBuffer.wrap(bytes(2, 0))));

        byte[] secret = pass.clone();
        Socks5Codec.wipe(secret);
        assertArrayEquals(new byte[pass.length], secret);
    }

    @Test
    void requestsOfEveryAddressType() {
        byte[] v4 = Socks5Codec.request(Socks5Codec.CMD_CONNECT, Socks5Codec.ATYP_IPV4, bytes(127, 0, 0, 1), 8080);
        assertArrayEquals(bytes(5, 1, 0, 1, 127, 0, 0, 1, 0x1F, 0x90), v4);
        assertEquals(
                new Socks5Codec.Message(5, 1, 1, "127.0.0.1", 8080),
                decodeAfterPrefixes(v4, Socks5Codec::decodeMessage));

        byte[] six = new byte[16];
        six[15] = 1;
        byte[] v6 = Socks5Codec.request(Socks5Codec.CMD_CONNECT, Socks5Codec.ATYP_IPV6, six, 443);
        assertEquals(22, v6.length);
        assertEquals(
                "0:0:0:0:0:0:0:1",
                decodeAfterPrefixes(v6, Socks5Codec::decodeMessage).host());

        byte[] name = "example.com".getBytes(StandardCharsets.US_ASCII);
        byte[] domain = Socks5Codec.request(Socks5Codec.CMD_BIND, Socks5Codec.ATYP_DOMAIN, name, 65535);
        assertEquals(5 + name.length + 2, domain.length);
        Socks5Codec.Message m = decodeAfterPrefixes(domain, Socks5Codec::decodeMessage);
        assertEquals(
                new Socks5Codec.Message(5, Socks5Codec.CMD_BIND, Socks5Codec.ATYP_DOMAIN, "example.com", 65535), m);
        assertTrue(m.whole());

        assertThrows(
                IllegalArgumentException.class,
                () -> Socks5Codec.request(Socks5Codec.CMD_CONNECT, Socks5Codec.ATYP_IPV4, six, 1));
        assertThrows(
                IllegalArgumentException.class,
                () -> Socks5Codec.request(Socks5Codec.CMD_CONNECT, Socks5Codec.ATYP_DOMAIN, new byte[256], 1));
    }

    @Test
    void aWrongVersionOrUnknownAddressTypeIsReportedAfterFourBytes() {
        ByteBuffer badType = ByteBuffer.wrap(bytes(5, 1, 0, 7, 1, 2, 3));
        Socks5Codec.Message m = Socks5Codec.decodeMessage(badType);
        assertFalse(m.whole());
        assertEquals(7, m.addressType());
        assertEquals(-1, m.port());
        assertEquals(4, badType.position());

        ByteBuffer badVersion = ByteBuffer.wrap(bytes(4, 1, 0, 1));
        m = Socks5Codec.decodeMessage(badVersion);
        assertEquals(4, m.version());
        assertFalse(m.whole());
    }

    @Test
    void missingTellsAnExactReaderHowMuchToRead() {
        byte[] reply = Socks5Codec.request(0, Socks5Codec.ATYP_DOMAIN, "ab".getBytes(StandardCharsets.US_ASCII), 80);
        int n = 0;
        int reads = 0;
        while (true) {
            int want = Socks5Codec.missing(ByteBuffer.wrap(reply, 0, n));
            if (want == 0) {
                break;
            }
            n += want;
            reads++;
            assertTrue(n <= reply.length, "never asks past the message");
        }
        assertEquals(reply.length, n);
        assertEquals(3, reads); // 4 bytes, the length byte, the rest
        assertEquals(4, Socks5Codec.missing(ByteBuffer.allocate(0)));
        assertEquals(0, Socks5Codec.missing(ByteBuffer.wrap(bytes(5, 0, 0, 9))));
        assertEquals(6, Socks5Codec.missing(ByteBuffer.wrap(bytes(5, 0, 0, 1))));
        assertEquals(18, Socks5Codec.missing(ByteBuffer.wrap(bytes(5, 0, 0, 4))));
    }

    @Test
    void replyWithABoundAddress() {
        byte[] v6 = new byte[16];
        v6[0] = 0x20;
        byte[] r = Socks5Codec.reply(0, v6, 1080);
        assertEquals(Socks5Codec.ATYP_IPV6, r[3]);
        assertEquals(1080, Socks5Codec.decodeMessage(ByteBuffer.wrap(r)).port());
        assertEquals(Socks5Codec.ATYP_IPV4, Socks5Codec.reply(5, bytes(10, 0, 0, 1), 1)[3]);
    }

    @Test
    void blockingReadTakesExactlyOneMessage() throws IOException {
        byte[] greeting = Socks5Codec.greeting(0);
        byte[] request = Socks5Codec.request(1, 1, bytes(1, 2, 3, 4), 80);
        byte[] both = new byte[greeting.length + request.length];
        System.arraycopy(greeting, 0, both, 0, greeting.length);
        System.arraycopy(request, 0, both, greeting.length, request.length);
        ByteArrayInputStream in = new ByteArrayInputStream(both);
        assertTrue(Socks5Codec.read(in, Socks5Codec::decodeGreeting).offers(0));
        assertEquals(request.length, in.available());
        assertEquals("1.2.3.4", Socks5Codec.read(in, Socks5Codec::decodeMessage).host());
        assertThrows(EOFException.class, () -> Socks5Codec.read(in, Socks5Codec::decodeGreeting));
        assertThrows(
                EOFException.class,
                () -> Socks5Codec.read(new ByteArrayInputStream(bytes(5, 3, 0)), Socks5Codec::decodeGreeting));
    }
}
