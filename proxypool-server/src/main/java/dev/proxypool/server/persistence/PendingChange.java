package dev.proxypool.server.persistence;

import java.util.Objects;

/**
 * What a {@link ConfigEdit} decided: one entity created, updated or deleted, and the whole next
 * state (already validated by the edit). The store writes the difference, the audit row and the
 * new version in one transaction.
 */
public record PendingChange(ChangeKind kind, EntityType type, String name, ConfigState next) {

    public PendingChange {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(next, "next");
    }
}
