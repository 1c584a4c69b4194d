package dev.proxypool.sdk.dial;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;

/**
 * A validated dial target: an IPv4 or IPv6 literal, or a host name left for the proxy to resolve
 * (remote DNS, so the exit network resolves it). Validation keeps CR, LF, spaces and other
 * delimiters out of the {@code CONNECT} line and the SOCKS request. No DNS lookup happens here.
 * Immutable.
 */
public final class Target {

    /** How the host is given. */
    public enum Kind {
        /** An IPv4 literal (also the IPv4-mapped IPv6 form). */
        IPV4,
        /** An IPv6 literal, without brackets or scope. */
        IPV6,
        /** A host name, resolved by the proxy. */
        DOMAIN
    }

    static final int MAX_DOMAIN = 255;

    private final String host;
    private final int port;
    private final Kind kind;
    private final byte[] address;

    private Target(String host, int port, Kind kind, byte[] address) {
        this.host = host;
        this.port = port;
        this.kind = kind;
        this.address = address;
    }

    /**
     * Validates a target.
     *
     * @param host an IPv4 literal, an IPv6 literal (brackets optional), or a host name
     * @param port 1..65535
     * @return the target
     * @throws IllegalArgumentException for an invalid host or port
     */
    public static Target of(String host, int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("target port " + port + " is out of range 1..65535");
        }
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("target host is missing");
        }
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (h.indexOf(':') >= 0) {
            InetAddress a = literal(h);
            if (a instanceof Inet4Address) { // an IPv4-mapped form
                return new Target(a.getHostAddress(), port, Kind.IPV4, a.getAddress());
            }
            return new Target(h, port, Kind.IPV6, a.getAddress());
        }
        if (h.chars().allMatch(c -> (c >= '0' && c <= '9') || c == '.')
                && h.chars().filter(c -> c == '.').count() == 3) {
            InetAddress a = literal(h);
            return new Target(h, port, Kind.IPV4, a.getAddress());
        }
        if (h.length() > MAX_DOMAIN || !h.chars().allMatch(Target::hostChar)) {
            throw new IllegalArgumentException("target host is not a valid host name (letters, digits, '-', '.', '_'; "
                    + "at most " + MAX_DOMAIN + " characters)");
        }
        return new Target(h, port, Kind.DOMAIN, h.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The host as validated: an IPv6 literal without brackets.
     *
     * @return the host
     */
    public String host() {
        return host;
    }

    /**
     * The port.
     *
     * @return 1..65535
     */
    public int port() {
        return port;
    }

    /**
     * How the host is given.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }

    /** The address bytes (4 or 16) or the name's ASCII bytes; shared, never modified. */
    byte[] address() {
        return address;
    }

    /**
     * {@code host:port} for a CONNECT line, IPv6 in brackets.
     *
     * @return the authority
     */
    public String authority() {
        return (kind == Kind.IPV6 ? "[" + host + "]" : host) + ":" + port;
    }

    private static InetAddress literal(String h) {
        try {
            InetAddress a = InetAddress.ofLiteral(h);
            if (a instanceof Inet6Address i6 && i6.getScopeId() != 0) {
                throw new IllegalArgumentException("target host must not carry an IPv6 scope");
            }
            return a;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("target host is not a valid IP literal");
        }
    }

    private static boolean hostChar(int c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '-'
                || c == '.'
                || c == '_';
    }

    @Override
    public String toString() {
        return "Target[" + kind + "]";
    }
}
