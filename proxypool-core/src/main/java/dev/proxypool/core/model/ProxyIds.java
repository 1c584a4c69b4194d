package dev.proxypool.core.model;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Opaque, stable proxy ids. The id goes out in {@code X-ProxyPool-Proxy} and API responses, so it
 * must not reveal the address: an HMAC-SHA-256 of the dedupe key under an installation secret,
 * shortened to 80 bits and written in base32 ({@code p-} + 16 characters). Without the secret, the
 * address space cannot be enumerated back from ids.
 */
public final class ProxyIds {

    private static final char[] BASE32 = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();

    private ProxyIds() {}

    /**
     * The id servers use: stable for the same key, upstream and secret, unguessable without the secret.
     *
     * @param key      the proxy's dedupe identity; not null
     * @param upstream the upstream it was fetched for; null is treated as empty
     * @param secret   the installation secret, at least 16 bytes; not retained
     * @return {@code p-} followed by 16 base32 characters
     * @throws IllegalArgumentException if the secret is null or shorter than 16 bytes
     */
    public static String opaque(ProxyKey key, String upstream, byte[] secret) {
        if (secret == null || secret.length < 16) {
            throw new IllegalArgumentException("proxy id secret must be at least 16 bytes");
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return encode(mac.doFinal(material(key, upstream)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /**
     * A stable id without an installation secret: for tests and inventories whose addresses are not
     * secret. Servers use {@link #opaque(ProxyKey, String, byte[])}.
     *
     * @param key      the proxy's dedupe identity; not null
     * @param upstream the upstream it was fetched for; null is treated as empty
     * @return {@code p-} followed by 16 base32 characters of a plain SHA-256
     */
    public static String unsalted(ProxyKey key, String upstream) {
        try {
            return encode(MessageDigest.getInstance("SHA-256").digest(material(key, upstream)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    private static byte[] material(ProxyKey key, String upstream) {
        String s = key.protocol().wireName() + "\u0000" + key.host() + "\u0000" + key.port() + "\u0000"
                + key.credentialRef().name() + "\u0000" + (upstream == null ? "" : upstream);
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String encode(byte[] digest) {
        // 80 bits = 10 bytes = 16 base32 characters
        StringBuilder sb = new StringBuilder(18).append("p-");
        long buffer = 0;
        int bits = 0;
        for (int i = 0; i < 10; i++) {
            buffer = (buffer << 8) | (digest[i] & 0xFF);
            bits += 8;
            while (bits >= 5) {
                sb.append(BASE32[(int) (buffer >>> (bits - 5)) & 31]);
                bits -= 5;
            }
        }
        return sb.toString();
    }
}
