package dev.proxypool.server.nodes;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.ProxyKey;

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
 */
public record NodeAdvert(String host, int port, Protocol protocol, Labels labels, int maxConcurrency) {

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
            throw new IllegalArgumentException("maxConcurrency " + maxConcurrency + " is out of range 1.." + MAX_CONCURRENCY);
        }
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
