package dev.proxypool.server.api.distribution;

import dev.proxypool.core.model.Protocol;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One proxy as the {@code 200} response shows it. {@link #toString()} hides the URL: it carries
 * the proxy's password.
 *
 * @param url                 {@code scheme://[user:pass@]host:port}
 * @param expiresAt           empty when the proxy never expires ({@code null} in JSON)
 * @param remainingTtlSeconds whole seconds left at extraction; meaningless when {@code expiresAt} is empty
 */
record HandedOutProxy(
        String id,
        String url,
        Protocol protocol,
        String host,
        int port,
        Map<String, String> labels,
        Optional<Instant> expiresAt,
        long remainingTtlSeconds,
        String storedUrl) {

    /** The same proxy with another URL (the credential-free form kept for idempotent replay). */
    HandedOutProxy withUrl(String other) {
        return new HandedOutProxy(id, other, protocol, host, port, labels, expiresAt, remainingTtlSeconds, storedUrl);
    }

    @Override
    public String toString() {
        return "HandedOutProxy[" + id + "]";
    }
}
