package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestTargetTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "http://example.com/a/b?q=1      | example.com | 80   | /a/b?q=1 | example.com",
                "http://Example.COM:8080         | example.com | 8080 | /        | example.com:8080",
                "HTTP://h:80/x#frag              | h           | 80   | /x       | h",
                "http://h?x=1                    | h           | 80   | /?x=1    | h",
                "http://[::1]:81/p               | ::1         | 81   | /p       | [::1]:81",
                "http://127.0.0.1:9/             | 127.0.0.1   | 9    | /        | 127.0.0.1:9",
            })
    void parsesAbsoluteForm(String raw, String host, int port, String path, String authority) throws WireException {
        RequestTarget t = RequestTarget.absolute(raw.strip());
        assertEquals(new RequestTarget(host, port, path, authority), t);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "/index.html                | origin_form_not_allowed",
                "*                          | origin_form_not_allowed",
                "https://example.com/       | unsupported_scheme",
                "ftp://example.com/         | unsupported_scheme",
                "http://user:pw@host/       | bad_request",
                "http://host:0/             | bad_request",
                "http://host:65536/         | bad_request",
                "http://host:8x/            | bad_request",
                "http://ho st/              | bad_request",
                "http:///path               | bad_request",
                "example.com/x              | bad_request",
                "http://[zz]/               | bad_request",
            })
    void rejectsBadAbsoluteForm(String raw, String reason) {
        WireException e = assertThrows(WireException.class, () -> RequestTarget.absolute(raw.strip()));
        assertEquals(400, e.status());
        assertEquals(reason, e.reason());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "example.com:443 | example.com | 443",
                "[2001:db8::1]:8443 | 2001:db8::1 | 8443",
                "127.0.0.1:1 | 127.0.0.1 | 1",
            })
    void parsesConnectTarget(String raw, String host, int port) throws WireException {
        RequestTarget t = RequestTarget.connect(raw.strip());
        assertEquals(host, t.host());
        assertEquals(port, t.port());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "example.com",
                "example.com:",
                ":443",
                "example.com:99999",
                "http://example.com:443",
                "a@b:443",
                "[::1]443",
                "exa mple.com:443"
            })
    void rejectsBadConnectTarget(String raw) {
        WireException e = assertThrows(WireException.class, () -> RequestTarget.connect(raw.strip()));
        assertEquals("bad_connect_target", e.reason());
    }
}
