package dev.proxypool.core.model;

import java.time.Duration;
import java.time.Instant;

/**
 * A normalized proxy: what the core knows of one upstream proxy. Vendor fields never reach here.
 * Immutable; runtime facts (health, in-flight, latency EWMA) live in
 * {@link dev.proxypool.core.runtime.ProxyRuntime}, not in this record.
 *
 * @param id             opaque, stable id (never the address): see {@link ProxyIds}
 * @param key            dedupe identity: protocol, host, port, credentialRef
 * @param provider       the provider (source) that listed it
 * @param upstream       the configured upstream it was fetched for
 * @param labels         free labels (country, region, carrier, type, ...)
 * @param expiresAt      wall-clock expiry from the provider; {@link #NO_EXPIRY} when it never expires
 * @param maxConcurrency how many requests/tunnels may use it at once, at least 1
 * @param weight         selection weight, at least 1
 * @param exitNetwork    observed exit network, {@link ExitNetwork#UNKNOWN} when not validated
 * @param anonymity      validated anonymity level
 */
public record Proxy(
        String id,
        ProxyKey key,
        String provider,
        String upstream,
        Labels labels,
        Instant expiresAt,
        int maxConcurrency,
        int weight,
        ExitNetwork exitNetwork,
        Anonymity anonymity) {

    /** The expiry of a proxy that never expires. */
    public static final Instant NO_EXPIRY = Instant.MAX;

    /**
     * Validates and normalizes: null labels, expiry, exit network and anonymity become their
     * "none/unknown" values.
     *
     * @throws IllegalArgumentException if id, key, provider or upstream is missing, or
     *     maxConcurrency or weight is below 1; the message names the proxy id
     */
    public Proxy {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("proxy id is missing");
        }
        if (key == null) {
            throw new IllegalArgumentException("proxy " + id + ": key is missing");
        }
        if (provider == null || provider.isBlank()) {
            throw new IllegalArgumentException("proxy " + id + ": provider is missing");
        }
        if (upstream == null || upstream.isBlank()) {
            throw new IllegalArgumentException("proxy " + id + ": upstream is missing");
        }
        if (maxConcurrency < 1) {
            throw new IllegalArgumentException(
                    "proxy " + id + ": maxConcurrency must be at least 1, got " + maxConcurrency);
        }
        if (weight < 1) {
            throw new IllegalArgumentException("proxy " + id + ": weight must be at least 1, got " + weight);
        }
        labels = labels == null ? Labels.EMPTY : labels;
        expiresAt = expiresAt == null ? NO_EXPIRY : expiresAt;
        exitNetwork = exitNetwork == null ? ExitNetwork.UNKNOWN : exitNetwork;
        anonymity = anonymity == null ? Anonymity.UNKNOWN : anonymity;
    }

    /**
     * The protocol spoken to the proxy, from {@link #key()}.
     *
     * @return never null
     */
    public Protocol protocol() {
        return key.protocol();
    }

    /**
     * The proxy's host, lower case, IPv6 without brackets. Unmasked: mask it with
     * {@link AddressMask} before logging.
     *
     * @return the host from {@link #key()}
     */
    public String host() {
        return key.host();
    }

    /**
     * The proxy's port.
     *
     * @return a port in 1..65535
     */
    public int port() {
        return key.port();
    }

    /**
     * The reference to the proxy's credentials (never the secret).
     *
     * @return the ref from {@link #key()}, {@link CredentialRef#NONE} when it needs none
     */
    public CredentialRef credentialRef() {
        return key.credentialRef();
    }

    /**
     * Whether the provider gave an expiry.
     *
     * @return false when {@link #expiresAt()} is {@link #NO_EXPIRY}
     */
    public boolean expires() {
        return !NO_EXPIRY.equals(expiresAt);
    }

    /**
     * Time left before {@link #expiresAt()}.
     *
     * @param now the current wall-clock time
     * @return the time left: negative once expired; about 73 billion years when it never expires
     */
    public Duration remainingTtl(Instant now) {
        return expires() ? Duration.between(now, expiresAt) : Duration.ofSeconds(Long.MAX_VALUE / 4);
    }

    /**
     * Whether the proxy has expired; an expiry instant itself counts as expired.
     *
     * @param now the current wall-clock time
     * @return true once {@code now} is at or after {@link #expiresAt()}; never for a proxy that
     *     never expires
     */
    public boolean isExpired(Instant now) {
        return expires() && !now.isBefore(expiresAt);
    }

    /**
     * A builder with the defaults of M1 in docs/design.md#proxy-model (weight 1, max concurrency 10,
     * no expiry, provider {@code static}, upstream {@code default}).
     *
     * @param key the proxy's dedupe identity; not null
     * @return a new builder
     */
    public static Builder builder(ProxyKey key) {
        return new Builder(key);
    }

    /**
     * A builder holding every field of this proxy, to derive a changed copy.
     *
     * @return a new builder; the id is kept, not re-derived
     */
    public Builder toBuilder() {
        return new Builder(key)
                .id(id)
                .provider(provider)
                .upstream(upstream)
                .labels(labels)
                .expiresAt(expiresAt)
                .maxConcurrency(maxConcurrency)
                .weight(weight)
                .exitNetwork(exitNetwork)
                .anonymity(anonymity);
    }

    @Override
    public String toString() {
        return "Proxy[" + id + " " + key + " upstream=" + upstream + "]";
    }

    /** Fluent builder; {@link #build()} validates. */
    public static final class Builder {
        private final ProxyKey key;
        private String id;
        private String provider = "static";
        private String upstream = "default";
        private Labels labels = Labels.EMPTY;
        private Instant expiresAt = NO_EXPIRY;
        private int maxConcurrency = 10;
        private int weight = 1;
        private ExitNetwork exitNetwork = ExitNetwork.UNKNOWN;
        private Anonymity anonymity = Anonymity.UNKNOWN;

        private Builder(ProxyKey key) {
            this.key = key;
        }

        /**
         * Sets the id. Without one, {@link #build()} derives {@link ProxyIds#unsalted(ProxyKey, String)};
         * servers set {@link ProxyIds#opaque(ProxyKey, String, byte[])}.
         *
         * @param id the opaque id, non-blank
         * @return this builder
         */
        public Builder id(String id) {
            this.id = id;
            return this;
        }
        /**
         * Sets the provider that listed the proxy; defaults to {@code static}.
         *
         * @param provider the provider (source) name, non-blank
         * @return this builder
         */
        public Builder provider(String provider) {
            this.provider = provider;
            return this;
        }
        /**
         * Sets the upstream the proxy was fetched for; defaults to {@code default}.
         *
         * @param upstream the upstream name, non-blank; part of the derived id
         * @return this builder
         */
        public Builder upstream(String upstream) {
            this.upstream = upstream;
            return this;
        }
        /**
         * Sets the labels; defaults to {@link Labels#EMPTY}.
         *
         * @param labels the labels; null means none
         * @return this builder
         */
        public Builder labels(Labels labels) {
            this.labels = labels;
            return this;
        }
        /**
         * Sets the provider's wall-clock expiry; defaults to {@link Proxy#NO_EXPIRY}.
         *
         * @param expiresAt the expiry; null means it never expires
         * @return this builder
         */
        public Builder expiresAt(Instant expiresAt) {
            this.expiresAt = expiresAt;
            return this;
        }
        /**
         * Sets how many requests/tunnels may hold the proxy at once; defaults to 10.
         *
         * @param maxConcurrency at least 1, checked by {@link #build()}
         * @return this builder
         */
        public Builder maxConcurrency(int maxConcurrency) {
            this.maxConcurrency = maxConcurrency;
            return this;
        }
        /**
         * Sets the selection weight; defaults to 1.
         *
         * @param weight at least 1, checked by {@link #build()}
         * @return this builder
         */
        public Builder weight(int weight) {
            this.weight = weight;
            return this;
        }
        /**
         * Sets the observed exit network; defaults to {@link ExitNetwork#UNKNOWN}.
         *
         * @param exitNetwork the exit network; null means unknown
         * @return this builder
         */
        public Builder exitNetwork(ExitNetwork exitNetwork) {
            this.exitNetwork = exitNetwork;
            return this;
        }
        /**
         * Sets the validated anonymity; defaults to {@link Anonymity#UNKNOWN}.
         *
         * @param anonymity the anonymity; null means unknown
         * @return this builder
         */
        public Builder anonymity(Anonymity anonymity) {
            this.anonymity = anonymity;
            return this;
        }

        /**
         * Builds and validates the proxy.
         *
         * @return the proxy; its id is {@link ProxyIds#unsalted(ProxyKey, String)} unless one was set
         * @throws IllegalArgumentException as the {@link Proxy} constructor does
         */
        public Proxy build() {
            String theId = id != null ? id : ProxyIds.unsalted(key, upstream);
            return new Proxy(
                    theId, key, provider, upstream, labels, expiresAt, maxConcurrency, weight, exitNetwork, anonymity);
        }
    }
}
