package dev.proxypool.core.model;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * An equality label selector such as {@code type=residential,country=US}: a proxy matches when it
 * carries every required label with exactly that value. The empty selector matches everything.
 */
public record LabelSelector(Map<String, String> required) {

    public static final LabelSelector ANY = new LabelSelector(Map.of());

    public LabelSelector {
        if (required == null) {
            throw new IllegalArgumentException("label selector must not be null");
        }
        TreeMap<String, String> copy = new TreeMap<>();
        for (Map.Entry<String, String> e : required.entrySet()) {
            String key = e.getKey();
            if (key == null || key.isBlank()) {
                throw new IllegalArgumentException("label selector has an empty key");
            }
            String value = e.getValue();
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("label selector key '" + key + "' has an empty value");
            }
            copy.put(key.trim(), value.trim());
        }
        required = Collections.unmodifiableMap(copy);
    }

    public static LabelSelector of(Map<String, String> required) {
        return required.isEmpty() ? ANY : new LabelSelector(required);
    }

    /**
     * Parses {@code k=v[,k=v...]}. Blank input is {@link #ANY}.
     *
     * @throws IllegalArgumentException naming the bad term
     */
    public static LabelSelector parse(String text) {
        if (text == null || text.isBlank()) {
            return ANY;
        }
        TreeMap<String, String> m = new TreeMap<>();
        for (String term : text.split(",", -1)) {
            int eq = term.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("label selector term '" + term.trim() + "' is not key=value");
            }
            String key = term.substring(0, eq).trim();
            String value = term.substring(eq + 1).trim();
            if (key.isEmpty()) {
                throw new IllegalArgumentException("label selector term '" + term.trim() + "' has an empty key");
            }
            if (m.put(key, value) != null) {
                throw new IllegalArgumentException("label selector names key '" + key + "' twice");
            }
        }
        return new LabelSelector(m);
    }

    public boolean matches(Labels labels) {
        for (Map.Entry<String, String> e : required.entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    public boolean isEmpty() {
        return required.isEmpty();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        required.forEach((k, v) -> sb.append(sb.isEmpty() ? "" : ",").append(k).append('=').append(v));
        return sb.toString();
    }
}
