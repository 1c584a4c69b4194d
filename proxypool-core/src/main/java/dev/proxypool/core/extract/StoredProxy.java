package dev.proxypool.core.extract;

import dev.proxypool.core.model.Proxy;
import java.time.Instant;
import java.util.Optional;

/**
 * A proxy as a {@link PoolStore} holds it, for inspection.
 *
 * @param proxy     the last published record
 * @param state     available or disabled
 * @param checkedAt the newest health check recorded by {@link PoolStore#markChecked}; empty when never checked
 */
public record StoredProxy(Proxy proxy, ProxyState state, Optional<Instant> checkedAt) {

    /**
     * Checks every part is present.
     *
     * @throws IllegalArgumentException if a part is null
     */
    public StoredProxy {
        if (proxy == null || state == null || checkedAt == null) {
            throw new IllegalArgumentException("stored proxy needs a proxy, a state and a checkedAt (maybe empty)");
        }
    }

    /**
     * The stored proxy's opaque id.
     *
     * @return {@code proxy().id()}
     */
    public String id() {
        return proxy.id();
    }
}
