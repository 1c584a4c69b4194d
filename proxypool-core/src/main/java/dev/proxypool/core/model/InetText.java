package dev.proxypool.core.model;

/** Canonical text of addresses, so different spellings of one address compare equal. */
public final class InetText {

    private InetText() {}

    /**
     * RFC 5952 text of an IPv6 address given as its 8 16-bit groups: lower-case hex, no leading
     * zeros, the longest run (of two or more) of zero groups written as {@code ::}.
     *
     * @param groups the address's eight groups in order, each 0..0xFFFF
     * @return the canonical text, such as {@code 2001:db8::1}
     * @throws IllegalArgumentException if there are not exactly 8 groups
     */
    public static String ipv6(int[] groups) {
        if (groups.length != 8) {
            throw new IllegalArgumentException("an IPv6 address has 8 groups, got " + groups.length);
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(groups[i]));
        }
        return sb.toString();
    }
}
