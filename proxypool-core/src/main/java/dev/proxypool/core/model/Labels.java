package dev.proxypool.core.model;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Free key/value labels of a proxy ({@code country}, {@code region}, {@code city}, {@code carrier},
 * {@code asn}, {@code type}, {@code owner}, ...). Immutable; keys are non-blank, values non-null.
 * Ordered by key so equal label sets print and hash identically.
 *
 * @param values the labels by key; keys and values are trimmed, the map is an unmodifiable sorted copy
 */
public record Labels(Map<String, String> values) {

    /** No labels. */
    public static final Labels EMPTY = new Labels(Map.of());

    /**
     * Copies, trims and sorts the labels.
     *
     * @throws IllegalArgumentException if the map is null, a key is blank or a value is null
     */
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

    /**
     * Labels from a map, sharing {@link #EMPTY} for an empty one.
     *
     * @param values the labels by key; not null
     * @return the labels
     * @throws IllegalArgumentException as the constructor does
     */
    public static Labels of(Map<String, String> values) {
        return values.isEmpty() ? EMPTY : new Labels(values);
    }

    /**
     * Labels from alternating key, value arguments: {@code Labels.of("country", "US", "type", "residential")}.
     *
     * @param keyValues key, value, key, value, ...; a repeated key keeps its last value
     * @return the labels
     * @throws IllegalArgumentException on an odd count, a blank key or a null value
     */
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

    /**
     * Looks up one label (hot-path friendly: no Optional).
     *
     * @param key the label key, as stored (trimmed)
     * @return the value, or {@code null} when absent
     */
    public String get(String key) {
        return values.get(key);
    }

    /**
     * Whether there are no labels.
     *
     * @return true for {@link #EMPTY} and any equal instance
     */
    public boolean isEmpty() {
        return values.isEmpty();
    }

    /**
     * How many labels there are.
     *
     * @return the count of keys
     */
    public int size() {
        return values.size();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
