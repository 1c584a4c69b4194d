package dev.proxypool.core.security;

/**
 * Why the destination check refused a target. {@link #code()} is the detail that goes with
 * {@code X-ProxyPool-Error: destination_denied} (a fixed, low-cardinality set, safe as a metric tag).
 */
public enum DenyReason {
    /** 127.0.0.0/8, ::1, and IPv6 forms embedding them. */
    LOOPBACK("loopback", true),
    /** 0.0.0.0/8, :: — "this host" on most stacks. */
    UNSPECIFIED("unspecified", false),
    /** RFC 1918, deprecated IPv6 site-local fec0::/10, local-use NAT64 64:ff9b:1::/48. */
    PRIVATE("private", true),
    /** Carrier-grade NAT 100.64.0.0/10 (RFC 6598). */
    CARRIER_GRADE_NAT("carrier_grade_nat", true),
    /** 169.254.0.0/16, fe80::/10. */
    LINK_LOCAL("link_local", true),
    /** Cloud instance metadata: 169.254.169.254 and friends, metadata host names. Never allowed wholesale. */
    METADATA("metadata", false),
    /** 224.0.0.0/4, ff00::/8. */
    MULTICAST("multicast", false),
    /** 255.255.255.255. */
    BROADCAST("broadcast", false),
    /** IPv6 unique-local fc00::/7. */
    UNIQUE_LOCAL("unique_local", true),
    /** Documentation, benchmarking, future-use and other ranges that are never a public destination. */
    RESERVED("reserved", false),
    /**
     * Names only a local resolver answers: single-label names (resolved through search domains),
     * {@code .local}, {@code .internal}, {@code .home.arpa}, {@code .localdomain}, {@code .svc},
     * {@code .intranet}, {@code .lan}. ({@code localhost} names are {@link #LOOPBACK}.)
     */
    LOCAL_NAME("local_name", true),
    /** One of the gateway's own listeners: a request loop. Denied even when allow-listed. */
    OWN_LISTENER("own_listener", false),
    /** {@code CONNECT} to a port outside {@code security.connectPorts}. */
    CONNECT_PORT("connect_port", false),
    /** A host that is neither a valid name nor an unambiguous IP literal, or a bad port. */
    BAD_TARGET("bad_target", false),
    /** {@code direct} only: the name did not resolve. */
    UNRESOLVABLE("unresolvable", false);

    private final String code;
    private final boolean privateScope;

    DenyReason(String code, boolean privateScope) {
        this.code = code;
        this.privateScope = privateScope;
    }

    /**
     * The wire/metric code, e.g. {@code link_local}.
     *
     * @return the lower-case code, the detail a client sees and the metric tag
     */
    public String code() {
        return code;
    }

    /**
     * True for the classes {@code security.allowPrivateDestinations: true} lets through.
     *
     * @return true for private-scope classes (loopback, RFC 1918, ...)
     */
    public boolean privateScope() {
        return privateScope;
    }
}
