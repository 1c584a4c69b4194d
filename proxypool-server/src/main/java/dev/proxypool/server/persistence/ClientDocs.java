package dev.proxypool.server.persistence;

import dev.proxypool.core.security.SecretHash;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The stored form of a client: {@code name}, {@code secretHash} (PBKDF2, as {@code proxypool
 * hash-secret} writes it), {@code tokenHash} (SHA-256 hex of the bearer token: tokens are long
 * random strings, so a fast digest is enough and lets a lookup hash once per request),
 * {@code quota.extractionsPerHour} and {@code rateLimit.rps}. Neither secret is ever stored plain.
 */
public final class ClientDocs {

    private ClientDocs() {}

    /** SHA-256 hex of a bearer token: the stored {@code tokenHash}. */
    public static String tokenHash(String token) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** Whether {@code s} looks like a {@link #tokenHash}: 64 lower-case hex digits. */
    public static boolean isTokenHash(String s) {
        return s != null && s.matches("[0-9a-f]{64}");
    }

    /** The canonical stored document. */
    public static Map<String, Object> doc(
            String name, Optional<String> secretHash, Optional<String> tokenHash, int extractionsPerHour, double rps) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("name", name);
        secretHash.ifPresent(h -> d.put(Entity.SECRET_HASH, h));
        tokenHash.ifPresent(h -> d.put(Entity.TOKEN_HASH, h));
        d.put("quota", Map.of("extractionsPerHour", extractionsPerHour));
        d.put("rateLimit", Map.of("rps", rps));
        return d;
    }

    /**
     * The stored document of a configured client: a plain (dev-only) secret is hashed here, a
     * plain token is reduced to its hash.
     */
    static Map<String, Object> fromConfig(ProxyPoolConfig.Client c) {
        Optional<String> secretHash = c.secretHash().isPresent()
                ? c.secretHash()
                : c.plainSecret().map(s -> SecretHash.hash(s.revealChars()));
        return doc(c.name(), secretHash, c.token().map(t -> tokenHash(t.reveal())), c.extractionsPerHour(), c.rps());
    }
}
