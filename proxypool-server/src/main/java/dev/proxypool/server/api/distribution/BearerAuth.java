package dev.proxypool.server.api.distribution;

import java.util.Optional;

/**
 * Who is calling the Distribution API: maps an {@code Authorization} header value to the name of
 * an authenticated client. The server composition adapts the real access layer to it (client
 * tokens from config, stored as secrets); this package depends on nothing more than this.
 *
 * <p>Implementations must be thread-safe, compare tokens in constant time, and never log the
 * header value; read the token with {@link dev.proxypool.server.api.BearerToken#parse}. An empty
 * answer makes the service respond {@code 401} with {@link dev.proxypool.server.api.BearerToken#CHALLENGE}.
 */
@FunctionalInterface
public interface BearerAuth {

    /**
     * The client that {@code authorizationHeaderValue} authenticates, or empty when the value is
     * malformed, not a bearer token or unknown.
     *
     * @param authorizationHeaderValue the raw header value, e.g. {@code Bearer abc123}; never null
     */
    Optional<String> clientFor(String authorizationHeaderValue);
}
