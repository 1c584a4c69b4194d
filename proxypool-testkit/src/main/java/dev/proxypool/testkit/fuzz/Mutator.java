package dev.proxypool.testkit.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Turns a valid input into a broken or hostile one with one to four stacked byte-level edits:
 * bit flips, random bytes, insertions of delimiters, quotes, CR, LF, NUL, multi-byte and invalid
 * UTF-8, a format's own tokens (its dictionary), deletions, truncation, duplication of a slice,
 * huge numbers, deep nesting and very long tokens. Outputs never exceed {@code maxBytes}, so
 * every mutation stays cheap. Stateless and thread-safe.
 */
public final class Mutator {

    /** Bytes that break parsers: separators, quotes, line ends, NUL, DEL, high and invalid UTF-8. */
    private static final String[] HOSTILE = {
        "\r",
        "\n",
        "\r\n",
        "\u0000",
        "\t",
        " ",
        "\"",
        "'",
        "\\",
        ",",
        ";",
        ":",
        "=",
        "#",
        "{",
        "}",
        "[",
        "]",
        "/",
        "?",
        "@",
        "%",
        "%00",
        "\u007f",
        "\u00e9",
        "\u4e2d",
        "\ud83d\ude00",
        "\ufeff",
        "-",
        "+",
        ".",
        "0",
        "-1",
        "null",
        "true",
        "\\u0000",
        "\\ud800",
        "${",
        "*",
        "&",
        "!",
        "|",
        ">",
        "<",
        "~",
        "`"
    };

