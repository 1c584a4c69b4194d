package dev.proxypool.sdk.asn;

import dev.proxypool.core.model.InetText;
import java.net.InetAddress;

/**
 * Address arithmetic for the ASN database, without DNS: IPv4 as an {@code int}, IPv6 as two
 * {@code long}s (high and low 64 bits), the special-purpose ranges that never belong to a public
 * AS, and the text forms of addresses and diversity prefixes.
 */
final class IpAddresses {

    /** IPv4 special-purpose blocks (RFC 6890) that are never a public exit: base, prefix length. */
    private static final int[][] V4_SPECIAL = {
        {v4(0, 0, 0, 0), 8}, // "this network"
        {v4(10, 0, 0, 0), 8}, // private
        {v4(100, 64, 0, 0), 10}, // carrier-grade NAT
        {v4(127, 0, 0, 0), 8}, // loopback
        {v4(169, 254, 0, 0), 16}, // link-local
        {v4(172, 16, 0, 0), 12}, // private
        {v4(192, 0, 0, 0), 24}, // IETF protocol assignments
        {v4(192, 168, 0, 0), 16}, // private
        {v4(198, 18, 0, 0), 15}, // benchmarking
        {v4(224, 0, 0, 0), 4}, // multicast
        {v4(240, 0, 0, 0), 4}, // reserved, broadcast
    };

    private IpAddresses() {}

    static int v4(int a, int b, int c, int d) {
        return (a << 24) | (b << 16) | (c << 8) | d;
    }

    /**
     * True for IPv4 addresses that are private, loopback, link-local, CGNAT, multicast or reserved.
     * Documentation blocks are NOT special here: the database decides (a real one lacks them).
     */
    static boolean isSpecialV4(int ip) {
        for (int[] block : V4_SPECIAL) {
            int mask = -1 << (32 - block[1]);
            if ((ip & mask) == block[0]) {
                return true;
            }
        }
        return false;
    }

    /**
     * True for IPv6 addresses in {@code ::/8} (unspecified, loopback, IPv4-compatible, NAT64),
     * {@code 100::/64} (discard) and {@code fc00::/6} (ULA, link-local, site-local, multicast).
     * {@code 2001:db8::/32} is left to the database, like the IPv4 documentation blocks.
     */
    static boolean isSpecialV6(long hi) {
        int top8 = (int) (hi >>> 56);
        return top8 == 0x00 || (hi == 0x0100_0000_0000_0000L) || (hi >>> 58) == 0x3F;
    }

    /** Dotted-quad IPv4 to int; throws IllegalArgumentException when malformed. Fast path for loading. */
    static int parseV4(String s) {
        int value = 0;
        int part = 0;
        int digits = 0;
        int dots = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                part = part * 10 + (c - '0');
                if (++digits > 3 || part > 255) {
                    throw new IllegalArgumentException("'" + s + "' is not an IPv4 address");
                }
            } else if (c == '.' && digits > 0 && dots < 3) {
                value = (value << 8) | part;
                part = 0;
                digits = 0;
                dots++;
            } else {
                throw new IllegalArgumentException("'" + s + "' is not an IPv4 address");
            }
        }
        if (dots != 3 || digits == 0) {
            throw new IllegalArgumentException("'" + s + "' is not an IPv4 address");
        }
        return (value << 8) | part;
    }

    /** An IP literal (no DNS), as 4 or 16 bytes; IPv4-mapped IPv6 comes back as 4 bytes. */
    static byte[] parseLiteral(String s) {
        if (s == null || s.isEmpty() || s.indexOf('%') >= 0) {
            throw new IllegalArgumentException("'" + s + "' is not an IP address");
        }
        String t = s.startsWith("[") && s.endsWith("]") ? s.substring(1, s.length() - 1) : s;
        return InetAddress.ofLiteral(t).getAddress(); // IllegalArgumentException when not a literal
    }

    static int toV4(byte[] b) {
        return ((b[0] & 0xFF) << 24) | ((b[1] & 0xFF) << 16) | ((b[2] & 0xFF) << 8) | (b[3] & 0xFF);
    }

    static long high(byte[] b) {
        return word(b, 0);
    }

    static long low(byte[] b) {
        return word(b, 8);
    }

    private static long word(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }

    static String v4Text(int ip) {
        return (ip >>> 24) + "." + ((ip >>> 16) & 0xFF) + "." + ((ip >>> 8) & 0xFF) + "." + (ip & 0xFF);
    }

    /** The /24 holding {@code ip}: {@code 203.0.113.0/24}. */
    static String v4Prefix(int ip) {
        return v4Text(ip & 0xFFFF_FF00) + "/24";
    }

    /** RFC 5952 text of an IPv6 address. */
    static String v6Text(long hi, long lo) {
        int[] g = new int[8];
        for (int i = 0; i < 4; i++) {
            g[i] = (int) (hi >>> (48 - 16 * i)) & 0xFFFF;
            g[4 + i] = (int) (lo >>> (48 - 16 * i)) & 0xFFFF;
        }
        return compress(g);
    }

    /** The /48 holding the address: {@code 2001:db8:1::/48}. */
    static String v6Prefix(long hi) {
        return v6Text(hi & 0xFFFF_FFFF_FFFF_0000L, 0) + "/48";
    }

    private static String compress(int[] g) {
        return InetText.ipv6(g);
    }
}
