package dev.proxypool.core.snapshot;

import java.util.Arrays;

/**
 * Set algebra on strictly ascending {@code int[]} slot lists, the representation of every snapshot
 * index. Used when a candidate set is first computed, never per pick.
 */
final class SortedSlots {

    static final int[] EMPTY = new int[0];

    private SortedSlots() {}

    /** Slots in both lists. Merges, or gallops by binary search when one list is much shorter. */
    static int[] intersect(int[] a, int[] b) {
        if (a.length > b.length) {
            int[] t = a;
            a = b;
            b = t;
        }
        if (a.length == 0) {
            return EMPTY;
        }
        int[] out = new int[a.length];
        int n = 0;
        if ((long) a.length * 16 < b.length) {
            int from = 0;
            for (int x : a) {
                int at = Arrays.binarySearch(b, from, b.length, x);
                if (at >= 0) {
                    out[n++] = x;
                    from = at + 1;
                } else {
                    from = -at - 1;
                }
                if (from == b.length) {
                    break;
                }
            }
        } else {
            int i = 0;
            int j = 0;
            while (i < a.length && j < b.length) {
                int x = a[i];
                int y = b[j];
                if (x == y) {
                    out[n++] = x;
                    i++;
                    j++;
                } else if (x < y) {
                    i++;
                } else {
                    j++;
                }
            }
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** Slots in any of the lists (the lists may overlap). */
    static int[] union(int[][] lists) {
        int total = 0;
        for (int[] l : lists) {
            total += l.length;
        }
        int[] all = new int[total];
        int at = 0;
        for (int[] l : lists) {
            System.arraycopy(l, 0, all, at, l.length);
            at += l.length;
        }
        Arrays.sort(all);
        int n = 0;
        for (int i = 0; i < all.length; i++) {
            if (n == 0 || all[n - 1] != all[i]) {
                all[n++] = all[i];
            }
        }
        return n == all.length ? all : Arrays.copyOf(all, n);
    }

    /** A growable ascending list used while a snapshot's indices are built. */
    static final class Builder {
        private int[] values = new int[8];
        private int size;

        void add(int slot) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = slot;
        }

        int[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
