package dev.proxypool.core.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.wire.HeadException.Kind;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class Http1ParserTest {

    private static final int LINE = 8192;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static HeadReader window(String s) {
        byte[] b = bytes(s);
        return HeadReader.over(b, 0, b.length);
    }

    private static List<String[]> fields(HeadReader in, int maxBytes, int maxCount, Http1Parser.FieldRules rules)
            throws IOException {
        List<String[]> out = new ArrayList<>();
        Http1Parser.fields(in, (n, v) -> out.add(new String[] {n, v}), maxBytes, maxCount, rules);
        return out;
    }

    private static Kind requestKind(String raw) {
        return assertThrows(HeadException.class, () -> {
                    HeadReader in = window(raw);
                    Http1Parser.requestLine(in, LINE);
                    fields(in, 8192, 100, Http1Parser.FieldRules.STRICT);
                })
                .kind();
    }

    @Test
    void requestLineAndFieldsFromAWindow() throws IOException {
        HeadReader in = window("GET http://h/x?y HTTP/1.1\r\nHost: h\r\nX-A: \t v v \t\r\n\r\nrest");
        Http1Parser.RequestLine line = Http1Parser.requestLine(in, LINE);
        assertEquals(new Http1Parser.RequestLine("GET", "http://h/x?y", true), line);
        List<String[]> f = fields(in, 8192, 100, Http1Parser.FieldRules.STRICT);
        assertEquals(2, f.size());
        assertEquals("Host", f.get(0)[0]);
        assertEquals("h", f.get(0)[1]);
        assertEquals("v v", f.get(1)[1]);
        assertEquals("GET http://h/x?y HTTP/1.1\r\nHost: h\r\nX-A: \t v v \t\r\n\r\n".length(), in.consumed());
    }

    @Test
    void pipelinedHeadsAreTakenOneAtATime() throws IOException {
        String one = "GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\n";
        String two = "CONNECT b:443 HTTP/1.0\n\n";
        byte[] all = bytes(one + two);
        HeadReader first = HeadReader.over(all, 0, all.length);
        assertEquals("GET", Http1Parser.requestLine(first, LINE).method());
        fields(first, 8192, 100, Http1Parser.FieldRules.STRICT);
        assertEquals(one.length(), first.consumed());
        HeadReader second = HeadReader.over(all, first.consumed(), all.length - first.consumed());
        Http1Parser.RequestLine l = Http1Parser.requestLine(second, LINE);
        assertEquals("b:443", l.target());
        assertFalse(l.http11());
        assertTrue(fields(second, 8192, 100, Http1Parser.FieldRules.STRICT).isEmpty());
        assertEquals(two.length(), second.consumed());
    }

    @Test
    void partialInputIsIncompleteAtEveryCut() throws IOException {
        String head = "POST http://h/ HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n";
        byte[] b = bytes(head);
        for (int cut = 1; cut < b.length; cut++) {
            HeadReader in = HeadReader.over(b, 0, cut);
            assertThrows(
                    HeadReader.Incomplete.class,
                    () -> {
                        Http1Parser.requestLine(in, LINE);
                        fields(in, 8192, 100, Http1Parser.FieldRules.STRICT);
                    },
                    "cut at " + cut);
        }
        HeadReader whole = HeadReader.over(b, 0, b.length);
        Http1Parser.requestLine(whole, LINE);
        assertEquals(2, fields(whole, 8192, 100, Http1Parser.FieldRules.STRICT).size());
    }

    @Test
    void emptyInputAndEmptyLinesBeforeARequestAreNotARequestYet() throws IOException {
        assertNull(Http1Parser.requestLine(window(""), LINE));
        assertNull(Http1Parser.requestLine(window("\r\n\r\n"), LINE));
        assertEquals(
                "GET",
                Http1Parser.requestLine(window("\r\n\n\r\n\nGET http://h/ HTTP/1.1\r\n"), LINE)
                        .method());
        assertEquals(Kind.MALFORMED_REQUEST_LINE, requestKind("\r\n\r\n\r\n\r\n\r\nGET http://h/ HTTP/1.1\r\n"));
    }

    static Stream<Arguments> malformedRequestHeads() {
        return Stream.of(
                Arguments.of("GET http://h/  HTTP/1.1", Kind.MALFORMED_REQUEST_LINE),
                Arguments.of(" GET http://h/ HTTP/1.1", Kind.MALFORMED_REQUEST_LINE),
                Arguments.of("GET", Kind.MALFORMED_REQUEST_LINE),
                Arguments.of("G(T http://h/ HTTP/1.1", Kind.MALFORMED_METHOD),
                Arguments.of("GET http://h/ HTTP/1.2", Kind.UNSUPPORTED_VERSION),
                Arguments.of("GET http://h/ http/1.1", Kind.UNSUPPORTED_VERSION),
                Arguments.of("GET http://h/ HTTP/1.10", Kind.UNSUPPORTED_VERSION),
                Arguments.of("PRI * HTTP/2.0", Kind.HTTP2_PREFACE),
                Arguments.of("GET http://h/ HTTP/1.1\r\n folded: x", Kind.OBSOLETE_LINE_FOLDING),
                Arguments.of("GET http://h/ HTTP/1.1\r\nno colon", Kind.NO_COLON),
                Arguments.of("GET http://h/ HTTP/1.1\r\nBad Name: x", Kind.MALFORMED_FIELD_NAME),
                Arguments.of("GET http://h/ HTTP/1.1\r\n: x", Kind.MALFORMED_FIELD_NAME),
                Arguments.of("GET http://h/ HTTP/1.1\r\nX: a\u0001b", Kind.BAD_FIELD_VALUE));
    }

    @ParameterizedTest
    @MethodSource("malformedRequestHeads")
    void malformedRequestHeadsAreRefusedWithTheirKind(String head, Kind kind) {
        assertEquals(kind, requestKind(head + "\r\n\r\n"));
    }

    @Test
    void controlCharactersInAValueAreRefusedButTabIsNot() throws IOException {
        assertEquals(Kind.BAD_FIELD_VALUE, requestKind("GET http://h/ HTTP/1.1\r\nX: a\u007fb\r\n\r\n"));
        assertEquals(Kind.BAD_FIELD_VALUE, requestKind("GET http://h/ HTTP/1.1\r\nX: a\rb\r\n\r\n"));
        HeadReader in = window("X: a\tb\r\n\r\n");
        assertEquals(
                "a\tb", fields(in, 8192, 100, Http1Parser.FieldRules.STRICT).get(0)[1]);
    }

    @Test
    void requestLineCapCountsCrlfAndFailsBeforeTheLineIsWhole() throws IOException {
        String line = "GET http://h/" + "a".repeat(100) + " HTTP/1.1";
        int max = line.length() + 2;
        assertEquals("GET", Http1Parser.requestLine(window(line + "\r\n"), max).method());
        HeadException e =
                assertThrows(HeadException.class, () -> Http1Parser.requestLine(window(line + "\r\n"), max - 1));
        assertEquals(Kind.REQUEST_LINE_TOO_LONG, e.kind());
        // a line that has not ended yet is refused once it passes the cap, without waiting for its LF
        assertEquals(
                Kind.REQUEST_LINE_TOO_LONG,
                assertThrows(HeadException.class, () -> Http1Parser.requestLine(window("GET " + "x".repeat(200)), 100))
                        .kind());
    }

    @Test
    void headerBlockCapsBytesAndCount() throws IOException {
        String block = "A: 1\r\nB: 2\r\n\r\n"; // 12 bytes of fields
        assertEquals(
                2, fields(window(block), 12, 2, Http1Parser.FieldRules.STRICT).size());
        assertEquals(
                Kind.HEADERS_TOO_LARGE,
                assertThrows(HeadException.class, () -> fields(window(block), 11, 2, Http1Parser.FieldRules.STRICT))
                        .kind());
        assertEquals(
                Kind.TOO_MANY_FIELDS,
                assertThrows(HeadException.class, () -> fields(window(block), 12, 1, Http1Parser.FieldRules.STRICT))
                        .kind());
        // an endless field line is refused before it ends
        assertEquals(
                Kind.HEADERS_TOO_LARGE,
                assertThrows(
                                HeadException.class,
                                () -> fields(window("X: " + "v".repeat(500)), 100, 10, Http1Parser.FieldRules.STRICT))
                        .kind());
    }

    @Test
    void aLineCapBindsEachFieldLineBelowTheBlockCap() throws IOException {
        List<String[]> out = new ArrayList<>();
        String block = "A: " + "a".repeat(7) + "\r\nB: " + "b".repeat(7) + "\r\n\r\n"; // lines of 12 bytes
        Http1Parser.fields(
                window(block), (n, v) -> out.add(new String[] {n, v}), 12, 1000, 10, Http1Parser.FieldRules.LENIENT);
        assertEquals(2, out.size());
        HeadException e = assertThrows(
                HeadException.class,
                () -> Http1Parser.fields(window(block), (n, v) -> {}, 11, 1000, 10, Http1Parser.FieldRules.LENIENT));
        assertEquals(Kind.FIELD_LINE_TOO_LONG, e.kind());
        // near the block's end the block cap binds again
        e = assertThrows(
                HeadException.class,
                () -> Http1Parser.fields(window(block), (n, v) -> {}, 12, 20, 10, Http1Parser.FieldRules.LENIENT));
        assertEquals(Kind.HEADERS_TOO_LARGE, e.kind());
    }

    @Test
    void nextLineReadsAFramingLineUnderItsCap() throws IOException {
        HeadReader r = window("5;ext=1\r\nhello");
        assertEquals("5;ext=1", r.nextLine(64));
        assertThrows(HeadReader.Incomplete.class, () -> r.nextLine(64));
        HeadException e =
                assertThrows(HeadException.class, () -> window("0123456789\r\n").nextLine(8));
        assertEquals(Kind.LINE_TOO_LONG, e.kind());
        assertNull(window("").nextLine(8));
    }

    @Test
    void lenientFieldsTrimNamesAndAcceptWhatStrictRefuses() throws IOException {
        List<String[]> f = fields(window("Bad Name : x\u0001y \r\n\r\n"), 8192, 100, Http1Parser.FieldRules.LENIENT);
        assertEquals("Bad Name", f.get(0)[0]);
        assertEquals("x\u0001y", f.get(0)[1]);
        assertEquals(
                Kind.NO_COLON,
                assertThrows(
                                HeadException.class,
                                () -> fields(window(": x\r\n\r\n"), 8192, 100, Http1Parser.FieldRules.LENIENT))
                        .kind());
        assertEquals(
                Kind.OBSOLETE_LINE_FOLDING,
                assertThrows(
                                HeadException.class,
                                () -> fields(window("\tx: y\r\n\r\n"), 8192, 100, Http1Parser.FieldRules.LENIENT))
                        .kind());
    }

    @Test
    void statusLines() throws IOException {
        assertEquals(new Http1Parser.StatusLine(200, "OK", true), Http1Parser.statusLine("HTTP/1.1 200 OK"));
        assertEquals(new Http1Parser.StatusLine(204, "", false), Http1Parser.statusLine("HTTP/1.0 204"));
        assertEquals(new Http1Parser.StatusLine(404, "", true), Http1Parser.statusLine("HTTP/1.1 404 "));
        assertNull(Http1Parser.statusLine(window(""), LINE));
        assertEquals(Kind.NOT_HTTP, statusKind("SSH-2.0-OpenSSH"));
        assertEquals(200, Http1Parser.statusLine("HTTP/1.1 200").status());
        assertEquals(Kind.NOT_HTTP, statusKind("HTTP/1.1 20"));
        assertEquals(Kind.NOT_HTTP, statusKind("HTTP/1.1-200 OK"));
        assertEquals(Kind.NOT_HTTP, statusKind("HTTP/2 200 OK"));
        assertEquals(Kind.MALFORMED_STATUS_CODE, statusKind("HTTP/1.1 2x0 OK"));
        assertEquals(Kind.MALFORMED_STATUS_LINE, statusKind("HTTP/1.1 099 Low"));
        assertEquals(Kind.MALFORMED_STATUS_LINE, statusKind("HTTP/1.1 2000 OK"));
        assertEquals(
                Kind.STATUS_LINE_TOO_LONG,
                assertThrows(
                                HeadException.class,
                                () -> Http1Parser.statusLine(window("HTTP/1.1 200 " + "x".repeat(50)), 20))
                        .kind());
    }

    private static Kind statusKind(String line) {
        return assertThrows(HeadException.class, () -> Http1Parser.statusLine(window(line + "\r\n"), LINE))
                .kind();
    }

    @Test
    void aStreamIsReadExactlyToTheEndOfTheHead() throws IOException {
        InputStream in = new ByteArrayInputStream(bytes("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody"));
        HeadReader r = HeadReader.over(in);
        assertEquals(200, Http1Parser.statusLine(r, LINE).status());
        assertEquals("4", fields(r, 8192, 100, Http1Parser.FieldRules.STRICT).get(0)[1]);
        assertEquals("body", new String(in.readAllBytes(), StandardCharsets.ISO_8859_1));
        assertEquals(38, r.consumed());
    }

    @Test
    void aStreamEndingInsideTheHeadIsIncompleteAndBeforeItIsNull() throws IOException {
        assertNull(Http1Parser.statusLine(HeadReader.over(new ByteArrayInputStream(new byte[0])), LINE));
        HeadReader r = HeadReader.over(new ByteArrayInputStream(bytes("HTTP/1.1 200 OK\r\nA: b\r\n")));
        Http1Parser.statusLine(r, LINE);
        assertThrows(HeadReader.Incomplete.class, () -> fields(r, 8192, 100, Http1Parser.FieldRules.STRICT));
        assertThrows(
                HeadReader.Incomplete.class,
                () -> Http1Parser.statusLine(HeadReader.over(new ByteArrayInputStream(bytes("HTTP/1.1 2"))), LINE));
    }

    @Test
    void aStreamLineIsCappedBeforeItEnds() {
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                return 'x';
            }
        };
        assertEquals(
                Kind.STATUS_LINE_TOO_LONG,
                assertThrows(HeadException.class, () -> Http1Parser.statusLine(HeadReader.over(endless), 64))
                        .kind());
    }

    @Test
    void windowOutsideTheArrayIsRefused() {
        assertThrows(IndexOutOfBoundsException.class, () -> HeadReader.over(new byte[4], 2, 3));
    }
}
