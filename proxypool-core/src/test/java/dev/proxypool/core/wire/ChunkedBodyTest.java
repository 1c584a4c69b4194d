package dev.proxypool.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proxypool.core.wire.HeadException.Kind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ChunkedBodyTest {

    private static InputStream in(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String data(String body, long limit) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long n = ChunkedBody.copyData(in(body), out, limit, 64, 2);
        assertEquals(out.size(), n);
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void dataOfEveryChunkInOrderExtensionsAndTrailersDropped() throws IOException {
        assertEquals("hello, world", data("5\r\nhello\r\n2;ext=1\r\n, \r\n 5 \r\nworld\r\n0\r\nX-T: 1\r\n\r\n", 100));
        assertEquals("", data("0\r\n\r\n", 0));
        assertEquals("abc", data("3\nabc\n0\n\n", 100)); // bare LF ends a line too
    }

    @Test
    void nothingPastTheLastLineIsTaken() throws IOException {
        InputStream in = in("1\r\na\r\n0\r\n\r\nNEXT");
        ChunkedBody.copyData(in, OutputStream.nullOutputStream(), 10, 64, 2);
        assertEquals("NEXT", new String(in.readAllBytes(), StandardCharsets.ISO_8859_1));
    }

    @Test
    void framedCopyKeepsSizeLinesDataTrailersAndTheEndInCrlf() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long n = ChunkedBody.copyFramed(in("3;x\nabc\n0\nT: v\n\n"), out, 64, 2);
        assertEquals(3, n);
        assertEquals("3;x\r\nabc\r\n0\r\nT: v\r\n\r\n", out.toString(StandardCharsets.ISO_8859_1));
    }

    static Stream<Arguments> brokenFramings() {
        return Stream.of(
                Arguments.of("zz\r\n", Kind.MALFORMED_CHUNK_SIZE),
                Arguments.of("\r\n", Kind.MALFORMED_CHUNK_SIZE),
                Arguments.of("-1\r\n", Kind.MALFORMED_CHUNK_SIZE),
                Arguments.of("1000000000000000\r\n", Kind.MALFORMED_CHUNK_SIZE),
                Arguments.of("3\r\nabcX\r\n0\r\n\r\n", Kind.CHUNK_NOT_TERMINATED),
                Arguments.of("b\r\nhello world\r\n0\r\n\r\n", Kind.BODY_TOO_LARGE),
                Arguments.of("0\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", Kind.TOO_MANY_FIELDS),
                Arguments.of("1;" + "a".repeat(80) + "\r\n", Kind.LINE_TOO_LONG));
    }

    @ParameterizedTest
    @MethodSource("brokenFramings")
    void aBrokenFramingIsNamed(String body, Kind kind) {
        HeadException e = assertThrows(HeadException.class, () -> data(body, 10));
        assertEquals(kind, e.kind(), e.getMessage());
    }

    @Test
    void fifteenHexDigitsAreTheLongestSize() throws IOException {
        assertEquals(0xFFFFFFFFFFFFFFFL, ChunkedBody.size("fffffffffffffff"));
        assertEquals(0x1aL, ChunkedBody.size("1A;name=value"));
    }

    @Test
    void theStreamEndingInsideALineOrAChunkIsAnEndOfFile() {
        assertThrows(HeadReader.Incomplete.class, () -> data("5\r\nhello\r\n", 100)); // no last chunk
        assertThrows(HeadReader.Incomplete.class, () -> data("5", 100));
        EOFException inside = assertThrows(EOFException.class, () -> data("5\r\nhel", 100));
        assertEquals("the connection ended inside a chunk", inside.getMessage());
    }
}
