package dev.proxypool.core.wire;

/** Character-class checks and comma-list scans of HTTP/1.1 (RFC 9110 §5.6), without regex. */
public final class Tokens {

    private static final boolean[] TCHAR = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
    }

    private Tokens() {}

    /** Is {@code s[from, to)} a non-empty token (tchar only)? */
    public static boolean isToken(String s, int from, int to) {
        if (from >= to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c >= 128 || !TCHAR[c]) {
                return false;
            }
        }
        return true;
    }

    /** A field value may hold visible octets, SP and HTAB, nothing else (no CR, LF or NUL). */
    public static boolean isFieldValue(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 && c != '\t' || c == 0x7f) {
                return false;
            }
        }
        return true;
    }

    /** Does the comma-separated list {@code list} contain {@code token}, case-insensitively? */
    public static boolean contains(String list, String token) {
        return matches(list, token, 1) > 0;
    }

    /** How many elements of the comma-separated list {@code list} equal {@code token}, case-insensitively. */
    public static int count(String list, String token) {
        return matches(list, token, Integer.MAX_VALUE);
    }

    /** The elements of {@code list} equal to {@code token} (OWS around each ignored), counting up to {@code enough}. */
    private static int matches(String list, String token, int enough) {
        int n = list.length();
        int found = 0;
        int i = 0;
        while (i < n && found < enough) {
            int comma = list.indexOf(',', i);
            int end = comma < 0 ? n : comma;
            int s = i;
            int e = end;
            while (s < e && isOws(list.charAt(s))) {
                s++;
            }
            while (e > s && isOws(list.charAt(e - 1))) {
                e--;
            }
            if (e - s == token.length() && list.regionMatches(true, s, token, 0, e - s)) {
                found++;
            }
            i = end + 1;
        }
        return found;
    }

    /** The last element of a comma-separated list, trimmed ("gzip, chunked" gives "chunked"). */
    public static String last(String list) {
        int comma = list.lastIndexOf(',');
        return list.substring(comma + 1).strip();
    }

    /** Optional whitespace: SP or HTAB. */
    public static boolean isOws(char c) {
        return c == ' ' || c == '\t';
    }

    /** Parses a non-negative decimal of at most 18 digits, or returns -1. */
    public static long parseLength(String s) {
        int n = s.length();
        if (n == 0 || n > 18) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
