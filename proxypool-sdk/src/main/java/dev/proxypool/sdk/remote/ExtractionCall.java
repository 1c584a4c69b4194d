package dev.proxypool.sdk.remote;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.Fulfillment;
import dev.proxypool.core.model.Protocol;
import java.time.Duration;
import java.util.Optional;

/**
 * One {@code POST /v1/extractions} request: the body's fields plus the optional
 * {@code Idempotency-Key} header. Validated on construction with the server's own limits, so a bad
 * call fails here with a message naming the field instead of as a {@code 400} later.
 *
 * @param count                  1..{@value ExtractionRequest#MAX_COUNT} (the server may allow fewer)
 * @param fulfillment            {@code partial} (default) or {@code allOrNothing}
 * @param filter                 protocol, upstream, labels; country/region/city/carrier are labels
 * @param minRemainingTtlSeconds 0 = any unexpired proxy
 * @param idempotencyKey         1..255 characters without control characters; empty = none
 */
public record ExtractionCall(int count, Fulfillment fulfillment, ExtractionFilter filter, long minRemainingTtlSeconds,
                             Optional<String> idempotencyKey) {

    /** Longest {@code Idempotency-Key} the server accepts. */
    public static final int MAX_IDEMPOTENCY_KEY_LENGTH = 255;

    /**
     * Validates the call with the server's limits.
     *
     * @throws IllegalArgumentException naming the bad field
     */
    public ExtractionCall {
        if (count < 1 || count > ExtractionRequest.MAX_COUNT) {
            throw new IllegalArgumentException("count must be between 1 and " + ExtractionRequest.MAX_COUNT + ", got "
                    + count);
        }
        if (fulfillment == null || filter == null || idempotencyKey == null) {
            throw new IllegalArgumentException("fulfillment, filter and idempotencyKey must not be null");
        }
        if (minRemainingTtlSeconds < 0) {
            throw new IllegalArgumentException("minRemainingTtlSeconds must not be negative, got " + minRemainingTtlSeconds);
        }
        idempotencyKey.ifPresent(ExtractionCall::checkKey);
    }

    /**
     * A call for {@code count} proxies; refine it with the builder.
     *
     * @param count how many proxies
     * @return a new builder
     */
    public static Builder builder(int count) {
        return new Builder(count);
    }

    /**
     * {@code count} proxies, any filter, partial, no idempotency key.
     *
     * @param count how many proxies
     * @return the call
     */
    public static ExtractionCall of(int count) {
        return builder(count).build();
    }

    private static void checkKey(String key) {
        if (key.isEmpty() || key.length() > MAX_IDEMPOTENCY_KEY_LENGTH) {
            throw new IllegalArgumentException("Idempotency-Key must be 1.." + MAX_IDEMPOTENCY_KEY_LENGTH
                    + " characters, got " + key.length());
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isISOControl(c) || c > 0x7E) {
                throw new IllegalArgumentException("Idempotency-Key must be printable ASCII (bad character at index "
                        + i + ")");
            }
        }
    }

    /** Builds a call; filter terms are validated as they are set. Not thread-safe. */
    public static final class Builder {
        private final int count;
        private final ExtractionFilter.Builder filter = ExtractionFilter.builder();
        private Fulfillment fulfillment = Fulfillment.PARTIAL;
        private long minRemainingTtlSeconds;
        private String idempotencyKey;

        private Builder(int count) {
            this.count = count;
        }

        /**
         * Only proxies speaking {@code p}.
         *
         * @param p the protocol
         * @return this builder
         */
        public Builder protocol(Protocol p) {
            filter.protocol(p);
            return this;
        }

        /**
         * Only proxies labelled with this country.
         *
         * @param v the country code, e.g. {@code US}
         * @return this builder
         */
        public Builder country(String v) {
            filter.country(v);
            return this;
        }

        /**
         * Only proxies labelled with this region.
         *
         * @param v the region
         * @return this builder
         */
        public Builder region(String v) {
            filter.region(v);
            return this;
        }

        /**
         * Only proxies labelled with this city.
         *
         * @param v the city
         * @return this builder
         */
        public Builder city(String v) {
            filter.city(v);
            return this;
        }

        /**
         * Only proxies labelled with this carrier.
         *
         * @param v the carrier
         * @return this builder
         */
        public Builder carrier(String v) {
            filter.carrier(v);
            return this;
        }

        /**
         * Only proxies of this upstream.
         *
         * @param v the upstream's name
         * @return this builder
         */
        public Builder upstream(String v) {
            filter.upstream(v);
            return this;
        }

        /**
         * Only proxies carrying the label {@code key=value}.
         *
         * @param key   the label's key
         * @param value the label's value
         * @return this builder
         */
        public Builder label(String key, String value) {
            filter.label(key, value);
            return this;
        }

        /**
         * Partial (the default) or all-or-nothing.
         *
         * @param f the fulfillment
         * @return this builder
         */
        public Builder fulfillment(Fulfillment f) {
            this.fulfillment = f;
            return this;
        }

        /**
         * Exactly {@code count} or nothing ({@code 409 insufficient_proxies}).
         *
         * @return this builder
         */
        public Builder allOrNothing() {
            return fulfillment(Fulfillment.ALL_OR_NOTHING);
        }

        /**
         * Only proxies with at least this much lifetime left; whole seconds, rounded down.
         *
         * @param d the minimum remaining lifetime
         * @return this builder
         */
        public Builder minRemainingTtl(Duration d) {
            if (d == null || d.isNegative()) {
                throw new IllegalArgumentException("minRemainingTtl must not be negative, got " + d);
            }
            this.minRemainingTtlSeconds = d.toSeconds();
            return this;
        }

        /**
         * The same key and body later returns the stored response instead of extracting again.
         *
         * @param key 1..255 printable ASCII characters
         * @return this builder
         */
        public Builder idempotencyKey(String key) {
            this.idempotencyKey = key;
            return this;
        }

        /**
         * The call.
         *
         * @return the call
         * @throws IllegalArgumentException naming the bad field
         */
        public ExtractionCall build() {
            return new ExtractionCall(count, fulfillment, filter.build(), minRemainingTtlSeconds,
                    Optional.ofNullable(idempotencyKey));
        }
    }
}
