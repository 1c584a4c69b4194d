package dev.proxypool.sdk.provider;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * One fetch request to an adapter: which upstream asks, with what params, and how long the whole
 * fetch may take (connect, headers, body and parsing together).
 *
 * <p>Params fill {@code {name}} placeholders of URL templates (URL-encoded); {@code protocol}
 * becomes the default protocol of records without one; the label keys in {@link #LABEL_PARAMS}
 * become labels of every record that does not carry that label itself.
 *
 * @param upstream the upstream's name; becomes {@link dev.proxypool.core.model.Proxy#upstream()}
 * @param params   the upstream's params ({@code country: US}, {@code count: 50}, ...)
 * @param timeout  the whole fetch's deadline, positive
 */
public record FetchContext(String upstream, Map<String, String> params, Duration timeout) {

    /** Params that name label keys and so become labels: {@code country region city carrier isp type owner}. */
    public static final Set<String> LABEL_PARAMS =
            Set.of("country", "region", "city", "carrier", "isp", "type", "owner");

    /** Default whole-fetch deadline. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Copies the params and validates.
     *
     * @throws IllegalArgumentException for a blank upstream name or a timeout that is not positive
     */
    public FetchContext {
        if (upstream == null || upstream.isBlank()) {
            throw new IllegalArgumentException("fetch context: upstream name is missing");
        }
        params = params == null ? Map.of() : Map.copyOf(params);
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(
                    "upstreams[" + upstream + "]: fetch timeout must be positive, got " + timeout);
        }
    }

    /**
     * A context with the {@link #DEFAULT_TIMEOUT}.
     *
     * @param upstream the upstream name
     * @param params   the upstream's params
     * @return the context
     */
    public static FetchContext of(String upstream, Map<String, String> params) {
        return new FetchContext(upstream, params, DEFAULT_TIMEOUT);
    }
}
