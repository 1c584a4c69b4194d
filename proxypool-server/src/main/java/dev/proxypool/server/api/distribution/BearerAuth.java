package dev.proxypool.server.api.distribution;

import java.util.Locale;
import java.util.Optional;

/**
 * Who is calling the Distribution API: maps an {@code Authorization} header value to the name of
 * an authenticated client. The server composition adapts the real access layer to it (client
 * tokens from config, stored as secrets); this package depends on nothing more than this.
 *
 * <p>Implementations must be thread-safe, compare tokens in constant time, and never log the
 * header value. An empty answer makes the service respond {@code 401} with
 * {@code WWW-Authenticate: Bearer}.
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

    /**
     * The token of a {@code Bearer <token>} header value (scheme case-insensitive, RFC 6750), or
     * empty for any other scheme or an empty token. A helper for implementations.
     */
    static Optional<String> bearerToken(String authorizationHeaderValue) {
        if (authorizationHeaderValue == null) {
            return Optional.empty();
        }
        String v = authorizationHeaderValue.trim();
        if (v.length() <= 7 || !v.substring(0, 7).toLowerCase(Locale.ROOT).equals("bearer ")) {
            return Optional.empty();
        }
        String token = v.substring(7).trim();
        return token.isEmpty() ? Optional.empty() : Optional.of(token);
    }
}
