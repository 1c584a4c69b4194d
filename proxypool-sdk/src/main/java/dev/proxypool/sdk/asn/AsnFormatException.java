package dev.proxypool.sdk.asn;

/** A line of an ASN file that cannot be read; the whole load fails with it. */
final class AsnFormatException extends Exception {

    private final long line;

    AsnFormatException(long line, String message) {
        super("line " + line + ": " + message, null, false, false);
        this.line = line;
    }

    long line() {
        return line;
    }
}
