package dev.proxypool.core.model;

/**
 * The network a proxy's traffic exits from, as seen by the echo endpoint and looked up in the local
 * ASN database. {@code asn == 0} means unknown (private address, missing from the database).
 *
 * @param exitIp       the address the echo endpoint saw, or empty when never validated
 * @param asn          autonomous system number, 0 when unknown
 * @param organization AS organization, empty when unknown
 * @param prefix       the routed prefix for diversity (e.g. {@code 203.0.113.0/24}), empty when unknown
 */
public record ExitNetwork(String exitIp, long asn, String organization, String prefix) {

    /** Never validated, or nothing known: every field empty, asn 0. */
    public static final ExitNetwork UNKNOWN = new ExitNetwork("", 0, "", "");

    /**
     * Validates the fields.
     *
     * @throws IllegalArgumentException if a text field is null or the asn is outside 0..2^32-1
     */
    public ExitNetwork {
        if (exitIp == null || organization == null || prefix == null) {
            throw new IllegalArgumentException("exit network fields must not be null (use empty strings)");
        }
        if (asn < 0 || asn > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("asn " + asn + " is out of range 0..4294967295");
        }
    }

    /**
     * Whether the ASN lookup found the exit address, so diversity rules can use it.
     *
     * @return true when {@code asn != 0}
     */
    public boolean isKnown() {
        return asn != 0;
    }
}
