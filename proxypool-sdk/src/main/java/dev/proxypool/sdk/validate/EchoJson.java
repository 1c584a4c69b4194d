package dev.proxypool.sdk.validate;

import dev.proxypool.sdk.json.JsonText;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes and reads the echo body {@code {"ip": "...", "headers": {...}}}. The reader takes untrusted
 * input (whatever a proxy sends back): a strict recursive-descent JSON parser with a nesting limit,
 * that requires a string {@code ip} and a {@code headers} object of strings (or arrays of strings,
 * joined with {@code ", "}) and skips any other top-level member. Not a general JSON library.
 */
final class EchoJson {

    private static final int MAX_DEPTH = 8;

    private EchoJson() {
    }

    /** What an echo endpoint saw: the peer and the headers, looked up case-insensitively. */
    record Echo(String ip, Map<String, String> headers) {

        String header(String name) {
            return headers.get(name);
        }
    }

    static StringBuilder quote(StringBuilder sb, String s) {
        return JsonText.quote(sb, s);
    }

    /**
     * Parses an echo body.
     *
     * @throws IllegalArgumentException when it is not JSON of the echo shape; the message names the
     *         problem, never echoes the input
     */
    static Echo parse(String json) {
        Parser p = new Parser(json);
        Object top = p.value(0);
        p.end();
        if (!(top instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("the echo body is not a JSON object");
        }
        if (!(m.get("ip") instanceof String ip)) {
            throw new IllegalArgumentException("the echo body has no string 'ip'");
        }
        if (!(m.get("headers") instanceof Map<?, ?> raw)) {
            throw new IllegalArgumentException("the echo body has no object 'headers'");
        }
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (Map.Entry<?, ?> e : raw.entrySet()) {
            String value = switch (e.getValue()) {
                case String s -> s;
                case List<?> list when list.stream().allMatch(String.class::isInstance) ->
                        String.join(", ", list.stream().map(String.class::cast).toList());
                default -> throw new IllegalArgumentException("the echo header '" + e.getKey() + "' is not a string");
            };
            headers.merge((String) e.getKey(), value, (a, b) -> a + ", " + b);
        }
        return new Echo(ip, headers);
    }

    private static final class Parser {
        private final String s;
        private int i;

        Parser(String s) {
            this.s = s;
        }

        Object value(int depth) {
            if (depth > MAX_DEPTH) {
                throw error("nesting too deep");
            }
            char c = peek();
            return switch (c) {
                case '{' -> object(depth);
                case '[' -> array(depth);
                case '"' -> string();
                case 't' -> literal("true", Boolean.TRUE);
                case 'f' -> literal("false", Boolean.FALSE);
                case 'n' -> literal("null", null);
                default -> {
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        yield number();
                    }
                    throw error("unexpected character");
                }
            };
        }

        private Map<String, Object> object(int depth) {
            i++; // '{'
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            if (peek() == '}') {
                i++;
                return m;
            }
            while (true) {
                if (peek() != '"') {
                    throw error("expected a member name");
                }
                String key = string();
                expect(':');
                m.put(key, value(depth + 1));
                char c = next();
                if (c == '}') {
                    return m;
                }
                if (c != ',') {
                    throw error("expected ',' or '}'");
                }
            }
        }

        private List<Object> array(int depth) {
            i++; // '['
            List<Object> l = new ArrayList<>();
            if (peek() == ']') {
                i++;
                return l;
            }
            while (true) {
                l.add(value(depth + 1));
                char c = next();
                if (c == ']') {
                    return l;
                }
                if (c != ',') {
                    throw error("expected ',' or ']'");
                }
            }
        }

        private String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (i >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(i++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c < 0x20) {
                    throw error("control character in a string");
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                if (i >= s.length()) {
                    throw error("unterminated escape");
                }
                char e = s.charAt(i++);
                switch (e) {
                    case '"', '\\', '/' -> sb.append(e);
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'u' -> {
                        if (i + 4 > s.length()) {
                            throw error("short \\u escape");
                        }
                        try {
                            sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        } catch (NumberFormatException x) {
                            throw error("bad \\u escape");
                        }
                        i += 4;
                    }
                    default -> throw error("bad escape");
                }
            }
        }

        private Object number() {
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            try {
                return Double.parseDouble(s.substring(start, i));
            } catch (NumberFormatException e) {
                throw error("bad number");
            }
        }

        private Object literal(String word, Object v) {
            if (!s.startsWith(word, i)) {
                throw error("unexpected literal");
            }
            i += word.length();
            return v;
        }

        void end() {
            if (peek() != 0) {
                throw error("trailing characters");
            }
        }

        private char peek() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
            return i < s.length() ? s.charAt(i) : 0;
        }

        private char next() {
            char c = peek();
            i++;
            return c;
        }

        private void expect(char c) {
            if (next() != c) {
                throw error("expected '" + c + "'");
            }
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("the echo body is not JSON of the echo shape (" + what + " at offset "
                    + Math.min(i, s.length()) + ")");
        }
    }
}
