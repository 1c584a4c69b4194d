package dev.proxypool.server.api;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code Authorization: Bearer <token>} for every REST path family (Distribution, proxy leases,
 * feedback, nodes, admin): the one place the header is read and the one challenge a refusal
 * carries. Whose token it is stays with each caller (client tokens, operators, node credentials);
 * how a token is taken out of the header and how a 401 says so is defined here only.
 *
 * <p>The rule (RFC 9110 §11.6.2, RFC 6750 §2.1): exactly one {@code Authorization} field; its value
 * at most {@value #MAX_HEADER} characters; surrounding whitespace ignored; the scheme
 * {@code Bearer} in any case, then at least one space or tab, then the token with surrounding
 * whitespace removed; an empty token is no token. A refusal is {@code 401} with
 * {@code WWW-Authenticate: }{@value #CHALLENGE}. Never log a header value or a token.
 */
public final class BearerToken {

    /** The one {@code WWW-Authenticate} value of a {@code 401} from the REST API. */
    public static final String CHALLENGE = "Bearer realm=\"proxypool\"";

    /** Longest {@code Authorization} value read; a longer one is no token (nothing is hashed). */
    public static final int MAX_HEADER = 4096;

    private static final String SCHEME = "bearer";

    private BearerToken() {}

    /**
     * The token of one {@code Authorization} value, or empty for null, a value over
     * {@value #MAX_HEADER} characters, another scheme or an empty token.
     */
    public static Optional<String> parse(String authorization) {
        if (authorization == null || authorization.length() > MAX_HEADER) {
            return Optional.empty();
        }
        String v = authorization.strip();
        int n = SCHEME.length();
        if (v.length() <= n
                || !v.substring(0, n).toLowerCase(Locale.ROOT).equals(SCHEME)
                || (v.charAt(n) != ' ' && v.charAt(n) != '\t')) {
            return Optional.empty();
        }
        String token = v.substring(n).strip();
        return token.isEmpty() ? Optional.empty() : Optional.of(token);
    }

    /**
     * The token of a request's {@code Authorization} field: empty when there is none, more than one,
     * or {@link #parse} finds none in it.
     */
    public static Optional<String> of(List<String> authorizationValues) {
        return authorizationValues.size() == 1 ? parse(authorizationValues.getFirst()) : Optional.empty();
    }

    /** The token of {@code req}'s {@code Authorization} field ({@link #of(List)}). */
    public static Optional<String> of(ServerRequest req) {
        return of(req.headers().values(HeaderNames.AUTHORIZATION));
    }

    /**
     * The single {@code Authorization} value of {@code req} when it carries a bearer token, for
     * checks that take the whole value ({@code Bearer <token>}); empty otherwise.
     */
    public static Optional<String> header(ServerRequest req) {
        List<String> values = req.headers().values(HeaderNames.AUTHORIZATION);
        return of(values).map(t -> values.getFirst());
    }

    /** Sets {@code 401} and {@code WWW-Authenticate: }{@value #CHALLENGE}; the caller sends the body. */
    public static void challenge(ServerResponse res) {
        res.status(Status.UNAUTHORIZED_401);
        res.header(HeaderNames.WWW_AUTHENTICATE, CHALLENGE);
    }
}
