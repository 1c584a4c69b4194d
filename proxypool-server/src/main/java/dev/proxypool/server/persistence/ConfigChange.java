package dev.proxypool.server.persistence;

import java.util.Optional;

/**
 * A committed admin configuration write: the hook ({@code onConfigChange}) gets it to rebuild the
 * routing table and snapshot from {@link #state()}.
 *
 * @param version the configuration version after the write
 * @param before  the entity before (empty for a creation)
 * @param after   the entity after (empty for a deletion)
 * @param state   the whole configuration after the write
 * @param auditId the audit row written with it
 */
public record ConfigChange(
        long version,
        ChangeKind kind,
        EntityType type,
        String name,
        Optional<Entity> before,
        Optional<Entity> after,
        ConfigState state,
        long auditId) {}
