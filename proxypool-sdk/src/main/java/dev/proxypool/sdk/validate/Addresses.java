package dev.proxypool.sdk.validate;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * IP literals found in header values, without DNS: {@code X-Forwarded-For: a, b},
 * {@code Forwarded: for="[2001:db8::1]:4711";proto=http}, {@code X-Real-IP: 192.0.2.1:5050}, an
 * IPv4-mapped IPv6 form, and the like. Values are split on commas, semicolons, {@code =} and
 * white space; each token loses quotes, brackets, an IPv4 port and an IPv6 zone, and counts when it
 * is then an IP literal. Equality is by address ({@link InetAddress#equals}), so textual forms of
 * one address match.
 */
final class Addresses {

    private static final Pattern DOTTED_QUAD = Pattern.compile("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");

    private Addresses() {}

    /** The address of an IP literal (brackets, a zone, or an IPv4 {@code :port} tolerated), or null. */
    static InetAddress literal(String token) {
        String t = token.trim();
        if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
            t = t.substring(1, t.length() - 1);
        }
        if (t.startsWith("[")) {
            int close = t.indexOf(']');
            if (close < 0) {
                return null;
            }
            t = t.substring(1, close);
        } else if (t.indexOf(':') >= 0 && t.indexOf(':') == t.lastIndexOf(':')) {
            t = t.substring(0, t.indexOf(':')); // IPv4 with a port
        }
        int zone = t.indexOf('%');
        if (zone >= 0) {
            t = t.substring(0, zone);
        }
        if (t.isEmpty() || !t.chars().allMatch(c -> c == '.' || c == ':' || Character.digit(c, 16) >= 0)) {
            return null;
        }
        if (t.indexOf(':') < 0 && !DOTTED_QUAD.matcher(t).matches()) {
            return null; // the JDK also reads "1" or "127.1" as IPv4; headers never mean those
        }
        try {
            return InetAddress.ofLiteral(t);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Every IP literal in a header value. */
    static List<InetAddress> in(String value) {
        List<InetAddress> found = new ArrayList<>();
        for (String token : value.split("[\\s,;=]+")) {
            InetAddress a = token.isEmpty() ? null : literal(token);
            if (a != null) {
                found.add(a);
            }
        }
        return found;
    }
}
