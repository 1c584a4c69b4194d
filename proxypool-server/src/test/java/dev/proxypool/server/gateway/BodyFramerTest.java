package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The body framing an event loop keeps over bytes as they arrive: every case fed whole and byte by byte
 * (a loop sees any split), with what is handed on and what stays for the next message.
 */
class BodyFramerTest {

    /** What the framer hands on, whether it ended, and the bytes left after the body. */
    private record Fed(String relayed, boolean ended, String rest) {}

    private static Fed feed(String input, long framing, boolean dechunk, boolean byteByByte)
            throws BodyFramer.FramingException {
        BodyFramer f = new BodyFramer(framing, dechunk, 1024, ByteBufAllocator.DEFAULT);
        ByteBuf in = Unpooled.buffer();
        StringBuilder out = new StringBuilder();
        boolean ended = false;
        byte[] bytes = input.getBytes(StandardCharsets.ISO_8859_1);
        int step = byteByByte ? 1 : Math.max(1, bytes.length);
        int written = 0;
        try {
            while (written < bytes.length && !ended) {
                int n = Math.min(step, bytes.length - written);
                in.writeBytes(bytes, written, n);
                written += n;
                ended = f.feed(in, b -> {
                    out.append(b.toString(StandardCharsets.ISO_8859_1));
                    b.release();
                });
            }
            String rest = in.toString(StandardCharsets.ISO_8859_1)
                    + new String(bytes, written, bytes.length - written, StandardCharsets.ISO_8859_1);
            return new Fed(out.toString(), ended, rest);
        } finally {
            in.release();
        }
    }

    private static void both(String input, long framing, boolean dechunk, Fed expected)
            throws BodyFramer.FramingException {
        assertEquals(expected, feed(input, framing, dechunk, false), "fed whole");
        assertEquals(expected, feed(input, framing, dechunk, true), "fed byte by byte");
    }

    @Test
    void aChunkedBodyWithExtensionsAndTrailersIsRelayedVerbatimAndTheNextMessageStays() throws Exception {
        String body = "5;ext=1\r\nhello\r\n1A\r\n" + "x".repeat(26) + "\r\n0\r\nX-Checksum: 42\r\nX-More: y\r\n\r\n";
        both(body + "NEXT", Framing.CHUNKED, false, new Fed(body, true, "NEXT"));
    }

    @Test
    void aChunkedBodyIsDechunkedForAnHttp10Client() throws Exception {
        both(
                "5\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n",
                Framing.CHUNKED,
                true,
                new Fed("hello world", true, ""));
    }

    @Test
    void aLengthBodyStopsAtItsLength() throws Exception {
        both("0123456789REST", 10, false, new Fed("0123456789", true, "REST"));
    }

    @Test
    void untilCloseHandsOnEverythingAndNeverEnds() throws Exception {
        String big = "z".repeat(10_000);
        Fed fed = feed(big, Framing.UNTIL_CLOSE, false, false);
        assertEquals(big, fed.relayed());
        assertFalse(fed.ended(), "only the peer's close ends it");
    }

    @Test
    void aShortLengthBodyHasNotEnded() throws Exception {
        Fed fed = feed("short", 10, false, true);
        assertEquals("short", fed.relayed());
        assertFalse(fed.ended(), "five of ten bytes: the close that follows is a truncated body");
    }

    @Test
    void aBadChunkSizeOrAMissingCrlfBreaksTheFraming() {
        for (String bad : new String[] {"zz\r\nhello\r\n0\r\n\r\n", "5\r\nhelloXX\r\n0\r\n\r\n", "-1\r\n"}) {
            assertThrows(BodyFramer.FramingException.class, () -> feed(bad, Framing.CHUNKED, false, false), bad);
            assertThrows(BodyFramer.FramingException.class, () -> feed(bad, Framing.CHUNKED, false, true), bad);
        }
    }

    @Test
    void chunkSizeLines() {
        assertEquals(0, BodyFramer.chunkSize("0"));
        assertEquals(255, BodyFramer.chunkSize("ff ; name=value"));
        assertEquals(0x1A, BodyFramer.chunkSize("1A"));
        assertEquals(-1, BodyFramer.chunkSize(""));
        assertEquals(-1, BodyFramer.chunkSize("-1"));
        assertEquals(-1, BodyFramer.chunkSize("1234567890abcdef0"), "over 15 hex digits");
        assertEquals(-1, BodyFramer.chunkSize("5\u0001"), "a control character");
        assertTrue(BodyFramer.chunkSize("fffffffffffffff") > 0);
    }
}
