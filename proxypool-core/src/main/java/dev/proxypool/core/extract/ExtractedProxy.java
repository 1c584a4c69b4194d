package dev.proxypool.core.extract;

import dev.proxypool.core.model.Proxy;
import java.time.Duration;
import java.time.Instant;

/**
 * One proxy handed out by an extraction: the proxy as it was stored, and when it left the pool.
 * Carries no credentials: the server builds the URL from the credential store.
 */
public record ExtractedProxy(Proxy proxy, Instant extractedAt) {

    public ExtractedProxy {
        if (proxy == null || extractedAt == null) {
            throw new IllegalArgumentException("extracted proxy needs a proxy and extractedAt");
        }
    }

    public String id() {
        return proxy.id();
    }

    /** Life left at extraction; very long for a proxy that never expires (see {@link Proxy#remainingTtl}). */
    public Duration remainingTtl() {
        return proxy.remainingTtl(extractedAt);
    }
}
