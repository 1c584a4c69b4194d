package dev.proxypool.server.nodes;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.ProxyKey;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a self-hosted node says about itself when it registers: where it listens and how it may be
 * used. Validated here so a bad advert never reaches the pool; each failure is an
 * {@link IllegalArgumentException} whose message starts with the field name.
 *
 * @param host           the address clients dial (name or IP literal)
 * @param port           1..65535
 * @param protocol       the protocol the node speaks
 * @param labels         free labels for routing selectors ({@code region}, {@code type}, ...)
 * @param maxConcurrency how many requests may use the node at once, 1..{@value #MAX_CONCURRENCY}
 * @param weight         the node's selection weight, 1..{@value #MAX_WEIGHT} (as a configured proxy's)
 * @param metadata       free operator-facing facts about the node (agent version, site, ...), never used for
 *                       routing: at most {@value #MAX_METADATA} entries, keys {@code [A-Za-z0-9._-]{1,64}},
 *                       values at most {@value #MAX_METADATA_VALUE} characters
 */
public record NodeAdvert(
        String host,
        int port,
        Protocol protocol,
        Labels labels,
        int maxConcurrency,
        int weight,
        Map<String, String> metadata) {

    /** Upper bound of {@link #weight()}: a sanity limit. */
    public static final int MAX_WEIGHT = 10_000;

    /** Used when the advert names no {@code weight}. */
    public static final int DEFAULT_WEIGHT = 1;

    /** Most entries {@link #metadata()} may have. */
    public static final int MAX_METADATA = 32;

    /** Longest value of {@link #metadata()}. */
    public static final int MAX_METADATA_VALUE = 256;

    /** Upper bound of {@link #maxConcurrency()}: a sanity limit, not a tuning default. */
    public static final int MAX_CONCURRENCY = 100_000;

    /** Used when the advert names no {@code maxConcurrency}: the same default as a configured proxy. */
    public static final int DEFAULT_MAX_CONCURRENCY = 10;

    public NodeAdvert {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host is missing");
        }
        if (host.length() > 253 || !host.strip().matches("[A-Za-z0-9.:\\[\\]_-]+")) {
            throw new IllegalArgumentException("host '" + host + "' is not a host name or IP address");
        }
        host = host.strip();
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range 1..65535");
        }
        if (protocol == null) {
            throw new IllegalArgumentException("protocol is missing (expected http, https, socks4 or socks5)");
        }
        labels = labels == null ? Labels.EMPTY : labels;
        if (maxConcurrency < 1 || maxConcurrency > MAX_CONCURRENCY) {
            throw new IllegalArgumentException(
                    "maxConcurrency " + maxConcurrency + " is out of range 1.." + MAX_CONCURRENCY);
        }
        if (weight < 1 || weight > MAX_WEIGHT) {
            throw new IllegalArgumentException("weight " + weight + " is out of range 1.." + MAX_WEIGHT);
        }
        metadata = metadata == null ? Map.of() : metadata;
        if (metadata.size() > MAX_METADATA) {
            throw new IllegalArgumentException(
                    "metadata has " + metadata.size() + " entries, at most " + MAX_METADATA + " allowed");
        }
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            if (e.getKey() == null || !e.getKey().matches("[A-Za-z0-9._-]{1,64}")) {
                throw new IllegalArgumentException(
                        "metadata key '" + e.getKey() + "' must be 1 to 64 of A-Z a-z 0-9 . _ -");
            }
            if (e.getValue() == null || e.getValue().length() > MAX_METADATA_VALUE) {
                throw new IllegalArgumentException("metadata." + e.getKey() + " must be a string of at most "
                        + MAX_METADATA_VALUE + " characters");
            }
        }
        metadata = Collections.unmodifiableMap(new TreeMap<>(metadata)); // sorted: stable JSON
    }

    /** An advert with the default weight and no metadata. */
    public NodeAdvert(String host, int port, Protocol protocol, Labels labels, int maxConcurrency) {
        this(host, port, protocol, labels, maxConcurrency, DEFAULT_WEIGHT, Map.of());
    }

    /** This advert with what an update may change: labels, concurrency, weight and metadata (never the address). */
    NodeAdvert with(Labels newLabels, int newMaxConcurrency, int newWeight, Map<String, String> newMetadata) {
        return new NodeAdvert(host, port, protocol, newLabels, newMaxConcurrency, newWeight, newMetadata);
    }

    /** The pool's dedupe identity of this node (nodes carry no upstream credentials). */
    ProxyKey key() {
        try {
            return new ProxyKey(protocol, host, port, CredentialRef.NONE);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("host: " + e.getMessage(), e);
        }
    }
}
