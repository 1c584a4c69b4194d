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
public record Proxy(String id, ProxyKey key, String provider, String upstream, Labels labels,
                    Instant expiresAt, int maxConcurrency, int weight,
                    ExitNetwork exitNetwork, Anonymity anonymity) {

    /** The expiry of a proxy that never expires. */
    public static final Instant NO_EXPIRY = Instant.MAX;

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
            throw new IllegalArgumentException("proxy " + id + ": maxConcurrency must be at least 1, got " + maxConcurrency);
        }
        if (weight < 1) {
            throw new IllegalArgumentException("proxy " + id + ": weight must be at least 1, got " + weight);
        }
        labels = labels == null ? Labels.EMPTY : labels;
        expiresAt = expiresAt == null ? NO_EXPIRY : expiresAt;
        exitNetwork = exitNetwork == null ? ExitNetwork.UNKNOWN : exitNetwork;
        anonymity = anonymity == null ? Anonymity.UNKNOWN : anonymity;
    }

    public Protocol protocol() {
        return key.protocol();
    }

    public String host() {
        return key.host();
    }

    public int port() {
        return key.port();
    }

    public CredentialRef credentialRef() {
        return key.credentialRef();
    }

    public boolean expires() {
        return !NO_EXPIRY.equals(expiresAt);
    }

    /** Time left before {@link #expiresAt()} at {@code now}; negative once expired; very long when it never expires. */
    public Duration remainingTtl(Instant now) {
        return expires() ? Duration.between(now, expiresAt) : Duration.ofSeconds(Long.MAX_VALUE / 4);
    }

    public boolean isExpired(Instant now) {
        return expires() && !now.isBefore(expiresAt);
    }

    /** A builder with the defaults of M1 in docs/design.md#proxy-model (weight 1, max concurrency 10, no expiry). */
    public static Builder builder(ProxyKey key) {
        return new Builder(key);
    }

    public Builder toBuilder() {
        return new Builder(key).id(id).provider(provider).upstream(upstream).labels(labels)
                .expiresAt(expiresAt).maxConcurrency(maxConcurrency).weight(weight)
                .exitNetwork(exitNetwork).anonymity(anonymity);
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

        public Builder id(String id) { this.id = id; return this; }
        public Builder provider(String provider) { this.provider = provider; return this; }
        public Builder upstream(String upstream) { this.upstream = upstream; return this; }
        public Builder labels(Labels labels) { this.labels = labels; return this; }
        public Builder expiresAt(Instant expiresAt) { this.expiresAt = expiresAt; return this; }
        public Builder maxConcurrency(int maxConcurrency) { this.maxConcurrency = maxConcurrency; return this; }
        public Builder weight(int weight) { this.weight = weight; return this; }
        public Builder exitNetwork(ExitNetwork exitNetwork) { this.exitNetwork = exitNetwork; return this; }
        public Builder anonymity(Anonymity anonymity) { this.anonymity = anonymity; return this; }

        public Proxy build() {
            String theId = id != null ? id : ProxyIds.unsalted(key, upstream);
            return new Proxy(theId, key, provider, upstream, labels, expiresAt, maxConcurrency, weight,
                    exitNetwork, anonymity);
        }
    }
}
