package dev.proxypool.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Secrets in provider URLs: masked on the way out, restored from the stored URL on the way back in. */
class SecretUrlsTest {

    static final String REAL =
            "https://acct:pa55@feed.example:8443/v1/list?apikey=K3Y&country={country}&fmt=json&x=#top";

    @Test
    void userInfoAndQueryValuesAreMaskedPlaceholdersAndEmptyValuesAreNot() {
        assertEquals(
                "https://***@feed.example:8443/v1/list?apikey=***&country={country}&fmt=***&x=#top",
                SecretUrls.mask(REAL));
        assertEquals("https://***@api.example/", SecretUrls.mask("https://T0KEN@api.example/"));
        assertEquals("http://feed.example/list", SecretUrls.mask("http://feed.example/list"));
        assertEquals("http://feed.example/a@b?***", SecretUrls.mask("http://feed.example/a@b?s3cret"));
        assertEquals("inventory/lab.jsonl", SecretUrls.mask("inventory/lab.jsonl"));
        assertTrue(SecretUrls.hasSecret(REAL));
        assertFalse(SecretUrls.hasSecret("https://feed.example/list?country={country}"));
    }

    @Test
    void aMaskedUrlSentBackKeepsTheStoredSecrets() {
        assertEquals(REAL, SecretUrls.unmask(SecretUrls.mask(REAL), REAL));
        // the path changed, the key kept by its mask, another value changed in clear
        assertEquals(
                "https://acct:pa55@feed.example:8443/v2/list?apikey=K3Y&country={country}&fmt=csv&x=#top",
                SecretUrls.unmask(
                        "https://***@feed.example:8443/v2/list?apikey=***&country={country}&fmt=csv&x=#top", REAL));
        // a new key in clear replaces the stored one
        assertEquals(
                "https://feed.example/list?apikey=NEW",
                SecretUrls.unmask("https://feed.example/list?apikey=NEW", REAL));
        // repeated names match by occurrence
        assertEquals(
                "https://f.example/?k=1&k=2",
                SecretUrls.unmask("https://f.example/?k=***&k=***", "https://f.example/?k=1&k=2"));
    }

    @Test
    void aMaskWithNothingStoredBehindItIsRefusedNamingThePart() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> SecretUrls.unmask("https://feed.example/list?token=***", REAL));
        assertEquals(
                "the query parameter 'token' is masked (***) but the stored url has no value for it: send the real value",
                e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class, () -> SecretUrls.unmask("https://***@feed.example/list", null));
        assertTrue(e.getMessage().contains("user info is masked"), e.getMessage());
    }
}
