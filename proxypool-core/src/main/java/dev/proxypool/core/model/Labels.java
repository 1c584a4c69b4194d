package dev.proxypool.core.model;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Free key/value labels of a proxy ({@code country}, {@code region}, {@code city}, {@code carrier},
 * {@code asn}, {@code type}, {@code owner}, ...). Immutable; keys are non-blank, values non-null.
 * Ordered by key so equal label sets print and hash identically.
 */
public record Labels(Map<String, String> values) {

    public static final Labels EMPTY = new Labels(Map.of());

    public Labels {
        if (values == null) {
            throw new IllegalArgumentException("labels must not be null");
        }
        TreeMap<String, String> copy = new TreeMap<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            String key = e.getKey();
            if (key == null || key.isBlank()) {
                throw new IllegalArgumentException("label key must not be empty");
            }
            if (e.getValue() == null) {
                throw new IllegalArgumentException("label '" + key + "' has no value");
            }
            copy.put(key.trim(), e.getValue().trim());
        }
        values = Collections.unmodifiableMap(copy);
    }

    public static Labels of(Map<String, String> values) {
        return values.isEmpty() ? EMPTY : new Labels(values);
    }

    /** Labels from alternating key, value arguments: {@code Labels.of("country", "US", "type", "residential")}. */
    public static Labels of(String... keyValues) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException("labels need key/value pairs, got an odd count: " + keyValues.length);
        }
        TreeMap<String, String> m = new TreeMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return new Labels(m);
    }

    /** The value of {@code key}, or {@code null} when absent (hot-path friendly: no Optional). */
    public String get(String key) {
        return values.get(key);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    public int size() {
        return values.size();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
