package dev.proxypool.sdk.asn;

/** The result of one {@link AsnDatabaseLoader#load}: a verified database, or why not. */
public sealed interface AsnLoadResult {

    /** A fully verified database: checksum matched, every line parsed, fresh. */
    record Loaded(AsnDatabase database, AsnSource source) implements AsnLoadResult {}

    record Failed(AsnLoadError error) implements AsnLoadResult {}
}
