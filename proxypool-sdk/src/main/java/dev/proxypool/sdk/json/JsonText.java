package dev.proxypool.sdk.json;

/** JSON string literals for the few places that write JSON by hand (echo bodies, error bodies). */
public final class JsonText {

    private JsonText() {
    }

    /** Appends {@code s} as a JSON string literal, escaping quotes, backslashes and control characters. */
    public static StringBuilder quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7F) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"');
    }

    /** {@code s} as a JSON string literal. */
    public static String quote(String s) {
        return quote(new StringBuilder(s.length() + 2), s).toString();
    }
}
