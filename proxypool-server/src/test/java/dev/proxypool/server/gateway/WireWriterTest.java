package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link WireWriter#writeAscii}: each char's low 8 bits, across buffer boundaries, in order. */
class WireWriterTest {

    @Test
    void writesLowEightBitsOfEveryCharAcrossBufferBoundaries() throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        WireWriter w = new WireWriter(sink, 8, true);
        String text = "X-Name: caf\u00e9 \u0141\u00ff-" + "0123456789".repeat(3);
        w.writeByte('>');
        w.writeAscii(text);
        w.header("A", "b");
        w.flush();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write('>');
        for (char c : text.toCharArray()) {
            expected.write((byte) c);
        }
        expected.writeBytes("A: b\r\n".getBytes(StandardCharsets.US_ASCII));
        assertArrayEquals(expected.toByteArray(), sink.toByteArray());
    }
}
