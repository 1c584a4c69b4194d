package dev.proxypool.core.rank;

import java.util.Arrays;

/**
 * A binary max-heap of (score, candidate index) on two primitive arrays: no boxing, no per-entry
 * objects. Order: higher score first, then lower index, so ties rank in input order.
 */
final class ScoreHeap {

    private double[] keys;
    private int[] ids;
    private int size;

    ScoreHeap(int capacity) {
        keys = new double[Math.max(capacity, 1)];
        ids = new int[Math.max(capacity, 1)];
    }

    static boolean before(double k1, int id1, double k2, int id2) {
        return k1 > k2 || (k1 == k2 && id1 < id2);
    }

    int size() {
        return size;
    }

    double topKey() {
        return keys[0];
    }

    int topId() {
        return ids[0];
    }

    void push(double key, int id) {
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            ids = Arrays.copyOf(ids, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(key, id, keys[parent], ids[parent])) {
                break;
            }
            keys[i] = keys[parent];
            ids[i] = ids[parent];
            i = parent;
        }
        keys[i] = key;
        ids[i] = id;
    }

    /** The id at heap slot {@code k} (0 <= k < size), for visiting every entry in no particular order. */
    int idAt(int k) {
        return ids[k];
    }

    void clear() {
        size = 0;
    }

    /** Removes the top entry. */
    void pop() {
        int last = --size;
        if (last == 0) {
            return;
        }
        double key = keys[last];
        int id = ids[last];
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= last) {
                break;
            }
            if (child + 1 < last && before(keys[child + 1], ids[child + 1], keys[child], ids[child])) {
                child++;
            }
            if (!before(keys[child], ids[child], key, id)) {
                break;
            }
            keys[i] = keys[child];
            ids[i] = ids[child];
            i = child;
        }
        keys[i] = key;
        ids[i] = id;
    }
}
