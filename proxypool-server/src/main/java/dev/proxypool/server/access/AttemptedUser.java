package dev.proxypool.server.access;

import java.util.Arrays;

/**
 * The username a refused {@code Proxy-Authorization: Basic ...} named, for the request log (a 407
 * for a wrong password and one for no credentials are different incidents). Never the password: it
 * is decoded only to be wiped.
 */
public final class AttemptedUser {

    /** Longer names are cut: the log shows who tried, not an attacker's payload. */
    static final int MAX_LENGTH = 64;

    private AttemptedUser() {}

    /**
     * @param header the {@code Proxy-Authorization} value, or null
     * @return the username it names (printable, at most {@value #MAX_LENGTH} characters), or null when
     *     there was no header or it is not Basic credentials with a username
     */
    public static String of(String header) {
        if (header == null) {
            return null;
        }
        BasicCredentials c = BasicCredentials.parse(header, 4096);
        if (c == null) {
            return null;
        }
        Arrays.fill(c.secret(), '\0');
        StringBuilder out = new StringBuilder(Math.min(MAX_LENGTH, c.username().length()));
        c.username()
                .codePoints()
                .limit(MAX_LENGTH)
                .forEach(cp -> out.appendCodePoint(Character.isISOControl(cp) ? '?' : cp));
        return out.toString();
    }
}
