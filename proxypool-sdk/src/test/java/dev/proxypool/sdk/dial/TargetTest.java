package dev.proxypool.sdk.dial;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.credentials.Credentials;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TargetTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "127.0.0.1, IPV4, 127.0.0.1:443",
        "example.com, DOMAIN, example.com:443",
        "::1, IPV6, [::1]:443",
        "[2001:db8::7], IPV6, [2001:db8::7]:443",
        "::ffff:10.0.0.1, IPV4, 10.0.0.1:443",
        "under_score.example, DOMAIN, under_score.example:443"
    })
    void parsesLiteralsAndNames(String host, Target.Kind kind, String authority) {
        Target t = Target.of(host, 443);
        assertEquals(kind, t.kind());
        assertEquals(authority, t.authority());
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(
            strings = {
                "evil.com\r\nX-Injected: 1",
                "a b",
                "host/path",
                "user@host",
                "",
                " ",
                "1.2.3.4.5x:80",
                "fe80::1%eth0",
                "::zz",
                "999.1.1.1",
                "[::1"
            })
    void rejectsWhatCouldBreakTheRequestLine(String host) {
        assertThrows(IllegalArgumentException.class, () -> Target.of(host, 443));
    }

    @Test
    void rejectsPortsOutOfRangeAndLongNames() {
        assertThrows(IllegalArgumentException.class, () -> Target.of("example.com", 0));
        assertThrows(IllegalArgumentException.class, () -> Target.of("example.com", 65536));
        assertThrows(IllegalArgumentException.class, () -> Target.of("a".repeat(256), 80));
        assertEquals(Target.Kind.DOMAIN, Target.of("a".repeat(255), 80).kind());
    }

    @Test
    void socksRequestsEncodeEachAddressType() {
        assertArrayEquals(
                new byte[] {5, 1, 0, 1, 127, 0, 0, 1, 1, (byte) 187}, Socks5.request(Target.of("127.0.0.1", 443)));
        byte[] domain = Socks5.request(Target.of("ab.c", 80));
        assertArrayEquals(new byte[] {5, 1, 0, 3, 4, 'a', 'b', '.', 'c', 0, 80}, domain);
        assertEquals(4 + 16 + 2, Socks5.request(Target.of("::1", 80)).length);
        assertArrayEquals(
                new byte[] {4, 1, 0, 80, 0, 0, 0, 1, 'u', 0, 'h', '.', 'x', 0},
                Socks4.request(Target.of("h.x", 80), Credentials.of("u", "ignored")));
        assertArrayEquals(new byte[] {4, 1, 0, 80, 10, 0, 0, 2, 0}, Socks4.request(Target.of("10.0.0.2", 80), null));
        assertTrue(Socks4.supports(Target.of("h.x", 80)));
    }
}
