package dev.proxypool.core.model;

/**
 * Masks proxy addresses for logs: an IPv4 address keeps its first two octets
 * ({@code 203.0.x.x}), an IPv6 address its first two groups, a host name its last two labels.
 */
public final class AddressMask {

    private AddressMask() {}

    /**
     * Masks one host for a log line or error message.
     *
     * @param host an IPv4 or IPv6 address (without brackets) or a host name; may be null
     * @return the masked host, such as {@code 203.0.x.x}, {@code 2001:db8:x:x} or
     *     {@code x.example.com}; {@code ?} for null or empty
     */
    public static String mask(String host) {
        if (host == null || host.isEmpty()) {
            return "?";
        }
        if (host.indexOf(':') >= 0) { // IPv6
            String[] groups = host.split(":", -1);
            return (groups.length > 1 ? groups[0] + ":" + groups[1] : groups[0]) + ":x:x";
        }
        String[] parts = host.split("\\.", -1);
        boolean ipv4 = parts.length == 4;
        for (String p : parts) {
            ipv4 &= !p.isEmpty() && p.chars().allMatch(Character::isDigit);
        }
        if (ipv4) {
            return parts[0] + "." + parts[1] + ".x.x";
        }
        return parts.length <= 2
                ? "x." + parts[parts.length - 1]
                : "x." + parts[parts.length - 2] + "." + parts[parts.length - 1];
    }
}
