package dev.proxypool.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The consistent-hash key hash is a stable function: FNV-1a over each UTF-16 code unit's low then
 * high byte, then the MurmurHash3 finalizer. The one-multiply shortcut for code units below 256 must
 * give exactly the same values, or every key would move to another proxy on upgrade.
 */
class Hash64Test {

    /** The definition, byte by byte. */
    private static long reference(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            h ^= c & 0xFF;
            h *= 0x100000001b3L;
            h ^= c >>> 8;
            h *= 0x100000001b3L;
        }
        return Hash64.mix(h);
    }

    @Test
    void matchesTheByteWiseDefinitionForAnyCodeUnits() {
        Random random = new Random(5);
        for (int i = 0; i < 20_000; i++) {
            char[] chars = new char[random.nextInt(40)];
            int range = switch (i % 3) {
                case 0 -> 128; // ASCII host names
                case 1 -> 512; // Latin-1 and just above
                default -> 65536;
            };
            for (int k = 0; k < chars.length; k++) {
                chars[k] = (char) random.nextInt(range);
            }
            String s = new String(chars);
            assertEquals(
                    reference(s),
                    Hash64.of(s),
                    () -> "hash of " + s.chars().boxed().toList());
        }
    }

    @Test
    void knownValuesStayTheSame() {
        // pinned from the byte-wise definition: a change here moves every consistent-hash key
        assertEquals(reference(""), Hash64.of(""));
        assertEquals(reference("shop.example"), Hash64.of("shop.example"));
        assertEquals(Hash64.mix(0xcbf29ce484222325L), Hash64.of(""));
    }
}
