package dev.proxypool.server.api.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.credentials.Credentials;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Handed-out URLs: scheme per protocol, bracketed IPv6, userinfo that a URI parser splits back exactly. */
class ProxyUrlTest {

    @ParameterizedTest(name = "{0} / {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "user|pass|user:pass",
                "al ice|p@ss:w/rd?#|al%20ice:p%40ss%3Aw%2Frd%3F%23",
                "josé|пароль%|jos%C3%A9:%D0%BF%D0%B0%D1%80%D0%BE%D0%BB%D1%8C%25",
                "a-b.c_d~e|+&=;,|a-b.c_d~e:%2B%26%3D%3B%2C",
                "only-user||only-user"
            })
    void userinfoIsPercentEncodedAndRoundTrips(String user, String password, String userinfo) {
        String pw = password == null ? "" : password;
        ProxyKey key = new ProxyKey(Protocol.HTTP, "203.0.113.7", 8000, new CredentialRef("ref"));
        String url = ProxyUrl.of(key, Credentials.of(user, pw));
        assertEquals("http://" + userinfo + "@203.0.113.7:8000", url);
        URI uri = URI.create(url);
        assertEquals("203.0.113.7", uri.getHost());
        assertEquals(8000, uri.getPort());
        assertEquals(pw.isEmpty() ? user : user + ":" + pw, uri.getUserInfo(), "decodes back to the credentials");
    }

    @Test
    void schemeIsTheProtocolAndIpv6IsBracketed() {
        assertEquals(
                "socks5://[2001:db8::1]:1080", ProxyUrl.of(new ProxyKey(Protocol.SOCKS5, "2001:DB8::1", 1080, null)));
        assertEquals(
                "socks4://proxy.example:1080", ProxyUrl.of(new ProxyKey(Protocol.SOCKS4, "proxy.example", 1080, null)));
        assertEquals("https://10.0.0.1:443", ProxyUrl.of(new ProxyKey(Protocol.HTTPS, "10.0.0.1", 443, null)));
    }

    @Test
    void storedResponseRoundTripsAndRefusesGarbage() {
        StoredResponse r = new StoredResponse(409, "{\"error\":\"x\"}\nsecond line é");
        assertEquals(r, StoredResponse.decode(r.encode()));
        assertThrows(IllegalArgumentException.class, () -> StoredResponse.decode("garbage"));
        assertThrows(IllegalArgumentException.class, () -> StoredResponse.decode("abc\n{}"));
    }
}
