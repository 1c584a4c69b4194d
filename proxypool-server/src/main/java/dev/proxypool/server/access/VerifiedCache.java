package dev.proxypool.server.access;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Remembers (client, secret) pairs whose PBKDF2 check succeeded, so a gateway runs PBKDF2 once
 * per credential instead of once per request. The key is HMAC-SHA256 under a random per-process
 * key of {@code name ":" secret}: a heap dump shows neither the secret nor an offline-crackable
 * unsalted hash of it. Only successes are stored.
 *
 * <p>Bounded: at the limit an arbitrary entry is dropped (iteration order over HMAC keys is
 * effectively random). Thread-safe; a lookup costs one HMAC (~1 µs) and a hash-map probe.
 */
final class VerifiedCache {

    /** A 256-bit HMAC as four longs: value equality without a byte[] wrapper. */
    record Key(long a, long b, long c, long d) {}

    private final Mac prototype;
    private final int maxEntries;
    private final ConcurrentHashMap<Key, String> entries;

    VerifiedCache(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("cache entries must be at least 1, got " + maxEntries);
        }
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        try {
            prototype = Mac.getInstance("HmacSHA256");
            prototype.init(new SecretKeySpec(secret, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        } finally {
            Arrays.fill(secret, (byte) 0);
        }
        this.maxEntries = maxEntries;
        this.entries = new ConcurrentHashMap<>(Math.min(maxEntries, 1024) * 2);
    }

    Key key(String name, char[] secret) {
        Mac mac = mac();
        mac.update(name.getBytes(StandardCharsets.UTF_8));
        mac.update((byte) ':');
        ByteBuffer encoded = StandardCharsets.UTF_8.encode(CharBuffer.wrap(secret));
        mac.update(encoded);
        if (encoded.hasArray()) {
            Arrays.fill(encoded.array(), (byte) 0);
        }
        ByteBuffer h = ByteBuffer.wrap(mac.doFinal());
        return new Key(h.getLong(), h.getLong(), h.getLong(), h.getLong());
    }

    /** True when {@code key} was verified for exactly this client. */
    boolean contains(Key key, String name) {
        return name.equals(entries.get(key));
    }

    void put(Key key, String name) {
        if (entries.size() >= maxEntries) {
            Iterator<Key> it = entries.keySet().iterator();
            if (it.hasNext()) {
                it.next();
                it.remove();
            }
        }
        entries.put(key, name);
    }

    int size() {
        return entries.size();
    }

    private Mac mac() {
        try {
            return (Mac) prototype.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("HmacSHA256 is not cloneable", e);
        }
    }
}
