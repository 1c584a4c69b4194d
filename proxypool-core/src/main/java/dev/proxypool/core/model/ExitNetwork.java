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

    public static final ExitNetwork UNKNOWN = new ExitNetwork("", 0, "", "");

    public ExitNetwork {
        if (exitIp == null || organization == null || prefix == null) {
            throw new IllegalArgumentException("exit network fields must not be null (use empty strings)");
        }
        if (asn < 0 || asn > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("asn " + asn + " is out of range 0..4294967295");
        }
    }

    public boolean isKnown() {
        return asn != 0;
    }
}
