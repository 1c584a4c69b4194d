package dev.proxypool.server.access;

/**
 * The sticky-session id of one request, from the proxy username ({@code -session-<id>}) and the
 * routing's session header (default {@code X-ProxyPool-Session}). Same character rules for both:
 * 1..64 of {@code [A-Za-z0-9_.]}, so a header cannot smuggle what a username may not.
 *
 * <p>Both given and equal is fine; both given and different is {@link Conflict} (the gateway
 * answers 400 rather than guessing which one the caller meant).
 */
public sealed interface SessionChoice
        permits SessionChoice.None, SessionChoice.Session, SessionChoice.Invalid, SessionChoice.Conflict {

    /** No session requested: normal selection. */
    record None() implements SessionChoice {}

    /** Pin to this session id. */
    record Session(String id) implements SessionChoice {}

    /** The header value breaks the session-id rules. */
    record Invalid() implements SessionChoice {}

    /** The username and the header name different sessions. */
    record Conflict() implements SessionChoice {}

    /**
     * @param options     the request's username options ({@link UsernameOptions#none} for none)
     * @param headerValue the session header's value, or {@code null} when absent
     */
    static SessionChoice of(UsernameOptions options, String headerValue) {
        String header = headerValue == null ? null : headerValue.strip();
        if (header != null && header.isEmpty()) {
            header = null;
        }
        if (header != null
                && (header.length() > UsernameParser.MAX_VALUE_LENGTH || !UsernameParser.validValue(header))) {
            return new Invalid();
        }
        String fromName = options.sessionId().orElse(null);
        if (fromName == null) {
            return header == null ? new None() : new Session(header);
        }
        if (header != null && !header.equals(fromName)) {
            return new Conflict();
        }
        return new Session(fromName);
    }
}
