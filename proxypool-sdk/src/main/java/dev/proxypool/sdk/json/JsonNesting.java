package dev.proxypool.sdk.json;

/**
 * How deeply a JSON text nests objects and arrays, counted outside strings, without parsing it.
 * The JSON parsers we use recurse, so every reader of untrusted JSON (feeds, extraction bodies,
 * stored admin documents) checks this first and refuses a text deeper than its limit.
 * Linear in the input, no allocation; malformed input gives some number, never an exception.
 */
public final class JsonNesting {

    private JsonNesting() {
    }

    /** Deepest nesting in {@code json} read as bytes (UTF-8 or any ASCII-compatible encoding). */
    public static int depth(byte[] json) {
        int depth = 0;
        int max = 0;
        boolean inString = false;
        for (int i = 0; i < json.length; i++) {
            byte c = json[i];
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                max = Math.max(max, ++depth);
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return max;
    }

    /** Deepest nesting in {@code json} read as characters. */
    public static int depth(CharSequence json) {
        int depth = 0;
        int max = 0;
        boolean inString = false;
        for (int i = 0, n = json.length(); i < n; i++) {
            char c = json.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                max = Math.max(max, ++depth);
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return max;
    }
}
