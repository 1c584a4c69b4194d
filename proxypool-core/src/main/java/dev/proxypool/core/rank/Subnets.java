package dev.proxypool.core.rank;

/**
 * The diversity subnet of an exit address: the /24 of an IPv4 address, the /48 of an IPv6 one
 * (IPv4-mapped IPv6 counts as its IPv4 address). Parsed by hand, never via
 * {@code InetAddress.getByName}, which would resolve a non-literal name through DNS.
 */
final class Subnets {

    /** No subnet: the exit address is unknown. */
    static final long NONE = -1;

    private static final long V4 = 1L << 48;
    private static final long V6 = 2L << 48;

    private Subnets() {}

    /**
     * The subnet key of {@code ip}; {@link #NONE} for an empty string.
     *
     * @throws IllegalArgumentException when {@code ip} is not an IPv4 or IPv6 literal
     */
    static long of(String ip) {
        if (ip.isEmpty()) {
            return NONE;
        }
        String s = ip;
        if (s.length() > 2 && s.charAt(0) == '[' && s.charAt(s.length() - 1) == ']') {
            s = s.substring(1, s.length() - 1);
        }
        int zone = s.indexOf('%');
        if (zone >= 0) {
            s = s.substring(0, zone);
        }
        if (s.indexOf(':') < 0) {
            long v4 = ipv4(s, 0, s.length());
            if (v4 < 0) {
                throw bad(ip);
            }
            return V4 | (v4 >>> 8);
        }
        int[] g = ipv6(s);
        if (g == null) {
            throw bad(ip);
        }
        boolean mapped = g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0 && g[5] == 0xFFFF;
        if (mapped) {
            return V4 | ((long) g[6] << 8) | (g[7] >>> 8);
        }
        return V6 | ((long) g[0] << 32) | ((long) g[1] << 16) | g[2];
    }

    private static IllegalArgumentException bad(String ip) {
        return new IllegalArgumentException("exitIp '" + ip + "' is not an IPv4 or IPv6 address");
    }

    /** Dotted quad in {@code s[from, to)} as a 32-bit value, or -1. */
    private static long ipv4(String s, int from, int to) {
        long value = 0;
        int parts = 0;
        int i = from;
        while (parts < 4) {
            int start = i;
            int octet = 0;
            while (i < to && s.charAt(i) >= '0' && s.charAt(i) <= '9' && i - start < 3) {
                octet = octet * 10 + (s.charAt(i) - '0');
                i++;
            }
            if (i == start || octet > 255 || (i - start > 1 && s.charAt(start) == '0')) {
                return -1;
            }
            value = (value << 8) | octet;
            parts++;
            if (parts < 4) {
                if (i >= to || s.charAt(i) != '.') {
                    return -1;
                }
                i++;
            }
        }
        return i == to ? value : -1;
    }

    /** Eight 16-bit groups, or null when {@code s} is not an IPv6 literal. */
    private static int[] ipv6(String s) {
        int gap = s.indexOf("::");
        if (gap >= 0 && s.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        int[] head = new int[8];
        int[] tail = new int[8];
        int nHead;
        int nTail = 0;
        if (gap < 0) {
            nHead = groups(s, 0, s.length(), head, true);
            return nHead == 8 ? head : null;
        }
        nHead = gap == 0 ? 0 : groups(s, 0, gap, head, false);
        if (gap + 2 < s.length()) {
            nTail = groups(s, gap + 2, s.length(), tail, true);
        }
        if (nHead < 0 || nTail < 0 || nHead + nTail > 7) {
            return null;
        }
        int[] out = new int[8];
        System.arraycopy(head, 0, out, 0, nHead);
        System.arraycopy(tail, 0, out, 8 - nTail, nTail);
        return out;
    }

    /** Parses colon-separated groups of {@code s[from, to)} into {@code out}; returns the count or -1. */
    private static int groups(String s, int from, int to, int[] out, boolean ipv4Tail) {
        int n = 0;
        int i = from;
        while (true) {
            int end = s.indexOf(':', i);
            if (end < 0 || end > to) {
                end = to;
            }
            if (end == to && ipv4Tail && s.indexOf('.', i) >= 0 && s.indexOf('.', i) < to) {
                long v4 = ipv4(s, i, to);
                if (v4 < 0 || n > 6) {
                    return -1;
                }
                out[n++] = (int) (v4 >>> 16);
                out[n++] = (int) (v4 & 0xFFFF);
                return n;
            }
            int len = end - i;
            if (len < 1 || len > 4 || n >= 8) {
                return -1;
            }
            int v = 0;
            for (int k = i; k < end; k++) {
                int d = Character.digit(s.charAt(k), 16);
                if (d < 0) {
                    return -1;
                }
                v = v * 16 + d;
            }
            out[n++] = v;
            if (end == to) {
                return n;
            }
            i = end + 1;
        }
    }
}
