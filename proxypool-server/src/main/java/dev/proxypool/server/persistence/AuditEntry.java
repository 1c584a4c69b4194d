package dev.proxypool.server.persistence;

import java.time.Instant;
import java.util.Optional;

/**
 * One stored audit row.
 *
 * @param before JSON text of the entity before the change (secrets masked); empty for a creation
 * @param after  JSON text after the change; empty for a deletion
 */
public record AuditEntry(
        long id,
        Instant at,
        String actor,
        String action,
        String entityType,
        String entityName,
        Optional<String> before,
        Optional<String> after) {}
