package dev.proxypool.server.admin;

import dev.proxypool.server.api.BearerToken;
import dev.proxypool.server.persistence.ClientDocs;
import dev.proxypool.server.persistence.ConfigState;
import java.util.Objects;
import java.util.Optional;

/**
 * Client bearer tokens as the admin configuration holds them (SHA-256 only), for the Distribution
 * API's {@code Authorization: Bearer} check: hash the presented token once, compare with every
 * stored hash in constant time. Follows the configuration through {@link #update} (wire it to
 * {@code onConfigChange}); reads never touch the database. Thread-safe.
 */
public final class ClientTokens {

    private volatile ConfigState state;

    public ClientTokens(ConfigState initial) {
        this.state = Objects.requireNonNull(initial, "initial");
    }

    public void update(ConfigState next) {
        this.state = Objects.requireNonNull(next, "next");
    }

    /** Whether any client has a bearer token now. */
    public boolean any() {
        return !state.tokenHashes().isEmpty();
    }

    /** The client named by {@code Authorization: Bearer <token>} ({@link BearerToken#parse}), if any. */
    public Optional<String> clientForBearer(String authorization) {
        return BearerToken.parse(authorization).flatMap(t -> state.clientForTokenHash(ClientDocs.tokenHash(t)));
    }
}
