package dev.proxypool.server.gateway;

import dev.proxypool.core.wire.Http1Parser;
import dev.proxypool.core.wire.Tokens;
import java.util.Arrays;

/**
 * An ordered, mutable list of header fields backed by two parallel arrays; lookup is a linear
 * case-insensitive scan, which beats a map for the 5–30 headers a request carries. Not thread-safe.
 */
final class HeaderFields implements HeaderLookup, Http1Parser.FieldSink {

    private String[] names = new String[16];
    private String[] values = new String[16];
    private int size;

    @Override
    public void add(String name, String value) {
        if (size == names.length) {
            names = Arrays.copyOf(names, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        names[size] = name;
        values[size] = value;
        size++;
    }

    int size() {
        return size;
    }

    String name(int i) {
        return names[i];
    }

    String value(int i) {
        return values[i];
    }

    @Override
    public String first(String name) {
        for (int i = 0; i < size; i++) {
            if (names[i].equalsIgnoreCase(name)) {
                return values[i];
            }
        }
        return null;
    }

    boolean contains(String name) {
        return first(name) != null;
    }

    /** Removes every field with this name. */
    void remove(String name) {
        int w = 0;
        for (int r = 0; r < size; r++) {
            if (!names[r].equalsIgnoreCase(name)) {
                names[w] = names[r];
                values[w] = values[r];
                w++;
            }
        }
        for (int i = w; i < size; i++) {
            names[i] = null;
            values[i] = null;
        }
        size = w;
    }

    /** Does any field with this name list {@code token} (comma-separated, case-insensitive)? */
    boolean hasToken(String name, String token) {
        for (int i = 0; i < size; i++) {
            if (names[i].equalsIgnoreCase(name) && Tokens.contains(values[i], token)) {
                return true;
            }
        }
        return false;
    }

    void clear() {
        Arrays.fill(names, 0, size, null);
        Arrays.fill(values, 0, size, null);
        size = 0;
    }
}
