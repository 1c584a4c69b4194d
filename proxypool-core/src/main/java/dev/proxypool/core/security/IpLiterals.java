package dev.proxypool.core.security;

/**
 * Parses IP literals in every spelling a resolver, curl or a browser would turn into an address,
 * without ever touching DNS ({@code InetAddress.getByName} may). IPv4 follows {@code inet_aton}
 * and the WHATWG URL host parser: one to four parts, each decimal, octal ({@code 0177}) or hex
 * ({@code 0x7f}); the last part fills the remaining bytes ({@code 127.1}, {@code 2130706433}).
 * IPv6 follows RFC 4291 text form with an optional dotted-quad tail.
 *
 * <p>Input is already lower-case, without brackets and without a trailing dot.
 */
final class IpLiterals {

    /** The text is a host name, not an IPv4 literal. */
    static final long NOT_IPV4 = -1;
    /** The last label is a number but the whole is no valid IPv4: refuse rather than guess. */
    static final long AMBIGUOUS = -2;

    private static final long MAX32 = 0xFFFF_FFFFL;

    private IpLiterals() {}

    /** The {@code inet_aton} reading: a 32-bit address, {@link #NOT_IPV4} or {@link #AMBIGUOUS}. */
    static long ipv4(String h) {
        if (!endsInNumber(h)) {
            return NOT_IPV4;
        }
        long v = parse(h, false);
        return v < 0 ? AMBIGUOUS : v;
    }

    /**
     * The other reading some parsers use for leading zeros: every part decimal ({@code 012.0.0.1}
     * as 12.0.0.1, not 10.0.0.1). {@link #NOT_IPV4} when no part has a leading zero, a part is hex,
     * or the decimal reading is no address; otherwise a second address to check.
     */
    static long ipv4Decimal(String h) {
        if (!endsInNumber(h) || h.indexOf('x') >= 0) {
            return NOT_IPV4;
        }
        boolean leadingZero = false;
        int start = 0;
        while (start < h.length()) {
            int dot = h.indexOf('.', start);
            int end = dot < 0 ? h.length() : dot;
            if (end - start > 1 && h.charAt(start) == '0') {
                leadingZero = true;
            }
            start = end + 1;
        }
        return leadingZero ? parse(h, true) : NOT_IPV4;
    }

