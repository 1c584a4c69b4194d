package dev.proxypool.core.extract;

import dev.proxypool.core.model.Proxy;
import java.time.Duration;
import java.time.Instant;

/**
 * One proxy handed out by an extraction: the proxy as it was stored, and when it left the pool.
 * Carries no credentials: the server builds the URL from the credential store.
 *
 * @param proxy       the proxy as it was stored when it left the pool
 * @param extractedAt the store call's {@code now} (wall clock)
 */
public record ExtractedProxy(Proxy proxy, Instant extractedAt) {

    /**
     * Checks both parts are present.
     *
     * @throws IllegalArgumentException if either is null
     */
    public ExtractedProxy {
        if (proxy == null || extractedAt == null) {
            throw new IllegalArgumentException("extracted proxy needs a proxy and extractedAt");
        }
    }

    /**
     * The extracted proxy's opaque id.
     *
     * @return {@code proxy().id()}
     */
    public String id() {
        return proxy.id();
    }

    /**
     * Life left at extraction; very long for a proxy that never expires (see {@link Proxy#remainingTtl}).
     *
     * @return the time from {@link #extractedAt()} to the proxy's expiry
     */
    public Duration remainingTtl() {
        return proxy.remainingTtl(extractedAt);
    }
}
