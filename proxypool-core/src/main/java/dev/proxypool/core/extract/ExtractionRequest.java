package dev.proxypool.core.extract;

import dev.proxypool.core.model.Proxy;
import java.time.Duration;
import java.time.Instant;

/**
 * One extraction call (docs/design.md#extraction, {@code POST /v1/extractions}), validated on construction.
 *
 * <p><b>Gateway reserve.</b> Let {@code total} be the number of proxies in the whole pool that are
 * available (not disabled) and unexpired at {@code now}, whatever the filter. An extraction may
 * take at most {@code allowance = max(0, total - gatewayReserve)} proxies, so the pool never drops
 * below the reserve through extraction. {@code partial} extracts {@code min(count, matching,
 * allowance)}; {@code allOrNothing} extracts {@code count} when {@code min(matching, allowance) >=
 * count}, else nothing. The reserve is global on purpose: the gateway serves every routing from the
 * same pool, and a global count is one O(1) read in any store.
 *
 * @param count           how many proxies, 1..{@value #MAX_COUNT}
 * @param fulfillment     partial or allOrNothing
 * @param filter          protocol, upstream and labels
 * @param minRemainingTtl a proxy must have at least this much life left at {@code now}; zero = any unexpired.
 *                        A proxy that never expires always qualifies
 * @param maxHealthAge    its last health check must be at most this old at {@code now}; zero = no limit.
 *                        A proxy never checked fails any non-zero limit
 * @param gatewayReserve  proxies kept for the gateway (from config), at least 0
 */
public record ExtractionRequest(
        int count,
        Fulfillment fulfillment,
        ExtractionFilter filter,
        Duration minRemainingTtl,
        Duration maxHealthAge,
        int gatewayReserve) {

    /** The most proxies one extraction may ask for. */
    public static final int MAX_COUNT = 1000;

    /**
     * Validates every part.
     *
     * @throws IllegalArgumentException naming the first part that is missing or out of range
     */
    public ExtractionRequest {
        if (count < 1 || count > MAX_COUNT) {
            throw new IllegalArgumentException("count must be between 1 and " + MAX_COUNT + ", got " + count);
        }
        if (fulfillment == null) {
            throw new IllegalArgumentException("fulfillment is missing (expected partial or allOrNothing)");
        }
        if (filter == null) {
            throw new IllegalArgumentException("filter is missing (use ExtractionFilter.ANY)");
        }
        if (minRemainingTtl == null || minRemainingTtl.isNegative()) {
            throw new IllegalArgumentException("minRemainingTtl must not be negative, got " + minRemainingTtl);
        }
        if (maxHealthAge == null || maxHealthAge.isNegative()) {
            throw new IllegalArgumentException("maxHealthAge must not be negative, got " + maxHealthAge);
        }
        if (gatewayReserve < 0) {
            throw new IllegalArgumentException("gatewayReserve must not be negative, got " + gatewayReserve);
        }
    }

    /**
     * The per-proxy rule every store applies to a candidate: the filter, unexpired with at least
     * {@link #minRemainingTtl} left, and checked within {@link #maxHealthAge}. Disabled proxies never
     * reach this test.
     *
     * @param checkedAt the proxy's last health check, or {@code null} when never checked (hot path: no Optional)
     * @param proxy     an available stored proxy
     * @param now       the store call's wall-clock time
     * @return true if the proxy may be extracted by this request
     */
    public boolean admits(Proxy proxy, Instant checkedAt, Instant now) {
        if (!filter.matches(proxy)) {
            return false;
        }
        if (proxy.expires()) {
            Duration left = Duration.between(now, proxy.expiresAt());
            if (left.isNegative() || left.isZero() || left.compareTo(minRemainingTtl) < 0) {
                return false;
            }
        }
        if (!maxHealthAge.isZero()) {
            return checkedAt != null && Duration.between(checkedAt, now).compareTo(maxHealthAge) <= 0;
        }
        return true;
    }

    /**
     * The most this request may extract from a pool of {@code total} available, unexpired proxies.
     *
     * @param total available, unexpired proxies in the whole pool, whatever the filter
     * @return {@code max(0, min(count, total - gatewayReserve))}
     */
    public int maxExtractable(int total) {
        return Math.max(0, Math.min(count, total - gatewayReserve));
    }

    /**
     * A partial request for {@code count} proxies, no filter, no TTL/health limits, no reserve.
     *
     * @param count how many proxies, 1..{@value #MAX_COUNT}, checked by {@link Builder#build()}
     * @return a new builder
     */
    public static Builder builder(int count) {
        return new Builder(count);
    }

    /** Fluent builder; {@link #build()} validates. */
    public static final class Builder {
        private final int count;
        private Fulfillment fulfillment = Fulfillment.PARTIAL;
        private ExtractionFilter filter = ExtractionFilter.ANY;
        private Duration minRemainingTtl = Duration.ZERO;
        private Duration maxHealthAge = Duration.ZERO;
        private int gatewayReserve;

        private Builder(int count) {
            this.count = count;
        }

        /**
         * Sets the fulfillment; defaults to {@link Fulfillment#PARTIAL}.
         *
         * @param f the fulfillment; not null
         * @return this builder
         */
        public Builder fulfillment(Fulfillment f) {
            this.fulfillment = f;
            return this;
        }
        /**
         * Sets {@link Fulfillment#PARTIAL}: take as many as possible.
         *
         * @return this builder
         */
        public Builder partial() {
            return fulfillment(Fulfillment.PARTIAL);
        }
        /**
         * Sets {@link Fulfillment#ALL_OR_NOTHING}: the whole count or nothing.
         *
         * @return this builder
         */
        public Builder allOrNothing() {
            return fulfillment(Fulfillment.ALL_OR_NOTHING);
        }
        /**
         * Sets the filter; defaults to {@link ExtractionFilter#ANY}.
         *
         * @param f the filter; not null
         * @return this builder
         */
        public Builder filter(ExtractionFilter f) {
            this.filter = f;
            return this;
        }
        /**
         * Sets the least life a proxy must have left; defaults to zero (any unexpired).
         *
         * @param d zero or positive
         * @return this builder
         */
        public Builder minRemainingTtl(Duration d) {
            this.minRemainingTtl = d;
            return this;
        }
        /**
         * Sets how recent a proxy's last health check must be; defaults to zero (no limit).
         *
         * @param d zero or positive
         * @return this builder
         */
        public Builder maxHealthAge(Duration d) {
            this.maxHealthAge = d;
            return this;
        }
        /**
         * Sets the proxies kept for the gateway; defaults to 0.
         *
         * @param n at least 0, normally from config
         * @return this builder
         */
        public Builder gatewayReserve(int n) {
            this.gatewayReserve = n;
            return this;
        }

        /**
         * Builds and validates the request.
         *
         * @return the request
         * @throws IllegalArgumentException as the constructor does
         */
        public ExtractionRequest build() {
            return new ExtractionRequest(count, fulfillment, filter, minRemainingTtl, maxHealthAge, gatewayReserve);
        }
    }
}
