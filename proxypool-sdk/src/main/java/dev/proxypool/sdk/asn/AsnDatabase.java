package dev.proxypool.sdk.asn;

import dev.proxypool.core.model.ExitNetwork;
import java.net.InetAddress;

/**
 * An immutable IP-range → AS table for exit-network lookups (docs/design.md#collection-pipeline, P9), held in sorted
 * primitive arrays: IPv4 ranges as {@code int} pairs, IPv6 ranges as two {@code long} pairs, each
 * with an AS number and an index into a deduplicated organization table. Values are stored with the
 * sign bit flipped so that signed comparison gives unsigned address order.
 *
 * <p>Lookup is a binary search for the last range starting at or below the address: O(log n),
 * no allocation on {@link #asnOfIpv4}; {@link #lookup} allocates only its result and strings.
 * About 20 bytes per IPv4 range and 40 per IPv6 range (500k ranges ≈ 10 MB).
 *
 * <p>Special-purpose addresses (private, loopback, link-local, CGNAT, multicast, reserved, ULA)
 * are unknown (AS 0) whatever the table says; documentation blocks are looked up like any other
 * (a real database lacks them; the bundled test database has them). An unknown result still
 * carries the exit address and its /24 or /48, so ranking can spread unknown exits too.
 * Thread-safe: immutable after construction.
 */
public final class AsnDatabase {

    /** A database without ranges: every lookup is unknown. */
    public static final AsnDatabase EMPTY = AsnTableBuilder.empty();

    private static final int FLIP32 = 0x8000_0000;
    private static final long FLIP64 = 0x8000_0000_0000_0000L;

    private final int[] v4Start;
    private final int[] v4End;
    private final int[] v4Asn;
    private final int[] v4Org;
    private final long[] v6StartHi;
    private final long[] v6StartLo;
    private final long[] v6EndHi;
    private final long[] v6EndLo;
    private final int[] v6Asn;
    private final int[] v6Org;
    private final String[] orgs;

    AsnDatabase(
            int[] v4Start,
            int[] v4End,
            int[] v4Asn,
            int[] v4Org,
            long[] v6StartHi,
            long[] v6StartLo,
            long[] v6EndHi,
            long[] v6EndLo,
            int[] v6Asn,
            int[] v6Org,
            String[] orgs) {
        this.v4Start = v4Start;
        this.v4End = v4End;
        this.v4Asn = v4Asn;
        this.v4Org = v4Org;
        this.v6StartHi = v6StartHi;
        this.v6StartLo = v6StartLo;
        this.v6EndHi = v6EndHi;
        this.v6EndLo = v6EndLo;
        this.v6Asn = v6Asn;
        this.v6Org = v6Org;
        this.orgs = orgs;
    }

    /**
     * The exit network of an IP literal ({@code 203.0.113.7}, {@code 2001:db8::1}, {@code [::1]}).
     * No DNS is ever done.
     *
     * @throws IllegalArgumentException when {@code ip} is not an IP literal
     */
    public ExitNetwork lookup(String ip) {
        return lookup(IpAddresses.parseLiteral(ip));
    }

    /** The exit network of {@code address} (its literal bytes; no reverse DNS). */
    public ExitNetwork lookup(InetAddress address) {
        return lookup(address.getAddress());
    }

    private ExitNetwork lookup(byte[] b) {
        if (b.length == 4) {
            int ip = IpAddresses.toV4(b);
            String text = IpAddresses.v4Text(ip);
            String prefix = IpAddresses.v4Prefix(ip);
            int i = IpAddresses.isSpecialV4(ip) ? -1 : indexV4(ip);
            return i < 0
                    ? new ExitNetwork(text, 0, "", prefix)
                    : new ExitNetwork(text, Integer.toUnsignedLong(v4Asn[i]), orgs[v4Org[i]], prefix);
        }
        long hi = IpAddresses.high(b);
        long lo = IpAddresses.low(b);
        String text = IpAddresses.v6Text(hi, lo);
        String prefix = IpAddresses.v6Prefix(hi);
        int i = IpAddresses.isSpecialV6(hi) ? -1 : indexV6(hi, lo);
        return i < 0
                ? new ExitNetwork(text, 0, "", prefix)
                : new ExitNetwork(text, Integer.toUnsignedLong(v6Asn[i]), orgs[v6Org[i]], prefix);
    }

    /** The AS number of an IPv4 address given as an int ({@code a<<24|b<<16|c<<8|d}); 0 when unknown. Allocation-free. */
    public long asnOfIpv4(int ip) {
        if (IpAddresses.isSpecialV4(ip)) {
            return 0;
        }
        int i = indexV4(ip);
        return i < 0 ? 0 : Integer.toUnsignedLong(v4Asn[i]);
    }

    /** Index of the range holding {@code ip}, or -1. */
    private int indexV4(int ip) {
        int key = ip ^ FLIP32;
        int lo = 0;
        int hi = v4Start.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (v4Start[mid] <= key) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found >= 0 && key <= v4End[found] ? found : -1;
    }

    private int indexV6(long hi, long lo) {
        long kh = hi ^ FLIP64;
        long kl = lo ^ FLIP64;
        int a = 0;
        int b = v6StartHi.length - 1;
        int found = -1;
        while (a <= b) {
            int mid = (a + b) >>> 1;
            if (v6StartHi[mid] < kh || (v6StartHi[mid] == kh && v6StartLo[mid] <= kl)) {
                found = mid;
                a = mid + 1;
            } else {
                b = mid - 1;
            }
        }
        if (found < 0) {
            return -1;
        }
        boolean inside = kh < v6EndHi[found] || (kh == v6EndHi[found] && kl <= v6EndLo[found]);
        return inside ? found : -1;
    }

    /** Number of IPv4 ranges. */
    public int ipv4Ranges() {
        return v4Start.length;
    }

    /** Number of IPv6 ranges. */
    public int ipv6Ranges() {
        return v6StartHi.length;
    }

    /** All ranges. */
    public int size() {
        return v4Start.length + v6StartHi.length;
    }

    @Override
    public String toString() {
        return "AsnDatabase[" + ipv4Ranges() + " IPv4 ranges, " + ipv6Ranges() + " IPv6 ranges, " + orgs.length
                + " organizations]";
    }

    static int flip(int v) {
        return v ^ FLIP32;
    }

    static long flip(long v) {
        return v ^ FLIP64;
    }
}
