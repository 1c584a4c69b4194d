package dev.proxypool.sdk.provider;

import java.time.Duration;
import java.util.Map;

/**
 * One enabled upstream ready to fetch: its provider's adapter, its params, and its whole-fetch
 * timeout.
 *
 * @param upstream upstream name
 * @param provider provider name (for reports when the adapter itself fails)
 * @param adapter  the provider's adapter
 * @param params   the upstream's params
 * @param timeout  whole-fetch deadline, positive
 */
public record UpstreamSource(
        String upstream, String provider, ProviderAdapter adapter, Map<String, String> params, Duration timeout) {

    /**
     * Copies the params and validates.
     *
     * @throws IllegalArgumentException for a missing name or adapter, or a timeout that is not positive
     */
    public UpstreamSource {
        if (upstream == null || upstream.isBlank() || provider == null || provider.isBlank() || adapter == null) {
            throw new IllegalArgumentException(
                    "upstream source needs an upstream name, a provider name and an adapter");
        }
        params = params == null ? Map.of() : Map.copyOf(params);
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("upstreams[" + upstream + "]: timeout must be positive, got " + timeout);
        }
    }

    FetchContext context() {
        return new FetchContext(upstream, params, timeout);
    }
}
