package dev.proxypool.core.model;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * An equality label selector such as {@code type=residential,country=US}: a proxy matches when it
 * carries every required label with exactly that value. The empty selector matches everything.
 *
 * @param required the labels a proxy must carry, key to exact value; trimmed, non-blank, an
 *                 unmodifiable sorted copy
 */
public record LabelSelector(Map<String, String> required) {

    /** The empty selector: matches every proxy. */
    public static final LabelSelector ANY = new LabelSelector(Map.of());

    /**
     * Copies, trims and sorts the required labels.
     *
     * @throws IllegalArgumentException if the map is null, or a key or value is blank
     */
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

    /**
     * A selector from a map, sharing {@link #ANY} for an empty one.
     *
     * @param required key to exact value; not null
     * @return the selector
     * @throws IllegalArgumentException as the constructor does
     */
    public static LabelSelector of(Map<String, String> required) {
        return required.isEmpty() ? ANY : new LabelSelector(required);
    }

    /**
     * Parses {@code k=v[,k=v...]}. Blank input is {@link #ANY}.
     *
     * @param text the selector as users write it (query parameter, config); may be null
     * @return the selector
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

    /**
     * Whether a proxy's labels satisfy the selector.
     *
     * @param labels the proxy's labels; not null
     * @return true if every required key is present with exactly the required value
     */
    public boolean matches(Labels labels) {
        for (Map.Entry<String, String> e : required.entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the selector requires nothing.
     *
     * @return true if it matches every proxy
     */
    public boolean isEmpty() {
        return required.isEmpty();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        required.forEach((k, v) ->
                sb.append(sb.isEmpty() ? "" : ",").append(k).append('=').append(v));
        return sb.toString();
    }
}
