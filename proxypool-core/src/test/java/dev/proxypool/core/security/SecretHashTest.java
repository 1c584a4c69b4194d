package dev.proxypool.core.security;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SecretHashTest {

    @Test
    void verifiesTheRightSecretOnly() {
        String stored = SecretHash.hash("s3cret".toCharArray(), 1_000);
        assertTrue(stored.startsWith("pbkdf2-sha256$1000$"));
        assertTrue(SecretHash.verify("s3cret".toCharArray(), stored));
        assertFalse(SecretHash.verify("s3cret ".toCharArray(), stored));
        assertFalse(SecretHash.verify(new char[0], stored));
    }

    @Test
    void saltsEveryHash() {
        assertNotEquals(SecretHash.hash("x".toCharArray(), 1_000), SecretHash.hash("x".toCharArray(), 1_000));
    }

    @Test
    void rejectsMalformedStoredHashesWithAClearMessage() {
        for (String bad :
                new String[] {"", "plain", "md5$1$a$b", "pbkdf2-sha256$x$AAAA$AAAA", "pbkdf2-sha256$10$AAAAAAAAAAA$AAAA"
                }) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class, () -> SecretHash.requireValid(bad, "clients[alice].secretHash"));
            assertTrue(e.getMessage().startsWith("clients[alice].secretHash: "), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> SecretHash.hash(new char[0]));
    }
}
