package dev.proxypool.server.persistence;

import java.time.Instant;
import java.util.Objects;

/**
 * A named operator as the {@link ConfigStore} keeps it: an admin API identity with a role and the
 * SHA-256 digest of its bearer token (never the token).
 *
 * @param name        unique, {@code [A-Za-z0-9._-]{1,64}}; the audit log's actor for its actions
 * @param role        {@code admin} (read-write) or {@code viewer} (read-only)
 * @param tokenDigest SHA-256 of the token, 64 lower-case hex digits
 * @param createdAt   when it was created
 * @param createdBy   the operator who created it
 */
public record StoredOperator(String name, String role, String tokenDigest, Instant createdAt, String createdBy) {

    public StoredOperator {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(createdBy, "createdBy");
        if (tokenDigest == null || !tokenDigest.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("operators[" + name + "]: the token digest must be 64 hex digits");
        }
    }

    @Override
    public String toString() {
        return "StoredOperator[name=" + name + ", role=" + role + ", createdAt=" + createdAt + ", createdBy="
                + createdBy + "]";
    }
}
