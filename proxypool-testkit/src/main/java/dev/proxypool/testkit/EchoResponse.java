package dev.proxypool.testkit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A parsed echo body, {@code {"ip": "...", "headers": {...}}} (from {@link FakeOrigin}'s
 * {@code /echo} or the product's {@code GET /v1/echo}). The parser accepts exactly that shape:
 * an object whose values are strings or one level of object of strings.
 *
 * @param ip      the address the origin saw
 * @param headers header names as sent, with values
 */
public record EchoResponse(String ip, Map<String, String> headers) {

    public EchoResponse {
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /** The value of a header, case-insensitive; null when absent. */
    public String header(String name) {
        for (Map.Entry<String, String> e : headers.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    /**
     * Parses an echo body.
     *
     * @throws IllegalArgumentException when it is not the echo shape
     */
    public static EchoResponse parse(String json) {
        Parser p = new Parser(json);
        Map<String, Object> top = p.object();
        p.end();
        if (!(top.get("ip") instanceof String ip)) {
            throw new IllegalArgumentException("echo JSON has no string field 'ip': " + json);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        if (top.get("headers") instanceof Map<?, ?> m) {
            m.forEach((k, v) -> {
                if (v instanceof String s) {
                    headers.put((String) k, s);
                }
            });
        } else {
            throw new IllegalArgumentException("echo JSON has no object field 'headers': " + json);
        }
        return new EchoResponse(ip, headers);
    }

    private static final class Parser {
        private final String s;
        private int i;

        Parser(String s) {
            this.s = s;
        }

        Map<String, Object> object() {
            expect('{');
            Map<String, Object> m = new LinkedHashMap<>();
            if (peek() == '}') {
                i++;
                return m;
            }
            while (true) {
                String key = string();
                expect(':');
                m.put(key, peek() == '{' ? object() : string());
                char c = next();
                if (c == '}') {
                    return m;
                }
                if (c != ',') {
                    throw error("expected ',' or '}'");
                }
            }
        }

        String string() {
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
                if (c != '\\') {
                    sb.append(c);
                    continue;
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
                        sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> throw error("bad escape");
                }
            }
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
            return new IllegalArgumentException("not echo JSON (" + what + " at " + i + "): " + s);
        }
    }
}
