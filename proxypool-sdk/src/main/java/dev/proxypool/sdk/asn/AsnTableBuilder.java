package dev.proxypool.sdk.asn;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Accumulates ranges into growable primitive arrays, then sorts them by start (when the input was
 * not sorted already), rejects overlaps naming both lines, and freezes an {@link AsnDatabase}.
 * Organizations are interned: a real table has ~80k AS names for ~500k ranges.
 */
final class AsnTableBuilder {

    private int[] v4s = new int[16];
    private int[] v4e = new int[16];
    private int[] v4a = new int[16];
    private int[] v4o = new int[16];
    private long[] v4line = new long[16];
    private int n4;
    private long[] v6sh = new long[16];
    private long[] v6sl = new long[16];
    private long[] v6eh = new long[16];
    private long[] v6el = new long[16];
    private int[] v6a = new int[16];
    private int[] v6o = new int[16];
    private long[] v6line = new long[16];
    private int n6;
    private final Map<String, Integer> orgIndex = new HashMap<>();
    private final List<String> orgs = new ArrayList<>();

    static AsnDatabase empty() {
        try {
            return new AsnTableBuilder().build();
        } catch (AsnFormatException e) {
            throw new AssertionError(e);
        }
    }

    /** Adds {@code start..end} (inclusive, unsigned order checked by the caller). */
    void addV4(int start, int end, long asn, String org, long line) {
        if (n4 == v4s.length) {
            int cap = n4 * 2;
            v4s = Arrays.copyOf(v4s, cap);
            v4e = Arrays.copyOf(v4e, cap);
            v4a = Arrays.copyOf(v4a, cap);
            v4o = Arrays.copyOf(v4o, cap);
            v4line = Arrays.copyOf(v4line, cap);
        }
        v4s[n4] = AsnDatabase.flip(start);
        v4e[n4] = AsnDatabase.flip(end);
        v4a[n4] = (int) asn;
        v4o[n4] = org(org);
        v4line[n4] = line;
        n4++;
    }

    void addV6(long startHi, long startLo, long endHi, long endLo, long asn, String org, long line) {
        if (n6 == v6sh.length) {
            int cap = n6 * 2;
            v6sh = Arrays.copyOf(v6sh, cap);
            v6sl = Arrays.copyOf(v6sl, cap);
            v6eh = Arrays.copyOf(v6eh, cap);
            v6el = Arrays.copyOf(v6el, cap);
            v6a = Arrays.copyOf(v6a, cap);
            v6o = Arrays.copyOf(v6o, cap);
            v6line = Arrays.copyOf(v6line, cap);
        }
        v6sh[n6] = AsnDatabase.flip(startHi);
        v6sl[n6] = AsnDatabase.flip(startLo);
        v6eh[n6] = AsnDatabase.flip(endHi);
        v6el[n6] = AsnDatabase.flip(endLo);
        v6a[n6] = (int) asn;
        v6o[n6] = org(org);
        v6line[n6] = line;
        n6++;
    }

    private int org(String name) {
        Integer i = orgIndex.get(name);
        if (i == null) {
            i = orgs.size();
            orgIndex.put(name, i);
            orgs.add(name);
        }
        return i;
    }

    AsnDatabase build() throws AsnFormatException {
        sortV4();
        sortV6();
        for (int i = 1; i < n4; i++) {
            if (v4s[i] <= v4e[i - 1]) {
                throw overlap(v4line[i], v4line[i - 1]);
            }
        }
        for (int i = 1; i < n6; i++) {
            if (v6sh[i] < v6eh[i - 1] || (v6sh[i] == v6eh[i - 1] && v6sl[i] <= v6el[i - 1])) {
                throw overlap(v6line[i], v6line[i - 1]);
            }
        }
        return new AsnDatabase(
                Arrays.copyOf(v4s, n4),
                Arrays.copyOf(v4e, n4),
                Arrays.copyOf(v4a, n4),
                Arrays.copyOf(v4o, n4),
                Arrays.copyOf(v6sh, n6),
                Arrays.copyOf(v6sl, n6),
                Arrays.copyOf(v6eh, n6),
                Arrays.copyOf(v6el, n6),
                Arrays.copyOf(v6a, n6),
                Arrays.copyOf(v6o, n6),
                orgs.toArray(String[]::new));
    }

    private static AsnFormatException overlap(long line, long other) {
        long later = Math.max(line, other);
        return new AsnFormatException(later, "range overlaps the range on line " + Math.min(line, other));
    }

    private void sortV4() {
        boolean sorted = true;
        for (int i = 1; i < n4 && sorted; i++) {
            sorted = v4s[i - 1] <= v4s[i];
        }
        if (sorted) {
            return;
        }
        long[] keys = new long[n4]; // unsigned start in the high bits, original index in the low 31
        for (int i = 0; i < n4; i++) {
            keys[i] = (Integer.toUnsignedLong(AsnDatabase.flip(v4s[i])) << 31) | i;
        }
        Arrays.sort(keys);
        int[] order = new int[n4];
        for (int i = 0; i < n4; i++) {
            order[i] = (int) (keys[i] & 0x7FFF_FFFF);
        }
        v4s = permute(v4s, order);
        v4e = permute(v4e, order);
        v4a = permute(v4a, order);
        v4o = permute(v4o, order);
        v4line = permute(v4line, order);
    }

    private void sortV6() {
        boolean sorted = true;
        for (int i = 1; i < n6 && sorted; i++) {
            sorted = v6sh[i - 1] < v6sh[i] || (v6sh[i - 1] == v6sh[i] && v6sl[i - 1] <= v6sl[i]);
        }
        if (sorted) {
            return;
        }
        Integer[] boxed = new Integer[n6];
        for (int i = 0; i < n6; i++) {
            boxed[i] = i;
        }
        Arrays.sort(
                boxed, (x, y) -> v6sh[x] != v6sh[y] ? Long.compare(v6sh[x], v6sh[y]) : Long.compare(v6sl[x], v6sl[y]));
        int[] order = new int[n6];
        for (int i = 0; i < n6; i++) {
            order[i] = boxed[i];
        }
        v6sh = permute(v6sh, order);
        v6sl = permute(v6sl, order);
        v6eh = permute(v6eh, order);
        v6el = permute(v6el, order);
        v6a = permute(v6a, order);
        v6o = permute(v6o, order);
        v6line = permute(v6line, order);
    }

    private static int[] permute(int[] a, int[] order) {
        int[] out = new int[order.length];
        for (int i = 0; i < order.length; i++) {
            out[i] = a[order[i]];
        }
        return out;
    }

    private static long[] permute(long[] a, int[] order) {
        long[] out = new long[order.length];
        for (int i = 0; i < order.length; i++) {
            out[i] = a[order[i]];
        }
        return out;
    }
}
