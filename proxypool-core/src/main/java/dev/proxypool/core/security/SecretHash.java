package dev.proxypool.core.security;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Stored form of client secrets: PBKDF2-HMAC-SHA256 with a random salt, written as
 * {@code pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>}. Verification compares in constant time
 * ({@link MessageDigest#isEqual}), so a wrong secret takes as long as a right one.
 *
 * <p>PBKDF2 is deliberately slow; a gateway must not run it per request. Callers cache a verified
 * secret under a fast keyed digest (see the server's client authenticator).
 */
public final class SecretHash {

    /** The scheme prefix of every hash this class writes. */
    public static final String SCHEME = "pbkdf2-sha256";
    /** OWASP's 2023 guidance for PBKDF2-HMAC-SHA256. */
    public static final int DEFAULT_ITERATIONS = 600_000;

    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;
    private static final SecureRandom RANDOM = new SecureRandom();

    private SecretHash() {}

    /**
     * Hashes {@code secret} with a fresh random salt and the default iteration count.
     *
     * @param secret the client secret, non-empty; not retained (the caller may wipe it)
     * @return the stored form, {@code pbkdf2-sha256$600000$...}
     * @throws IllegalArgumentException if the secret is null or empty
     */
    public static String hash(char[] secret) {
        return hash(secret, DEFAULT_ITERATIONS);
    }

    /**
     * Hashes {@code secret} with a fresh random salt and a chosen iteration count
     * (tests use a low count to stay fast).
     *
     * @param secret     the client secret, non-empty; not retained
     * @param iterations PBKDF2 iterations, at least 1000; stored in the result
     * @return the stored form
     * @throws IllegalArgumentException if the secret is empty or the count below 1000
     */
    public static String hash(char[] secret, int iterations) {
        if (secret == null || secret.length == 0) {
            throw new IllegalArgumentException("secret must not be empty");
        }
        if (iterations < 1_000) {
            throw new IllegalArgumentException("iterations must be at least 1000, got " + iterations);
        }
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        byte[] dk = derive(secret, salt, iterations);
        Base64.Encoder b64 = Base64.getEncoder().withoutPadding();
        return SCHEME + "$" + iterations + "$" + b64.encodeToString(salt) + "$" + b64.encodeToString(dk);
    }

    /**
     * True when {@code secret} matches {@code stored}.
     *
     * @throws IllegalArgumentException when {@code stored} is not a hash this class wrote
     * @param secret the presented secret; null counts as empty (and never matches)
     * @param stored a value from {@link #hash(char[])}
     * @return true if the secret matches; takes the same time either way
     */
    public static boolean verify(char[] secret, String stored) {
        Parsed p = parse(stored);
        byte[] actual = derive(secret == null ? new char[0] : secret, p.salt, p.iterations);
        return MessageDigest.isEqual(actual, p.hash);
    }

    /**
     * Checks the format of a configured {@code secretHash} without a secret (config validation).
     *
     * @param stored the configured value
     * @param key    the config key, prefixed to the error message
     * @throws IllegalArgumentException naming the key when the value is not a hash this class writes
     */
    public static void requireValid(String stored, String key) {
        try {
            parse(stored);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
        }
    }

    private record Parsed(int iterations, byte[] salt, byte[] hash) {}

    private static Parsed parse(String stored) {
        if (stored == null) {
            throw new IllegalArgumentException("secret hash is missing");
        }
        String[] parts = stored.split("\\$", -1);
        if (parts.length != 4 || !SCHEME.equals(parts[0])) {
            throw new IllegalArgumentException("secret hash must look like " + SCHEME
                    + "$<iterations>$<salt>$<hash> (make one with `proxypool hash-secret`)");
        }
        try {
            int iterations = Integer.parseInt(parts[1]);
            Base64.Decoder d = Base64.getDecoder();
            byte[] salt = d.decode(parts[2]);
            byte[] hash = d.decode(parts[3]);
            if (iterations < 1_000 || salt.length < 8 || hash.length != HASH_BITS / 8) {
                throw new IllegalArgumentException("secret hash has a bad iteration count, salt or length");
            }
            return new Parsed(iterations, salt, hash);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("secret hash has a non-numeric iteration count", e);
        }
    }

    private static byte[] derive(char[] secret, byte[] salt, int iterations) {
        PBEKeySpec spec = new PBEKeySpec(secret, salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                    .generateSecret(spec)
                    .getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 unavailable", e);
        } finally {
            spec.clearPassword();
        }
    }
}
