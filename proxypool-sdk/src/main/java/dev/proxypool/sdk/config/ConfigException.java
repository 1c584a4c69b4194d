package dev.proxypool.sdk.config;

/**
 * A bad configuration, refused at start: the message names the key and the problem, on one line
 * (line breaks and other control characters in an echoed value are shown escaped, so a value cannot
 * forge log lines or spill a file's next lines into the message).
 */
public final class ConfigException extends RuntimeException {

    /**
     * The dotted key that is wrong (part of the serialized form).
     */
    private final String key;

    /**
     * A bad value at {@code key}.
     *
     * @param key     the dotted config key, e.g. {@code routings[shop].strategy}
     * @param problem what is wrong with it (no secret)
     */
    public ConfigException(String key, String problem) {
        super(oneLine(key + ": " + problem));
        this.key = oneLine(key);
    }

    /**
     * A bad value at {@code key}, found through {@code cause}.
     *
     * @param key     the dotted config key
     * @param problem what is wrong with it (no secret)
     * @param cause   the underlying failure
     */
    public ConfigException(String key, String problem, Throwable cause) {
        super(oneLine(key + ": " + problem), cause);
        this.key = oneLine(key);
    }

    /**
     * The dotted config key that is wrong, e.g. {@code routings[shop].strategy} (control characters escaped).
     *
     * @return the key
     */
    public String key() {
        return key;
    }

    private static String oneLine(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                if (sb == null) {
                    sb = new StringBuilder(s.length() + 8).append(s, 0, i);
                }
                switch (c) {
                    case '\n' -> sb.append("\\n");
                    case '\r' -> sb.append("\\r");
                    case '\t' -> sb.append("\\t");
                    default -> sb.append(String.format("\\u%04x", (int) c));
                }
            } else if (sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? s : sb.toString();
    }
}
