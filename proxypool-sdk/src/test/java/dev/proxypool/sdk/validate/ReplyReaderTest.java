package dev.proxypool.sdk.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Reading one response from untrusted bytes: framing, interim replies, limits. */
class ReplyReaderTest {

    private static InputStream bytes(String s) {
        return new ByteArrayInputStream(s.replace("|", "\r\n").getBytes(StandardCharsets.ISO_8859_1));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = "=>",
            value = {
                "HTTP/1.1 200 OK|Content-Length: 5||hello                                   => 200 => hello",
                "HTTP/1.1 200 OK|Transfer-Encoding: chunked||3|hel|2;ext=1|lo|0|Trailer: x||    => 200 => hello",
                "HTTP/1.0 200 OK||hello until close                                           => 200 => hello until close",
                "HTTP/1.1 100 Continue||HTTP/1.1 102 Processing||HTTP/1.1 200 OK|Content-Length: 2||ok  => 200 => ok",
                "HTTP/1.1 204 No Content|Content-Length: 5||                                   => 204 => ''",
                "HTTP/1.1 407 Proxy Authentication Required|Content-Length: 0||                => 407 => ''",
                "HTTP/1.1 502||                                                                => 502 => ''",
            })
    void readsTheFinalResponseByItsFraming(String wire, int status, String body) throws IOException {
        InputStream in = bytes(wire.strip());
        ReplyReader.Head h = ReplyReader.head(in);
        assertEquals(status, h.status());
        assertEquals(body, new String(ReplyReader.body(in, h, 64), StandardCharsets.ISO_8859_1));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "SSH-2.0-OpenSSH_9.2|",
                "HTTP/1.1 2000 OK||",
                "HTTP/1.1 abc OK||",
                "HTTP/2 200||",
                "HTTP/1.1 200 OK|: no name||",
                "HTTP/1.1 200 OK| folded: x||",
                "HTTP/1.1 200 OK|Content-Length: 1e3||",
                "HTTP/1.1 200 OK|Content-Length: 65||",
                "HTTP/1.1 200 OK|Transfer-Encoding: chunked||zz|",
                "HTTP/1.1 200 OK|Transfer-Encoding: chunked||41|",
                "HTTP/1.1 200 OK|Transfer-Encoding: chunked||2|abc|0||",
                "HTTP/1.1 100 Continue||HTTP/1.1 100 Continue||HTTP/1.1 100 Continue||HTTP/1.1 100 Continue||HTTP/1.1 100 Continue||",
            })
    void anythingElseIsNotHttp(String wire) {
        assertThrows(ReplyReader.NotHttp.class, () -> {
            InputStream in = bytes(wire);
            ReplyReader.body(in, ReplyReader.head(in), 64);
        });
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"", "HTTP/1.1 200 OK|Content-Length: 10||short", "HTTP/1.1 200 OK|Content-Le"})
    void anEarlyEndIsAnEof(String wire) {
        assertThrows(EOFException.class, () -> {
            InputStream in = bytes(wire);
            ReplyReader.body(in, ReplyReader.head(in), 64);
        });
    }

    @org.junit.jupiter.api.Test
    void aBodyWithoutFramingIsCappedToo() {
        String big = "HTTP/1.0 200 OK||" + "x".repeat(65);
        assertThrows(ReplyReader.NotHttp.class, () -> {
            InputStream in = bytes(big);
            ReplyReader.body(in, ReplyReader.head(in), 64);
        });
        String longLine = "HTTP/1.1 200 OK|X: " + "y".repeat(ReplyReader.MAX_LINE) + "||";
        assertThrows(ReplyReader.NotHttp.class, () -> ReplyReader.head(bytes(longLine)));
        String many = "HTTP/1.1 200 OK|" + "X: y|".repeat(ReplyReader.MAX_FIELDS + 1) + "|";
        assertThrows(ReplyReader.NotHttp.class, () -> ReplyReader.head(bytes(many)));
    }
}