    private static final byte[][] RAW = {
        {(byte) 0xff},
        {(byte) 0xc0, (byte) 0x80},
        {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
        {(byte) 0x80},
        {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
        {(byte) 0xe2, (byte) 0x82},
        {(byte) 0xfe}
    };
    private static final String[] NUMBERS = {
        "99999999999999999999999999999999999999",
        "-9223372036854775809",
        "9223372036854775808",
        "2147483648",
        "-2147483649",
        "1e999999999",
        "-1e-999999999",
        "1E400",
        "0.0000000000000000000000001",
        "-0",
        "00",
        "01",
        "1.",
        ".5",
        "0x1F",
        "NaN",
        "Infinity",
        "-Infinity",
        "1e",
        "1e+",
        "65536",
        "65535",
        "0",
        "4294967296",
        "1" + "0".repeat(400),
        "1." + "1".repeat(300)
    };

    private final byte[][] dictionary;
    private final int maxBytes;

    private Mutator(byte[][] dictionary, int maxBytes) {
        this.dictionary = dictionary;
        this.maxBytes = maxBytes;
    }

    /**
     * @param maxBytes  no output is longer
     * @param tokens    the format's own tokens (keys, keywords, delimiters) to splice in
     */
    public static Mutator of(int maxBytes, String... tokens) {
        List<byte[]> d = new ArrayList<>();
        for (String t : tokens) {
            d.add(t.getBytes(StandardCharsets.UTF_8));
        }
        return new Mutator(d.toArray(new byte[0][]), maxBytes);
    }

    /** One to four stacked edits of {@code seed} (the seed array is not changed). */
    public byte[] mutate(byte[] seed, RandomGenerator r) {
        byte[] b = seed;
        int edits = 1 + r.nextInt(4);
        for (int i = 0; i < edits; i++) {
            b = edit(b, r);
        }
        return b.length > maxBytes ? Arrays.copyOf(b, maxBytes) : b;
    }

    /** {@link #mutate} of UTF-8 text, decoded back (invalid bytes become U+FFFD). */
    public String mutate(String seed, RandomGenerator r) {
        return new String(mutate(seed.getBytes(StandardCharsets.UTF_8), r), StandardCharsets.UTF_8);
    }

    private byte[] edit(byte[] b, RandomGenerator r) {
        int n = b.length;
        int at = n == 0 ? 0 : r.nextInt(n + 1);
        return switch (r.nextInt(14)) {
            case 0 -> flipBit(b, r);
            case 1 -> setByte(b, r);
            case 2, 3 -> insert(b, at, bytes(HOSTILE[r.nextInt(HOSTILE.length)]));
            case 4 -> insert(b, at, RAW[r.nextInt(RAW.length)]);
            case 5, 6 ->
                dictionary.length == 0 ? setByte(b, r) : insert(b, at, dictionary[r.nextInt(dictionary.length)]);
            case 7 -> delete(b, r);
            case 8 -> n == 0 ? b : Arrays.copyOf(b, r.nextInt(n)); // truncate
            case 9 -> duplicate(b, r);
            case 10 -> replaceNumber(b, r);
            case 11 -> insert(b, at, nesting(r));
            case 12 -> insert(b, at, longToken(r));
            default ->
                dictionary.length == 0 ? flipBit(b, r) : replaceRange(b, r, dictionary[r.nextInt(dictionary.length)]);
        };
    }

    private static byte[] flipBit(byte[] b, RandomGenerator r) {
        if (b.length == 0) {
            return b;
        }
        byte[] c = b.clone();
        int i = r.nextInt(c.length);
        c[i] ^= (byte) (1 << r.nextInt(8));
        return c;
    }

    private static byte[] setByte(byte[] b, RandomGenerator r) {
        if (b.length == 0) {
            return new byte[] {(byte) r.nextInt(256)};
        }
        byte[] c = b.clone();
        c[r.nextInt(c.length)] = (byte) r.nextInt(256);
        return c;
    }

    private static byte[] delete(byte[] b, RandomGenerator r) {
        if (b.length == 0) {
            return b;
        }
        int from = r.nextInt(b.length);
        int len = 1 + r.nextInt(Math.min(16, b.length - from));
        byte[] c = new byte[b.length - len];
        System.arraycopy(b, 0, c, 0, from);
        System.arraycopy(b, from + len, c, from, b.length - from - len);
        return c;
    }

    private byte[] duplicate(byte[] b, RandomGenerator r) {
        if (b.length == 0) {
            return b;
        }
        int from = r.nextInt(b.length);
        int len = 1 + r.nextInt(b.length - from);
        int times = 1 + (r.nextInt(16) == 0 ? r.nextInt(64) : 0);
        ByteArrayOutputStream out = new ByteArrayOutputStream(b.length + len * times);
        int at = r.nextInt(b.length + 1);
        out.write(b, 0, at);
        for (int i = 0; i < times && out.size() < maxBytes; i++) {
            out.write(b, from, len);
        }
        out.write(b, at, b.length - at);
        return out.toByteArray();
    }

    /** Replaces the digits around a random position (or inserts at it) with an extreme number. */
    private static byte[] replaceNumber(byte[] b, RandomGenerator r) {
        byte[] num = bytes(NUMBERS[r.nextInt(NUMBERS.length)]);
        int start = -1;
        if (b.length > 0) {
            int probe = r.nextInt(b.length);
            for (int i = 0; i < b.length; i++) {
                int j = (probe + i) % b.length;
                if (b[j] >= '0' && b[j] <= '9') {
                    start = j;
                    break;
                }
            }
        }
        if (start < 0) {
            return insert(b, b.length == 0 ? 0 : r.nextInt(b.length + 1), num);
        }
        int end = start;
        while (start > 0 && (isNumberByte(b[start - 1]))) {
            start--;
        }
        while (end < b.length && isNumberByte(b[end])) {
            end++;
        }
        return splice(b, start, end, num);
    }

    private static boolean isNumberByte(byte c) {
        return c >= '0' && c <= '9' || c == '.' || c == '-' || c == 'e' || c == 'E' || c == '+';
    }

    private static byte[] replaceRange(byte[] b, RandomGenerator r, byte[] with) {
        if (b.length == 0) {
            return with;
        }
        int from = r.nextInt(b.length);
        int to = Math.min(b.length, from + 1 + r.nextInt(8));
        return splice(b, from, to, with);
    }

    private static byte[] nesting(RandomGenerator r) {
        int depth = r.nextInt(16) == 0 ? 1_000 + r.nextInt(20_000) : 2 + r.nextInt(40);
        String open = switch (r.nextInt(4)) {
            case 0 -> "[";
            case 1 -> "{\"a\":";
            case 2 -> "- ";
            default -> "{";
        };
        return bytes(open.repeat(depth));
    }

    private static byte[] longToken(RandomGenerator r) {
        int len = r.nextInt(16) == 0 ? 10_000 + r.nextInt(60_000) : 100 + r.nextInt(2_000);
        char c = "a9\" %/.:\t".charAt(r.nextInt(9));
        return bytes(String.valueOf(c).repeat(len));
    }

    private static byte[] insert(byte[] b, int at, byte[] what) {
        return splice(b, at, at, what);
    }

    private static byte[] splice(byte[] b, int from, int to, byte[] with) {
        byte[] c = new byte[b.length - (to - from) + with.length];
        System.arraycopy(b, 0, c, 0, from);
        System.arraycopy(with, 0, c, from, with.length);
        System.arraycopy(b, to, c, from + with.length, b.length - to);
        return c;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
