package dev.proxypool.sdk.provider;

/**
 * Why one record of a source was dropped. Counted per reason in {@link FetchReport#drops()} under
 * {@link #code()}; a dropped record never stops the rest of the source.
 */
public enum DropReason {
    /** The line or element could not be read at all: bad JSON, a broken CSV line, not an object. */
    MALFORMED_RECORD("malformed_record"),
    /**
     * The record has no host.
     */
    MISSING_HOST("missing_host"),
    /** Not an IPv4/IPv6 literal nor a DNS name. */
    INVALID_HOST("invalid_host"),
    /**
     * The record has no port.
     */
    MISSING_PORT("missing_port"),
    /** Not an integer. */
    INVALID_PORT("invalid_port"),
    /** An integer outside 1..65535. */
    PORT_OUT_OF_RANGE("port_out_of_range"),
    /** No protocol in the record and none configured. */
    MISSING_PROTOCOL("missing_protocol"),
    /**
     * A protocol other than {@code http}, {@code https}, {@code socks4}, {@code socks5}.
     */
    INVALID_PROTOCOL("invalid_protocol"),
    /**
     * A {@code credentialRef} that is not a valid ref name.
     */
    INVALID_CREDENTIAL_REF("invalid_credential_ref"),
    /**
     * No longer produced by the built-in adapters (inline {@code user:pass@} is kept under a derived
     * ref); kept so reports and metrics naming it still parse.
     */
    INLINE_CREDENTIALS_UNSUPPORTED("inline_credentials_unsupported"),
    /** {@code ttlSeconds} not a positive integer (at most ten years). */
    INVALID_TTL("invalid_ttl"),
    /** {@code expiresAt} not epoch seconds/millis nor ISO-8601 with an offset. */
    INVALID_EXPIRES_AT("invalid_expires_at"),
    /** Already expired when fetched. */
    EXPIRED("expired"),
    /** Empty or over-long key, key with characters outside {@code [A-Za-z0-9_.-]}, non-scalar or over-long value. */
    INVALID_LABEL("invalid_label"),
    /**
     * {@code maxConcurrency} not a positive integer in range.
     */
    INVALID_MAX_CONCURRENCY("invalid_max_concurrency"),
    /**
     * {@code weight} not a positive integer in range.
     */
    INVALID_WEIGHT("invalid_weight"),
    /** Same (protocol, host, port, credentialRef) as an earlier record of the same source. */
    DUPLICATE("duplicate");

    private final String code;

    DropReason(String code) {
        this.code = code;
    }

    /**
     * The snake_case reason used in reports and metrics.
     *
     * @return the code, e.g. {@code invalid_port}
     */
    public String code() {
        return code;
    }
}
