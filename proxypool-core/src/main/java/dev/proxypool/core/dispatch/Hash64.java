package dev.proxypool.core.dispatch;

/**
 * A 64-bit string hash for consistent hashing: FNV-1a over the UTF-16 code units, then the
 * MurmurHash3 64-bit finalizer to spread FNV's weak low bits. Stable across JVMs and releases
 * (unlike {@link String#hashCode()}, which is also only 32 bits). No allocation.
 */
final class Hash64 {

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private Hash64() {}

    /** FNV_PRIME²: a code unit below 256 has a zero high byte, whose xor is a no-op, so its two multiplies fold into one. */
    private static final long FNV_PRIME_SQUARED = FNV_PRIME * FNV_PRIME;

    /**
     * The hash of {@code s}. Same value as hashing each code unit's low then high byte with FNV-1a;
     * a code unit below 256 (every character of an ASCII host name) costs one multiply instead of
     * two, which halves the serial multiply chain of a typical key.
     */
    static long of(String s) {
        long h = FNV_OFFSET;
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c < 256) {
                h = (h ^ c) * FNV_PRIME_SQUARED;
            } else {
                h ^= c & 0xFF;
                h *= FNV_PRIME;
                h ^= c >>> 8;
                h *= FNV_PRIME;
            }
        }
        return mix(h);
    }

    /** MurmurHash3 fmix64. */
    static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