    /** True when the last dot-separated label is a number (digits, or 0x and hex digits). */
    private static boolean endsInNumber(String h) {
        int from = h.lastIndexOf('.') + 1;
        if (from >= h.length()) {
            return false;
        }
        if (h.startsWith("0x", from)) {
            for (int i = from + 2; i < h.length(); i++) {
                if (Character.digit(h.charAt(i), 16) < 0) {
                    return false;
                }
            }
            return true;
        }
        for (int i = from; i < h.length(); i++) {
            char c = h.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static long parse(String h, boolean allDecimal) {
        long[] parts = new long[4];
        int count = 0;
        int start = 0;
        while (true) {
            int dot = h.indexOf('.', start);
            int end = dot < 0 ? h.length() : dot;
            if (count == 4) {
                return -1;
            }
            long v = part(h, start, end, allDecimal);
            if (v < 0) {
                return -1;
            }
            parts[count++] = v;
            if (dot < 0) {
                break;
            }
            start = dot + 1;
        }
        long address = 0;
        for (int i = 0; i < count - 1; i++) {
            if (parts[i] > 255) {
                return -1;
            }
            address |= parts[i] << (24 - 8 * i);
        }
        long last = parts[count - 1];
        if (last > (MAX32 >>> (8 * (count - 1)))) {
            return -1;
        }
        return address | last;
    }

    private static long part(String h, int start, int end, boolean allDecimal) {
        if (start >= end) {
            return -1;
        }
        int radix = 10;
        int i = start;
        if (!allDecimal && end - start >= 2 && h.charAt(start) == '0' && h.charAt(start + 1) == 'x') {
            radix = 16;
            i += 2;
        } else if (!allDecimal && end - start >= 2 && h.charAt(start) == '0') {
            radix = 8;
            i += 1;
        }
        long v = 0;
        for (; i < end; i++) {
            int d = Character.digit(h.charAt(i), radix);
            if (d < 0 || h.charAt(i) > 'f') {
                return -1;
            }
            v = v * radix + d;
            if (v > MAX32) {
                return -1;
            }
        }
        return v;
    }

    /** Sixteen bytes, or {@code null} when {@code s} is not an IPv6 literal. */
    static byte[] ipv6(String s) {
        int n = s.length();
        if (n < 2 || n > 45) {
            return null;
        }
        int[] groups = new int[8];
        int count = 0;
        int compressAt = -1;
        int i = 0;
        if (s.startsWith("::")) {
            compressAt = 0;
            i = 2;
        } else if (s.charAt(0) == ':') {
            return null;
        }
        while (i < n) {
            if (count == 8) {
                return null;
            }
            int j = i;
            while (j < n && Character.digit(s.charAt(j), 16) >= 0 && s.charAt(j) <= 'f') {
                j++;
            }
            if (j < n && s.charAt(j) == '.') {
                long v4 = dottedQuad(s, i);
                if (count > 6 || v4 < 0) {
                    return null;
                }
                groups[count++] = (int) (v4 >>> 16);
                groups[count++] = (int) (v4 & 0xFFFF);
                break;
            }
            if (j == i || j - i > 4) {
                return null;
            }
            groups[count++] = Integer.parseInt(s, i, j, 16);
            if (j == n) {
                break;
            }
            if (s.charAt(j) != ':') {
                return null;
            }
            if (j + 1 < n && s.charAt(j + 1) == ':') {
                if (compressAt >= 0) {
                    return null;
                }
                compressAt = count;
                i = j + 2;
            } else {
                i = j + 1;
                if (i == n) {
                    return null;
                }
            }
        }
        if (compressAt < 0 ? count != 8 : count == 8) {
            return null;
        }
        byte[] out = new byte[16];
        int tail = compressAt < 0 ? 0 : count - compressAt;
        for (int g = 0; g < count; g++) {
            int slot = compressAt >= 0 && g >= compressAt ? 8 - tail + (g - compressAt) : g;
            out[2 * slot] = (byte) (groups[g] >>> 8);
            out[2 * slot + 1] = (byte) groups[g];
        }
        return out;
    }

    /** Strict a.b.c.d tail of an IPv6 literal: decimal, no leading zeros (they would be ambiguous). */
    private static long dottedQuad(String s, int from) {
        long v = 0;
        int parts = 0;
        int i = from;
        while (parts < 4) {
            int start = i;
            int octet = 0;
            while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                octet = octet * 10 + (s.charAt(i) - '0');
                i++;
                if (i - start > 3) {
                    return -1;
                }
            }
            if (i == start || octet > 255 || i - start > 1 && s.charAt(start) == '0') {
                return -1;
            }
            v = v << 8 | octet;
            parts++;
            if (parts < 4) {
                if (i >= s.length() || s.charAt(i) != '.') {
                    return -1;
                }
                i++;
            }
        }
        return i == s.length() ? v : -1;
    }

    /** Four big-endian bytes of a 32-bit address. */
    static byte[] bytes(long v4) {
        return new byte[] {(byte) (v4 >>> 24), (byte) (v4 >>> 16), (byte) (v4 >>> 8), (byte) v4};
    }

    /**
     * A canonical literal for configuration (allow-list entries): strict dotted-quad IPv4 or IPv6;
     * {@code null} otherwise. Configuration never accepts the ambiguous spellings.
     */
    static byte[] canonical(String s) {
        if (s.indexOf(':') >= 0) {
            return ipv6(s);
        }
        long v = dottedQuad(s, 0);
        return v < 0 ? null : bytes(v);
    }
}
