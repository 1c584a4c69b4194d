package dev.proxypool.sdk.provider;

import dev.proxypool.core.model.InetText;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Host validation for untrusted records, without DNS: an IPv4 literal, an IPv6 literal (with or
 * without brackets; written back in RFC 5952 form so spellings of one address dedupe), or a DNS
 * name of letters, digits, '-' and '_'.
 */
final class Hosts {

    private static final Pattern LABEL = Pattern.compile("[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?");

    private Hosts() {}

    /** The normalized host, or null when {@code raw} is not a valid host. */
    static String normalize(String raw) {
        String h = raw.trim().toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.isEmpty() || h.length() > 253) {
            return null;
        }
        if (h.indexOf(':') >= 0) {
            return ipv6(h);
        }
        if (isDottedNumeric(h)) {
            return ipv4(h) ? h : null;
        }
        for (String label : h.split("\\.", -1)) {
            if (!LABEL.matcher(label).matches()) {
                return null;
            }
        }
        return h;
    }

    private static boolean isDottedNumeric(String h) {
        for (int i = 0; i < h.length(); i++) {
            char c = h.charAt(i);
            if (c != '.' && (c < '0' || c > '9')) {
                return false;
            }
        }
        return true;
    }

    private static boolean ipv4(String h) {
        String[] parts = h.split("\\.", -1);
        if (parts.length != 4) {
            return false;
        }
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || Integer.parseInt(p) > 255) {
                return false;
            }
        }
        return true;
    }

    private static String ipv6(String h) {
        if (h.indexOf('%') >= 0) {
            return null; // zone ids mean nothing off this machine
        }
        InetAddress a;
        try {
            a = InetAddress.ofLiteral(h);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (a instanceof Inet4Address) {
            return a.getHostAddress(); // ::ffff:a.b.c.d
        }
        byte[] b = a.getAddress();
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((b[2 * i] & 0xFF) << 8) | (b[2 * i + 1] & 0xFF);
        }
        return rfc5952(groups);
    }

    /** Lower-case hex groups, the longest run (of 2+) of zero groups as {@code ::}. */
    static String rfc5952(int[] groups) {
        return InetText.ipv6(groups);
    }
}
