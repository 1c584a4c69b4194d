package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BodyRelayTest {

    private static String relay(String input, long framing, boolean dechunk) throws IOException {
        WireReader r = new WireReader(new ByteArrayInputStream(input.getBytes(StandardCharsets.ISO_8859_1)), 64, false);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        WireWriter w = new WireWriter(sink, 64, true);
        BodyRelay.relay(r, w, framing, dechunk, 1024);
        w.flush();
        return sink.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void chunkedBodyWithExtensionsAndTrailersIsRelayedVerbatim() throws IOException {
        String body = "5;ext=1\r\nhello\r\n1A\r\n" + "x".repeat(26) + "\r\n0\r\nX-Checksum: 42\r\nX-More: y\r\n\r\n";
        assertEquals(body, relay(body + "NEXT", Framing.CHUNKED, false));
    }

    @Test
    void chunkedBodyIsDechunkedForHttp10Clients() throws IOException {
        String body = "5\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n";
        assertEquals("hello world", relay(body, Framing.CHUNKED, true));
    }

    @Test
    void lengthBodyStopsAtItsLength() throws IOException {
        assertEquals("0123456789", relay("0123456789REST", 10, false));
    }

    @Test
    void untilCloseCopiesEverything() throws IOException {
        String big = "z".repeat(10_000);
        assertEquals(big, relay(big, Framing.UNTIL_CLOSE, false));
    }

    @Test
    void truncatedBodyIsAnUpstreamFailure() {
        PeerIOException e = assertThrows(PeerIOException.class, () -> relay("short", 10, false));
        assertEquals(false, e.client());
    }

    @Test
    void badChunkSizeIsAProtocolError() {
        PeerIOException e =
                assertThrows(PeerIOException.class, () -> relay("zz\r\nhello\r\n0\r\n\r\n", Framing.CHUNKED, false));
        assertEquals(java.net.ProtocolException.class, e.getCause().getClass());
    }

    @Test
    void chunkSizeParsing() {
        assertEquals(0, BodyRelay.chunkSize("0"));
        assertEquals(255, BodyRelay.chunkSize("ff ; name=value"));
        assertEquals(-1, BodyRelay.chunkSize(""));
        assertEquals(-1, BodyRelay.chunkSize("-1"));
        assertEquals(-1, BodyRelay.chunkSize("1234567890abcdef0"));
    }
}
