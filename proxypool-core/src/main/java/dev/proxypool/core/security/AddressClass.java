package dev.proxypool.core.security;

/**
 * Classifies a numeric address: {@code null} for a public destination, otherwise the
 * {@link DenyReason}. IPv6 forms that carry an IPv4 address (mapped {@code ::ffff:a.b.c.d},
 * compatible {@code ::a.b.c.d}, SIIT-translated {@code ::ffff:0:a.b.c.d}, NAT64
 * {@code 64:ff9b::/96}, 6to4 {@code 2002::/16}, Teredo {@code 2001::/32}) are judged by the IPv4
 * they embed. Mapped and NAT64 addresses of public IPv4 are public; compatible and translated
 * forms are never valid destinations ({@link DenyReason#RESERVED}). Outside the special prefixes,
 * only global unicast 2000::/3 is public.
 */
final class AddressClass {

    private AddressClass() {}

    static DenyReason classify(byte[] a) {
        return a.length == 4 ? v4(toInt(a, 0)) : v6(a);
    }

    static DenyReason v4(int v) {
        int a = v >>> 24;
        int b = (v >>> 16) & 0xFF;
        if (v == 0xA9FE_A9FE // 169.254.169.254: AWS, GCP, Azure, OCI, DigitalOcean ...
                || v == 0xA9FE_AA02 // 169.254.170.2: AWS ECS task metadata
                || v == 0xA9FE_0017 // 169.254.0.23: Tencent Cloud
                || v == 0x6464_64C8 // 100.100.100.200: Alibaba Cloud
                || v == 0xC000_00C0) { // 192.0.0.192: Oracle Cloud (legacy)
            return DenyReason.METADATA;
        }
        if (v == 0xFFFF_FFFF) {
            return DenyReason.BROADCAST;
        }
        if (a == 0) {
            return DenyReason.UNSPECIFIED;
        }
        if (a == 127) {
            return DenyReason.LOOPBACK;
        }
        if (a == 10 || a == 172 && (b & 0xF0) == 16 || a == 192 && b == 168) {
            return DenyReason.PRIVATE;
        }
        if (a == 100 && (b & 0xC0) == 64) {
            return DenyReason.CARRIER_GRADE_NAT;
        }
        if (a == 169 && b == 254) {
            return DenyReason.LINK_LOCAL;
        }
        if (a >= 224 && a <= 239) {
            return DenyReason.MULTICAST;
        }
        int c = (v >>> 8) & 0xFF;
        if (a >= 240 // 240/4 future use
                || a == 192 && b == 0 && (c == 0 || c == 2) // 192.0.0/24 IETF, 192.0.2/24 TEST-NET-1
                || a == 192 && b == 88 && c == 99 // 6to4 relay anycast (deprecated)
                || a == 198 && (b & 0xFE) == 18 // 198.18/15 benchmarking
                || a == 198 && b == 51 && c == 100 // TEST-NET-2
                || a == 203 && b == 0 && c == 113) { // TEST-NET-3
            return DenyReason.RESERVED;
        }
        return null;
    }

    private static DenyReason v6(byte[] a) {
        if (zero(a, 0, 10)) {
            int g5 = u16(a, 10);
            if (g5 == 0xFFFF) { // ::ffff:a.b.c.d mapped: the IPv4 itself
                return v4(toInt(a, 12));
            }
            if (g5 == 0) {
                if (zero(a, 12, 15)) {
                    return a[15] == 0 ? DenyReason.UNSPECIFIED : a[15] == 1 ? DenyReason.LOOPBACK : DenyReason.RESERVED;
                }
                return embeddedNeverPublic(toInt(a, 12)); // ::a.b.c.d compatible (deprecated)
            }
            return DenyReason.RESERVED;
        }
        if (zero(a, 0, 8) && u16(a, 8) == 0xFFFF && u16(a, 10) == 0) {
            return embeddedNeverPublic(toInt(a, 12)); // ::ffff:0:a.b.c.d translated (SIIT)
        }
        int g0 = u16(a, 0);
        int g1 = u16(a, 2);
        if (g0 == 0x0064 && g1 == 0xFF9B) {
            if (zero(a, 4, 12)) {
                return v4(toInt(a, 12)); // 64:ff9b::/96 NAT64 well-known prefix
            }
            if (u16(a, 4) == 0x0001) {
                return DenyReason.PRIVATE; // 64:ff9b:1::/48 local-use NAT64
            }
            return DenyReason.RESERVED;
        }
        if (g0 == 0xFD00 && g1 == 0x0EC2 && zero(a, 4, 14) && u16(a, 14) == 0x0254) {
            return DenyReason.METADATA; // fd00:ec2::254 AWS IMDS over IPv6
        }
        if ((g0 & 0xFE00) == 0xFC00) {
            return DenyReason.UNIQUE_LOCAL;
        }
        if ((g0 & 0xFFC0) == 0xFE80) {
            return DenyReason.LINK_LOCAL;
        }
        if ((g0 & 0xFFC0) == 0xFEC0) {
            return DenyReason.PRIVATE;
        }
        if ((g0 & 0xFF00) == 0xFF00) {
            return DenyReason.MULTICAST;
        }
        if ((g0 & 0xE000) != 0x2000) {
            return DenyReason.RESERVED; // not global unicast (100::/64 discard and the rest)
        }
        if (g0 == 0x2002) {
            return v4(toInt(a, 2)); // 6to4: 2002:AABB:CCDD::/48 embeds AA.BB.CC.DD
        }
        if (g0 == 0x2001 && g1 == 0x0000) { // Teredo: server at 32..63, client inverted at 96..127
            DenyReason server = v4(toInt(a, 4));
            return server != null ? server : v4(~toInt(a, 12));
        }
        if (g0 == 0x2001 && g1 == 0x0DB8 // documentation
                || g0 == 0x2001 && g1 == 0x0002 && u16(a, 4) == 0 // 2001:2::/48 benchmarking
                || g0 == 0x2001 && (g1 & 0xFFF0) == 0x0010 // 2001:10::/28 ORCHID (deprecated)
                || (g0 & 0xFFF0) == 0x3FF0) { // 3fff::/20 documentation (RFC 9637)
            return DenyReason.RESERVED;
        }
        return null;
    }

    /** A deprecated embedding: the embedded class when it is special, else still reserved. */
    private static DenyReason embeddedNeverPublic(int v4) {
        DenyReason r = v4(v4);
        return r != null ? r : DenyReason.RESERVED;
    }

    static int toInt(byte[] a, int off) {
        return (a[off] & 0xFF) << 24 | (a[off + 1] & 0xFF) << 16 | (a[off + 2] & 0xFF) << 8 | a[off + 3] & 0xFF;
    }

    private static int u16(byte[] a, int off) {
        return (a[off] & 0xFF) << 8 | a[off + 1] & 0xFF;
    }

    private static boolean zero(byte[] a, int from, int to) {
        for (int i = from; i < to; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
