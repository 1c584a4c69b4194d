package dev.proxypool.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ModelValidationTest {

    private static final ProxyKey KEY = new ProxyKey(Protocol.HTTP, "203.0.113.7", 8000, CredentialRef.of("vendor-a"));

    private static void rejects(String expectedFragment, org.junit.jupiter.api.function.Executable e) {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, e);
        assertTrue(
                ex.getMessage().contains(expectedFragment),
                () -> "message '" + ex.getMessage() + "' lacks '" + expectedFragment + "'");
    }

    @Test
    void badInputIsRefusedWithAMessageNamingIt() {
        rejects("label selector term 'x=1' has an empty key".replace("x=1", "=US"), () -> LabelSelector.parse("=US"));
        rejects("is not key=value", () -> LabelSelector.parse("country"));
        rejects("names key 'country' twice", () -> LabelSelector.parse("country=US,country=DE"));
        rejects("empty value", () -> LabelSelector.parse("country="));
        rejects("label key must not be empty", () -> Labels.of(" ", "x"));
        rejects(
                "weight must be at least 1, got 0",
                () -> Proxy.builder(KEY).weight(0).build());
        rejects(
                "weight must be at least 1, got -3",
                () -> Proxy.builder(KEY).weight(-3).build());
        rejects(
                "maxConcurrency must be at least 1",
                () -> Proxy.builder(KEY).maxConcurrency(0).build());
        rejects("port 0 is out of range", () -> new ProxyKey(Protocol.HTTP, "h", 0, CredentialRef.NONE));
        rejects("port 70000 is out of range", () -> new ProxyKey(Protocol.HTTP, "h", 70000, CredentialRef.NONE));
        rejects("host is missing", () -> new ProxyKey(Protocol.HTTP, " ", 80, CredentialRef.NONE));
        rejects("not a valid host", () -> new ProxyKey(Protocol.HTTP, "a b", 80, CredentialRef.NONE));
        rejects("unknown protocol 'ftp'", () -> Protocol.parse("ftp"));
        rejects("credentialRef 'a b' is invalid", () -> CredentialRef.of("a b"));
        rejects("asn -1 is out of range", () -> new ExitNetwork("1.2.3.4", -1, "", ""));
        rejects("odd count", () -> Labels.of("a"));
    }

    @Test
    void labelSelectorMatchesEveryRequiredLabel() {
        Labels labels = Labels.of("country", "US", "type", "residential", "city", "NYC");
        assertTrue(LabelSelector.parse("type=residential,country=US").matches(labels));
        assertTrue(LabelSelector.parse(" country = US ").matches(labels));
        assertFalse(LabelSelector.parse("type=datacenter,country=US").matches(labels));
        assertFalse(LabelSelector.parse("carrier=x").matches(labels));
        assertTrue(LabelSelector.ANY.matches(Labels.EMPTY));
        assertEquals(LabelSelector.parse("b=2,a=1"), LabelSelector.of(Map.of("a", "1", "b", "2")));
        assertEquals("a=1,b=2", LabelSelector.parse("b=2,a=1").toString());
    }

    @ParameterizedTest
    @CsvSource({"http,HTTP", "HTTPS,HTTPS", "socks4a,SOCKS4", "socks5h,SOCKS5", " socks5 ,SOCKS5"})
    void protocolsParseCaseInsensitively(String text, Protocol expected) {
        assertEquals(expected, Protocol.parse(text));
    }

    @Test
    void proxyKeyNormalizesHostsSoDuplicatesCollapse() {
        assertEquals(
                new ProxyKey(Protocol.HTTP, "Example.COM", 80, null),
                new ProxyKey(Protocol.HTTP, "example.com", 80, CredentialRef.NONE));
        assertEquals("2001:db8::1", new ProxyKey(Protocol.SOCKS5, "[2001:DB8::1]", 1080, null).host());
        assertNotEquals(KEY, new ProxyKey(Protocol.HTTP, "203.0.113.7", 8000, CredentialRef.NONE));
        assertEquals("[2001:db8::1]:1080", new ProxyKey(Protocol.SOCKS5, "2001:db8::1", 1080, null).authority());
    }

    @Test
    void addressesAreMaskedForLogs() {
        assertEquals("203.0.x.x", AddressMask.mask("203.0.113.7"));
        assertEquals("2001:db8:x:x", AddressMask.mask("2001:db8::1"));
        assertEquals("x.vendor.example", AddressMask.mask("gw1.eu.vendor.example"));
        assertFalse(KEY.toString().contains("113.7"), KEY.toString());
        assertFalse(Proxy.builder(KEY).build().toString().contains("113.7"));
    }

    @Test
    void idsAreOpaqueStableAndSecretDependent() {
        byte[] secret = "0123456789abcdef0123".getBytes();
        String id = ProxyIds.opaque(KEY, "vendor-a-us", secret);
        assertTrue(id.matches("p-[a-z2-7]{16}"), id);
        assertEquals(id, ProxyIds.opaque(KEY, "vendor-a-us", secret));
        assertNotEquals(id, ProxyIds.opaque(KEY, "vendor-a-us", "another-secret-0123".getBytes()));
        assertNotEquals(id, ProxyIds.opaque(KEY, "vendor-b-us", secret));
        assertFalse(id.contains("203"));
        rejects("at least 16 bytes", () -> ProxyIds.opaque(KEY, "u", new byte[4]));
    }

    @Test
    void remainingTtlFollowsTheClock() {
        Instant now = Instant.parse("2026-11-30T12:00:00Z");
        Proxy p = Proxy.builder(KEY).expiresAt(now.plusSeconds(90)).build();
        assertEquals(Duration.ofSeconds(90), p.remainingTtl(now));
        assertFalse(p.isExpired(now.plusSeconds(89)));
        assertTrue(p.isExpired(now.plusSeconds(90)));
        assertTrue(p.remainingTtl(now.plusSeconds(100)).isNegative());
        Proxy forever = Proxy.builder(KEY).build();
        assertFalse(forever.expires());
        assertFalse(forever.isExpired(Instant.MAX.minusSeconds(1)));
    }
}
