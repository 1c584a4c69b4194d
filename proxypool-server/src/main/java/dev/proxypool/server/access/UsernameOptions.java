package dev.proxypool.server.access;

import dev.proxypool.core.model.LabelSelector;
import java.util.Optional;

/**
 * What a gateway client asked for through its proxy username, commercial-provider style
 * ({@code alice-session-abc123-country-us}): the configured client it authenticates as, an
 * optional sticky-session id, and label filters. HTTPS clients can set only credentials on a
 * {@code CONNECT}, never inner headers, so this is how they pick a session and an exit country.
 * Parsed by {@link UsernameParser}; the grammar is documented there.
 *
 * @param client    the configured client name (the base of the username)
 * @param sessionId the {@code session} option, 1..64 of {@code [A-Za-z0-9_.]}; empty when absent
 * @param labels    {@code country} (upper-cased ISO 3166 alpha-2), {@code region}, {@code city},
 *                  {@code carrier}, {@code type}; {@link LabelSelector#ANY} when none
 */
public record UsernameOptions(String client, Optional<String> sessionId, LabelSelector labels) {

    public UsernameOptions {
        if (client == null || client.isEmpty()) {
            throw new IllegalArgumentException("username options need a client name");
        }
        if (sessionId == null || labels == null) {
            throw new IllegalArgumentException("username options: sessionId and labels must not be null");
        }
    }

    /** A plain username without options. */
    public static UsernameOptions none(String client) {
        return new UsernameOptions(client, Optional.empty(), LabelSelector.ANY);
    }

    /** True when the username carried no option at all. */
    public boolean isEmpty() {
        return sessionId.isEmpty() && labels.required().isEmpty();
    }

    /** The same options under another client name (anonymous access keeps the options, not the base). */
    public UsernameOptions withClient(String name) {
        return new UsernameOptions(name, sessionId, labels);
    }
}
