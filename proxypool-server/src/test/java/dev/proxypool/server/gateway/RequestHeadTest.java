package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.wire.HeadReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RequestHeadTest {

    private static RequestHead parse(String raw) throws IOException, WireException {
        byte[] bytes = raw.getBytes(StandardCharsets.ISO_8859_1);
        return RequestHead.read(HeadReader.over(bytes, 0, bytes.length), GatewayConfig.DEFAULTS);
    }

    @Test
    void parsesAbsoluteFormGetWithHeaders() throws Exception {
        RequestHead h = parse("GET http://example.com:81/x?y HTTP/1.1\r\nHost: example.com:81\r\nX-A:  v  \r\n\r\n");
        assertEquals("GET", h.method);
        assertTrue(h.http11);
        assertEquals("example.com", h.target.host());
        assertEquals(81, h.target.port());
        assertEquals("/x?y", h.target.path());
        assertEquals("v", h.headers.first("x-a"));
        assertEquals(0, h.framing);
    }

    @Test
    void parsesConnectAndHttp10() throws Exception {
        RequestHead c = parse("CONNECT example.com:443 HTTP/1.0\r\n\r\n");
        assertTrue(c.connect);
        assertFalse(c.http11);
        assertEquals(443, c.target.port());
    }

    @Test
    void framingFromContentLengthAndChunked() throws Exception {
        assertEquals(5, parse("POST http://h/ HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n").framing);
        assertEquals(5, parse("POST http://h/ HTTP/1.1\r\nHost: h\r\nContent-Length: 5, 5\r\n\r\n").framing);
        assertEquals(
                Framing.CHUNKED,
                parse("POST http://h/ HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n").framing);
    }

    @Test
    void cleanCloseBeforeRequestIsNull() throws Exception {
        assertNull(parse(""));
        assertNull(parse("\r\n"));
    }

    @Test
    void longLineSpillingOverTheBufferStillParses() throws Exception {
        String big = "v".repeat(5000); // the reader's buffer is 1 KiB here
        RequestHead h = parse("GET http://h/ HTTP/1.1\r\nHost: h\r\nX-Big: " + big + "\r\n\r\n");
        assertEquals(big, h.headers.first("X-Big"));
    }

    static Stream<Arguments> badRequests() {
        String longTarget = "http://h/" + "a".repeat(8200);
        StringBuilder manyHeaders = new StringBuilder();
        for (int i = 0; i < 70; i++) {
            manyHeaders
                    .append("X-Filler-")
                    .append(i)
                    .append(": ")
                    .append("z".repeat(1000))
                    .append("\r\n");
        }
        return Stream.of(
                Arguments.of("malformed request line", "GET http://h/\r\n\r\n", 400, "bad_request"),
                Arguments.of("double space", "GET  http://h/ HTTP/1.1\r\n\r\n", 400, "bad_request"),
                Arguments.of(
                        "origin-form", "GET /index.html HTTP/1.1\r\nHost: h\r\n\r\n", 400, "origin_form_not_allowed"),
                Arguments.of("PRI preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400, "unsupported_method"),
                Arguments.of("unknown method", "BREW http://h/ HTTP/1.1\r\nHost: h\r\n\r\n", 400, "unsupported_method"),
                Arguments.of("garbage", "\u0016\u0003\u0001\u0002\u0000 x y\r\n\r\n", 400, "bad_request"),
                Arguments.of("bad version", "GET http://h/ HTTP/3.0\r\n\r\n", 400, "bad_request"),
                Arguments.of("header without colon", "GET http://h/ HTTP/1.1\r\nHost h\r\n\r\n", 400, "bad_request"),
                Arguments.of("space before colon", "GET http://h/ HTTP/1.1\r\nHost : h\r\n\r\n", 400, "bad_request"),
                Arguments.of("obs-fold", "GET http://h/ HTTP/1.1\r\nHost: h\r\n  folded\r\n\r\n", 400, "bad_request"),
                Arguments.of(
                        "CL and TE",
                        "POST http://h/ HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n"
                                + "Transfer-Encoding: chunked\r\n\r\n",
                        400,
                        "bad_framing"),
                Arguments.of(
                        "conflicting CLs",
                        "POST http://h/ HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n" + "Content-Length: 4\r\n\r\n",
                        400,
                        "bad_framing"),
                Arguments.of(
                        "negative CL",
                        "POST http://h/ HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n",
                        400,
                        "bad_framing"),
                Arguments.of(
                        "TE not chunked",
                        "POST http://h/ HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n",
                        400,
                        "bad_framing"),
                Arguments.of("HTTP/1.1 without Host", "GET http://h/ HTTP/1.1\r\n\r\n", 400, "bad_request"),
                Arguments.of("bad CONNECT target", "CONNECT example.com HTTP/1.1\r\n\r\n", 400, "bad_connect_target"),
                Arguments.of(
                        "request line over 8 KiB",
                        "GET " + longTarget + " HTTP/1.1\r\n\r\n",
                        431,
                        "request_line_too_long"),
                Arguments.of(
                        "header block over 64 KiB",
                        "GET http://h/ HTTP/1.1\r\nHost: h\r\n" + manyHeaders + "\r\n",
                        431,
                        "headers_too_large"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void rejectsBadInput(String name, String raw, int status, String reason) {
        WireException e = assertThrows(WireException.class, () -> parse(raw));
        assertEquals(status, e.status(), name);
        assertEquals(reason, e.reason(), name);
    }
}
