package dev.proxypool.sdk.validate;

import dev.proxypool.sdk.config.ProxyPoolConfig;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * Settings of a {@link Validator}, with the defaults of docs/configuration.md#pipeline. Validated on
 * construction with messages naming the key.
 *
 * @param echoUrl              {@code pipeline.echoUrl}: the project's echo endpoint, {@code http://} or
 *                             {@code https://} (default {@code http://127.0.0.1:9090/v1/echo})
 * @param concurrency          {@code pipeline.validationConcurrency}: worker threads, so candidates in
 *                             flight at once (default 100)
 * @param queueCapacity        candidates waiting for a worker (default twice the concurrency); with the
 *                             workers it bounds the candidates a run holds, whatever the source's size
 * @param timeout              {@code pipeline.validationTimeout}: hard deadline of one candidate (default 8 s)
 * @param extraDirectAddresses IP literals that are also the validator's own (other interfaces, the NAT's
 *                             public address), added to the one learned from the echo endpoint
 */
public record ValidatorSettings(
        URI echoUrl, int concurrency, int queueCapacity, Duration timeout, List<String> extraDirectAddresses) {

    // the keys' defaults and bounds are ProxyPoolConfig.Pipeline's: one definition each
    public static final int DEFAULT_CONCURRENCY = ProxyPoolConfig.Pipeline.DEFAULTS.validationConcurrency();
    public static final Duration DEFAULT_TIMEOUT = ProxyPoolConfig.Pipeline.DEFAULTS.validationTimeout();
    public static final URI DEFAULT_ECHO_URL = URI.create(ProxyPoolConfig.Pipeline.DEFAULTS.echoUrl());
    public static final int MAX_CONCURRENCY = ProxyPoolConfig.Pipeline.MAX_VALIDATION_CONCURRENCY;
    public static final Duration MAX_TIMEOUT = ProxyPoolConfig.Pipeline.MAX_VALIDATION_TIMEOUT;

    public static final ValidatorSettings DEFAULTS = of(DEFAULT_ECHO_URL);

    public ValidatorSettings {
        if (echoUrl == null) {
            throw new IllegalArgumentException("pipeline.echoUrl is missing");
        }
        if (!ProxiedExchange.isTarget(echoUrl)) {
            throw new IllegalArgumentException(
                    "pipeline.echoUrl must be an http:// or https:// URL with a host, got '" + echoUrl + "'");
        }
        if (concurrency < 1 || concurrency > MAX_CONCURRENCY) {
            throw new IllegalArgumentException(
                    "pipeline.validationConcurrency must be 1.." + MAX_CONCURRENCY + ", got " + concurrency);
        }
        if (queueCapacity < 1 || queueCapacity > 1_000_000) {
            throw new IllegalArgumentException("validator queueCapacity must be 1..1000000, got " + queueCapacity);
        }
        if (timeout == null || timeout.toMillis() < 1 || timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new IllegalArgumentException(
                    "pipeline.validationTimeout must be between 1 ms and " + MAX_TIMEOUT + ", got " + timeout);
        }
        extraDirectAddresses = List.copyOf(extraDirectAddresses == null ? List.of() : extraDirectAddresses);
        for (int i = 0; i < extraDirectAddresses.size(); i++) {
            if (Addresses.literal(extraDirectAddresses.get(i)) == null) {
                throw new IllegalArgumentException("validator extraDirectAddresses[" + i
                        + "] must be an IP literal, got '" + extraDirectAddresses.get(i) + "'");
            }
        }
    }

    /** The defaults with this echo endpoint. */
    public static ValidatorSettings of(URI echoUrl) {
        return new ValidatorSettings(echoUrl, DEFAULT_CONCURRENCY, 2 * DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT, List.of());
    }

    /** From the loaded {@code pipeline:} section; the queue holds twice the concurrency. */
    public static ValidatorSettings from(ProxyPoolConfig.Pipeline p) {
        return new ValidatorSettings(
                URI.create(p.echoUrl()),
                p.validationConcurrency(),
                2 * p.validationConcurrency(),
                p.validationTimeout(),
                List.of());
    }

    /**
     * A builder holding {@link #DEFAULTS}.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return DEFAULTS.toBuilder();
    }

    /**
     * A builder holding these settings.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder()
                .echoUrl(echoUrl)
                .concurrency(concurrency)
                .queueCapacity(queueCapacity)
                .timeout(timeout)
                .extraDirectAddresses(extraDirectAddresses);
    }

    /** Builds {@link ValidatorSettings}; {@link #build()} checks them. */
    public static final class Builder {
        private URI echoUrl;
        private int concurrency;
        private int queueCapacity;
        private Duration timeout;
        private List<String> extraDirectAddresses;

        private Builder() {}

        /**
         * @param u {@code pipeline.echoUrl}
         * @return this builder
         */
        public Builder echoUrl(URI u) {
            this.echoUrl = u;
            return this;
        }

        /**
         * @param n {@code pipeline.validationConcurrency}
         * @return this builder
         */
        public Builder concurrency(int n) {
            this.concurrency = n;
            return this;
        }

        /**
         * @param n candidates waiting for a worker
         * @return this builder
         */
        public Builder queueCapacity(int n) {
            this.queueCapacity = n;
            return this;
        }

        /**
         * @param d {@code pipeline.validationTimeout}
         * @return this builder
         */
        public Builder timeout(Duration d) {
            this.timeout = d;
            return this;
        }

        /**
         * @param addresses IP literals that are also the validator's own
         * @return this builder
         */
        public Builder extraDirectAddresses(List<String> addresses) {
            this.extraDirectAddresses = addresses;
            return this;
        }

        /**
         * @return the checked settings
         * @throws IllegalArgumentException naming the key of a bad value
         */
        public ValidatorSettings build() {
            return new ValidatorSettings(echoUrl, concurrency, queueCapacity, timeout, extraDirectAddresses);
        }
    }
}
