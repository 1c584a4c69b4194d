package dev.proxypool.server.access;

import dev.proxypool.core.model.LabelSelector;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Parses the commercial-provider username convention into {@link UsernameOptions}.
 *
 * <h2>Grammar</h2>
 * <pre>
 * username = client *( "-" key "-" value )          ; at most 256 characters
 * client   = a configured client name                ; [A-Za-z0-9][A-Za-z0-9._-]{0,63}
 * key      = "session" / "country" / "region" / "city" / "carrier" / "type"   ; lower-case, each at most once
 * value    = 1*64( ALPHA / DIGIT / "_" / "." )       ; never "-": it is the separator
 * </pre>
 * {@code country} must be two letters and is upper-cased ({@code us} → {@code US}); the other
 * values are kept as written (label matching is exact). A city such as New York is written
 * {@code new_york}.
 *
 * <p><b>Client names containing '-'.</b> A name like {@code team-a} makes the split ambiguous, so
 * the parser is given the configured names and picks the <em>longest</em> one that is the whole
 * username or is followed by {@code -<key>} (a known key). The remainder must then parse
 * completely; there is no fallback to a shorter name, so one username never means two things.
 * Example with clients {@code team} and {@code team-a}: {@code team-a-session-x} is client
 * {@code team-a}, session {@code x}.
 *
 * <p><b>No partial parse.</b> An odd token count, an empty value, an unknown or repeated key, a
 * bad character or an over-long value makes the whole username {@link Malformed}; the gateway
 * answers 407 exactly as for a wrong password, never drops the options it did not understand.
 *
 * <p>Immutable and thread-safe; parsing is O(names + length).
 */
public final class UsernameParser {

    /** Longest accepted username. */
    public static final int MAX_USERNAME_LENGTH = 256;
    /** Longest option value, session ids included. */
    public static final int MAX_VALUE_LENGTH = 64;

    private static final String[] KEYS = {"session", "country", "region", "city", "carrier", "type"};

    /** Configured names, longest first; {@code null} for {@link #anyBase()}. */
    private final String[] names;

    private UsernameParser(String[] names) {
        this.names = names;
    }

    /**
     * A parser for the configured client names.
     *
     * @throws IllegalArgumentException naming a name outside {@code [A-Za-z0-9][A-Za-z0-9._-]{0,63}}
     */
    public static UsernameParser forClients(Collection<String> clientNames) {
        String[] sorted = clientNames.toArray(new String[0]);
        for (String n : sorted) {
            if (!validName(n)) {
                throw new IllegalArgumentException("clients[].name: '" + n
                        + "' is not a valid client name (letters, digits, '.', '_', '-'; at most 64)");
            }
        }
        Arrays.sort(
                sorted, Comparator.comparingInt(String::length).reversed().thenComparing(Comparator.naturalOrder()));
        return new UsernameParser(sorted);
    }

    /**
     * A parser for anonymous access: the base is whatever precedes the first {@code -<key>} token
     * and is not checked against a client list (the caller ignores it); options parse as usual.
     */
    public static UsernameParser anyBase() {
        return new UsernameParser(null);
    }

    /** The outcome of {@link #parse}. */
    public sealed interface Result permits Parsed, UnknownClient, Malformed {}

    /** The username named a client and every option parsed. */
    public record Parsed(UsernameOptions options) implements Result {}

    /** No configured client name is a base of this username. */
    public record UnknownClient() implements Result {}

    /**
     * The options after a known base did not parse.
     *
     * @param reason what is wrong, for logs; never echoes the username
     */
    public record Malformed(String reason) implements Result {}

    private static final UnknownClient UNKNOWN = new UnknownClient();

