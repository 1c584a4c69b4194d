package dev.proxypool.sdk.credentials;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.CredentialRef;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretTest {

    @Test
    void secretIsNeverPrinted() {
        Secret s = Secret.of("hunter2");
        Credentials c = Credentials.of("alice-account-42", "hunter2");
        String everywhere = s + " " + c + " " + Map.of("k", c) + " " + new Holder(s) + " " + String.valueOf(s)
                + String.format(" %s", c) + " " + c.basicAuthorization();
        assertFalse(everywhere.contains("hunter2"), everywhere);
        assertFalse(everywhere.contains("alice"), everywhere);
        assertFalse(
                everywhere.contains(Base64.getEncoder().encodeToString("alice-account-42:hunter2".getBytes())),
                everywhere);
        assertEquals("***", s.toString());
        assertEquals("Credentials[***]", c.toString());
    }

    record Holder(Secret secret) {}

    @Test
    void revealGivesTheValueAndCopies() {
        char[] chars = {'a', 'b'};
        Secret s = Secret.of(chars);
        chars[0] = 'x';
        assertEquals("ab", s.reveal());
        char[] out = s.revealChars();
        out[1] = 'y';
        assertEquals("ab", s.reveal());
        assertTrue(Secret.of("").isEmpty());
        assertEquals(Secret.EMPTY, Secret.of(new char[0]));
    }

    @Test
    void equalityComparesContents() {
        assertEquals(Secret.of("abc"), Secret.of("abc"));
        assertEquals(Secret.of("abc").hashCode(), Secret.of("abc").hashCode());
        assertNotEquals(Secret.of("abc"), Secret.of("abd"));
        assertNotEquals(Secret.of("abc"), Secret.of("abcd"));
        assertNotEquals(Secret.of("abc"), "abc");
        assertEquals(Credentials.of("u", "p"), Credentials.of("u", "p"));
    }

    @Test
    void basicAuthorizationIsBase64OfUserColonPassword() {
        String expected = "Basic "
                + Base64.getEncoder().encodeToString("j\u00fcrgen:p\u00e4ss:word".getBytes(StandardCharsets.UTF_8));
        assertEquals(
                expected,
                Credentials.of("j\u00fcrgen", "p\u00e4ss:word")
                        .basicAuthorization()
                        .reveal());
    }

    @Test
    void badCredentialsNameTheFieldNotTheValue() {
        IllegalArgumentException colon =
                assertThrows(IllegalArgumentException.class, () -> Credentials.of("ali:ce", "pw"));
        assertTrue(colon.getMessage().contains("username"));
        assertFalse(colon.getMessage().contains("ali:ce"));
        assertThrows(IllegalArgumentException.class, () -> Credentials.of("", "pw"));
        assertThrows(IllegalArgumentException.class, () -> Credentials.of("a\r\nb", "pw"));
        assertThrows(IllegalArgumentException.class, () -> new Credentials("u", null));
        assertThrows(IllegalArgumentException.class, () -> Secret.of((String) null));
    }

    @Test
    void unavailableCredentialsNameTheRef() {
        CredentialsUnavailableException e = new CredentialsUnavailableException(new CredentialRef("vendor-a"), "gone");
        assertEquals("credentials for ref 'vendor-a' are unavailable: gone", e.getMessage());
        assertEquals("vendor-a", e.ref().name());
    }
}
