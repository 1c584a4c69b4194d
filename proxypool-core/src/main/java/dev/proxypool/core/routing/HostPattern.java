package dev.proxypool.core.routing;

/**
 * One compiled {@code match.hosts} entry. Parsing decides the kind once, so a request is matched
 * by plain character comparison: no regex, no lower-casing copy of the host, no allocation.
 *
 * <p>Normalization (both sides): ASCII letters compare case-insensitively (DNS case rules, RFC
 * 4343); one trailing dot and IPv6 brackets are ignored; non-ASCII (IDN) text is compared as
 * given, never converted to punycode.
 */
sealed interface HostPattern {

    /**
     * Does the host in {@code host[from, to)} (already stripped of a trailing dot and brackets)
     * match?
     */
    boolean matches(String host, int from, int to);

    /** {@code shop.example}: the name itself. */
    record Exact(String name) implements HostPattern {
        @Override
        public boolean matches(String host, int from, int to) {
            return to - from == name.length() && regionEquals(host, from, name, 0, name.length());
        }
    }

    /**
     * {@code *.shop.example}: any name strictly below {@code shop.example}, at any depth
     * ({@code a.shop.example}, {@code a.b.shop.example}); NOT the apex {@code shop.example} itself
     * (list it separately to include it). {@code dotSuffix} is {@code .shop.example}.
     */
    record Suffix(String dotSuffix) implements HostPattern {
        @Override
        public boolean matches(String host, int from, int to) {
            int n = dotSuffix.length();
            return to - from > n && regionEquals(host, to - n, dotSuffix, 0, n);
        }
    }

    /**
     * Any other pattern with wildcards: {@code *} matches any run of characters, dots included,
     * and {@code ?} exactly one character ({@code api-*.example}, {@code cdn?.example}, {@code *}).
     * Matched by the classic two-pointer wildcard walk that backtracks only to the last star:
     * O(host × pattern) worst case, linear for the usual one-star patterns.
     */
    record Glob(String glob) implements HostPattern {
        @Override
        public boolean matches(String host, int from, int to) {
            int h = from;
            int p = 0;
            int star = -1;
            int starHost = 0;
            int plen = glob.length();
            while (h < to) {
                char pc = p < plen ? glob.charAt(p) : 0;
                if (p < plen && pc != '*' && (pc == '?' || fold(host.charAt(h)) == pc)) {
                    h++;
                    p++;
                } else if (p < plen && pc == '*') {
                    star = p++;
                    starHost = h;
                } else if (star >= 0) {
                    p = star + 1;
                    h = ++starHost;
                } else {
                    return false;
                }
            }
            while (p < plen && glob.charAt(p) == '*') {
                p++;
            }
            return p == plen;
        }
    }

    /**
     * Compiles one pattern.
     *
     * @param key the config key for messages, e.g. {@code match.hosts[1]}
     * @throws IllegalArgumentException naming {@code key} and the bad pattern
     */
    static HostPattern parse(String pattern, String key) {
        String p = normalize(pattern, key);
        boolean wild = p.indexOf('*') >= 0 || p.indexOf('?') >= 0;
        if (!wild) {
            return new Exact(p);
        }
        if (p.startsWith("*.") && p.indexOf('*', 1) < 0 && p.indexOf('?') < 0) {
            if (p.length() == 2) {
                throw new IllegalArgumentException(key + ": '" + pattern + "' has no domain after '*.'");
            }
            return new Suffix(p.substring(1));
        }
        return new Glob(p);
    }

    /** The canonical text of a pattern or host name: trimmed, ASCII lower case, no trailing dot or brackets. */
    static String normalize(String pattern, String key) {
        if (pattern == null || pattern.isBlank()) {
            throw new IllegalArgumentException(key + ": host pattern must not be empty");
        }
        String p = pattern.trim();
        if (p.equals("*.")) {
            throw new IllegalArgumentException(key + ": '" + pattern + "' has no domain after '*.'");
        }
        if (p.length() > 1 && p.endsWith(".")) {
            p = p.substring(0, p.length() - 1);
        }
        if (p.length() > 2 && p.startsWith("[") && p.endsWith("]")) {
            p = p.substring(1, p.length() - 1);
        }
        StringBuilder sb = new StringBuilder(p.length());
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c <= ' ' || c == '/' || c == '@' || c == ',' || c == '\u007f') {
                throw new IllegalArgumentException(
                        key + ": '" + pattern + "' is not a host pattern" + " (character '" + c + "' at " + i + ")");
            }
            sb.append(fold(c));
        }
        String out = sb.toString();
        if (out.indexOf(':') >= 0 && !isIpv6Like(out)) {
            throw new IllegalArgumentException(
                    key + ": '" + pattern + "' is not a host pattern" + " (a port belongs in match.ports)");
        }
        if (out.isEmpty() || out.equals(".") || out.startsWith(".") || out.contains("..")) {
            throw new IllegalArgumentException(key + ": '" + pattern + "' is not a host pattern"
                    + " (empty label; write '*.example' for subdomains)");
        }
        return out;
    }

    /** Only what an IPv6 literal (or a glob of one) may contain: hex digits, ':', '.', '*', '?'. */
    private static boolean isIpv6Like(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.digit(c, 16) < 0 && c != ':' && c != '.' && c != '*' && c != '?') {
                return false;
            }
        }
        return true;
    }

    /** ASCII-only lower case: DNS names are case-insensitive in ASCII only. */
    static char fold(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    }

    /** {@code host[hFrom, hFrom+n)} equals {@code lower[lFrom, lFrom+n)}, folding ASCII case of the host. */
    static boolean regionEquals(String host, int hFrom, String lower, int lFrom, int n) {
        for (int i = 0; i < n; i++) {
            if (fold(host.charAt(hFrom + i)) != lower.charAt(lFrom + i)) {
                return false;
            }
        }
        return true;
    }
}