    public Result parse(String username) {
        if (username == null || username.isEmpty()) {
            return UNKNOWN;
        }
        if (username.length() > MAX_USERNAME_LENGTH) {
            return new Malformed("username longer than " + MAX_USERNAME_LENGTH + " characters");
        }
        int baseEnd = names == null ? firstKeyToken(username) : longestKnownBase(username);
        if (baseEnd < 0) {
            return UNKNOWN;
        }
        String base = username.substring(0, baseEnd);
        if (names == null && !validName(base)) {
            return new Malformed("the name before the options has a bad character");
        }
        if (baseEnd == username.length()) {
            return new Parsed(UsernameOptions.none(base));
        }
        return parseOptions(base, username, baseEnd + 1);
    }

    /** End of the longest configured name that is the whole username or is followed by -key. */
    private int longestKnownBase(String u) {
        for (String n : names) {
            if (u.startsWith(n)
                    && (u.length() == n.length() || u.charAt(n.length()) == '-' && keyAt(u, n.length() + 1))) {
                return n.length();
            }
        }
        return -1;
    }

    /** Index of the '-' that starts the first -key token (after a non-empty base), else the length. */
    private static int firstKeyToken(String u) {
        for (int i = 1; i < u.length(); i++) {
            if (u.charAt(i) == '-' && keyAt(u, i + 1)) {
                return i;
            }
        }
        return u.length();
    }

    /** True when a known key starts at {@code i} and is followed by '-' or the end. */
    private static boolean keyAt(String u, int i) {
        for (String k : KEYS) {
            int end = i + k.length();
            if (u.startsWith(k, i) && (end == u.length() || u.charAt(end) == '-')) {
                return true;
            }
        }
        return false;
    }

    private static Result parseOptions(String base, String u, int from) {
        String session = null;
        TreeMap<String, String> labels = new TreeMap<>();
        int i = from;
        int pair = 1;
        while (i <= u.length()) {
            int keyEnd = u.indexOf('-', i);
            if (keyEnd < 0) {
                return new Malformed("option " + pair + " has a key but no value");
            }
            String key = u.substring(i, keyEnd);
            int valueEnd = u.indexOf('-', keyEnd + 1);
            if (valueEnd < 0) {
                valueEnd = u.length();
            }
            String value = u.substring(keyEnd + 1, valueEnd);
            if (!isKey(key)) {
                return new Malformed("option " + pair
                        + " has an unknown key (known: session, country, region, city, carrier, type)");
            }
            if (value.isEmpty()) {
                return new Malformed("option '" + key + "' has an empty value");
            }
            if (value.length() > MAX_VALUE_LENGTH) {
                return new Malformed("option '" + key + "' is longer than " + MAX_VALUE_LENGTH + " characters");
            }
            if (!validValue(value)) {
                return new Malformed("option '" + key + "' has a character outside [A-Za-z0-9_.]");
            }
            if (key.equals("session")) {
                if (session != null) {
                    return new Malformed("option 'session' given twice");
                }
                session = value;
            } else {
                if (key.equals("country")) {
                    if (value.length() != 2
                            || !Character.isLetter(value.charAt(0))
                            || !Character.isLetter(value.charAt(1))) {
                        return new Malformed("option 'country' must be a two-letter code");
                    }
                    value = value.toUpperCase(Locale.ROOT);
                }
                if (labels.put(key, value) != null) {
                    return new Malformed("option '" + key + "' given twice");
                }
            }
            if (valueEnd == u.length()) {
                break;
            }
            i = valueEnd + 1;
            pair++;
        }
        return new Parsed(new UsernameOptions(base, Optional.ofNullable(session), LabelSelector.of(labels)));
    }

    private static boolean isKey(String key) {
        for (String k : KEYS) {
            if (k.equals(key)) {
                return true;
            }
        }
        return false;
    }

    static boolean validValue(String v) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.')) {
                return false;
            }
        }
        return true;
    }

    static boolean validName(String n) {
        if (n == null || n.isEmpty() || n.length() > 64) {
            return false;
        }
        for (int i = 0; i < n.length(); i++) {
            char c = n.charAt(i);
            boolean alnum = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
            if (!(alnum || i > 0 && (c == '.' || c == '_' || c == '-'))) {
                return false;
            }
        }
        return true;
    }
}
