package dev.proxypool.sdk.json;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;

/**
 * Finds a key written twice in one JSON object. The JSON parsers we use keep the last value of a
 * repeated key silently, so a body like {@code {"count": 1, "count": 1000}} would mean something
 * else to us than to whoever checked it before us: every reader of a request body runs this after
 * its parser has accepted the text and refuses the body naming the key.
 *
 * <p>A scan of the text, no tree: keys are compared after unescaping (a key spelled with JSON
 * escapes is the same key as spelled plainly). Linear in the input; on malformed input it returns
 * some answer, never an exception (the parser is the judge of syntax).
 */
public final class JsonDuplicateKeys {

    /** Longest path reported; a longer one is cut (it is echoed back in an error message). */
    private static final int MAX_PATH_CHARS = 200;

    private JsonDuplicateKeys() {
    }

    /** {@link #find(CharSequence)} for a body read as bytes (UTF-8). */
    public static String find(byte[] json) {
        return find(new String(json, StandardCharsets.UTF_8));
    }

    /**
     * The path of the first key that repeats within its object ({@code count},
     * {@code filter.country}, {@code items[2].id}), or {@code null} when no key repeats.
     */
    public static String find(CharSequence json) {
        ArrayDeque<Frame> stack = new ArrayDeque<>();
        StringBuilder key = new StringBuilder();
        int i = 0;
        int n = json.length();
        while (i < n) {
            char c = json.charAt(i);
            if (c == '"') {
                key.setLength(0);
                int end = readString(json, i + 1, key);
                if (end < 0) {
                    return null;
                }
                Frame f = stack.peek();
                if (f != null && f.object && f.expectKey) {
                    String k = key.toString();
                    if (!f.keys.add(k)) {
                        return path(stack, k);
                    }
                    f.current = k;
                    f.expectKey = false;
                }
                i = end;
                continue;
            }
            switch (c) {
                case '{' -> stack.push(new Frame(true));
                case '[' -> stack.push(new Frame(false));
                case '}', ']' -> {
                    if (stack.isEmpty()) {
                        return null;
                    }
                    stack.pop();
                }
                case ',' -> {
                    Frame f = stack.peek();
                    if (f != null) {
                        if (f.object) {
                            f.expectKey = true;
                        } else {
                            f.index++;
                        }
                    }
                }
                default -> {
                    // values, colons and whitespace
                }
            }
            i++;
        }
        return null;
    }

    /**
     * The error message for a body whose key at {@code path} repeats, or {@code null} when
     * {@code json} has no repeated key.
     */
    public static String problem(byte[] json) {
        String path = find(json);
        return path == null ? null : "duplicate key '" + path + "' in the request body (each key may appear once)";
    }

    /** Reads a string body from {@code from} (after the opening quote); returns the index after the closing quote, or -1. */
    private static int readString(CharSequence s, int from, StringBuilder out) {
        int n = s.length();
        for (int i = from; i < n; i++) {
            char c = s.charAt(i);
            if (c == '"') {
                return i + 1;
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (++i >= n) {
                return -1;
            }
            char e = s.charAt(i);
            switch (e) {
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (i + 4 >= n) {
                        return -1;
                    }
                    int cp = 0;
                    for (int k = 1; k <= 4; k++) {
                        int d = Character.digit(s.charAt(i + k), 16);
                        if (d < 0) {
                            return -1;
                        }
                        cp = cp * 16 + d;
                    }
                    out.append((char) cp);
                    i += 4;
                }
                default -> out.append(e); // \" \\ \/
            }
        }
        return -1;
    }

    private static String path(ArrayDeque<Frame> stack, String duplicate) {
        StringBuilder p = new StringBuilder();
        Iterator<Frame> outerFirst = stack.descendingIterator();
        while (outerFirst.hasNext()) {
            Frame f = outerFirst.next();
            if (!outerFirst.hasNext()) {
                break; // the object holding the duplicate
            }
            if (f.object) {
                if (!p.isEmpty()) {
                    p.append('.');
                }
                p.append(f.current);
            } else {
                p.append('[').append(f.index).append(']');
            }
        }
        if (!p.isEmpty()) {
            p.append('.');
        }
        p.append(duplicate);
        return p.length() > MAX_PATH_CHARS ? p.substring(0, MAX_PATH_CHARS) + "..." : p.toString();
    }

    private static final class Frame {
        final boolean object;
        final Set<String> keys;
        boolean expectKey;
        String current = "";
        int index;

        Frame(boolean object) {
            this.object = object;
            this.keys = object ? new HashSet<>() : Set.of();
            this.expectKey = object;
        }
    }
}
