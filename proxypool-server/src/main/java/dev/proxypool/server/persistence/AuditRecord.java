package dev.proxypool.server.persistence;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One audit row to write (docs/design.md#configuration-source, K7): who did what to which entity, with the entity before and
 * after. {@code before}/{@code after} must already be free of secrets ({@link Entity#publicDoc()}).
 *
 * @param action {@code <entityType>.<verb>}: {@code routing.create}, {@code proxy.disable}, ...
 */
public record AuditRecord(
        String actor,
        String action,
        String entityType,
        String entityName,
        Optional<Map<String, Object>> before,
        Optional<Map<String, Object>> after) {

    public AuditRecord {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(entityType, "entityType");
        Objects.requireNonNull(entityName, "entityName");
        before = before.map(JsonTree::freeze);
        after = after.map(JsonTree::freeze);
    }

    public static AuditRecord of(
            String actor,
            String action,
            String entityType,
            String entityName,
            Map<String, Object> before,
            Map<String, Object> after) {
        return new AuditRecord(
                actor, action, entityType, entityName, Optional.ofNullable(before), Optional.ofNullable(after));
    }

    /** The audit row of an admin configuration write: public documents, routings with their position. */
    static AuditRecord of(String actor, ConfigState current, PendingChange change) {
        EntityType t = change.type();
        return new AuditRecord(
                actor,
                t.singular() + "." + change.kind().wireName(),
                t.singular(),
                change.name(),
                view(current, t, change.name()),
                view(change.next(), t, change.name()));
    }

    private static Optional<Map<String, Object>> view(ConfigState s, EntityType t, String name) {
        return s.find(t, name).map(e -> {
            Map<String, Object> m = new LinkedHashMap<>(e.publicDoc());
            if (t == EntityType.ROUTING) {
                m.put("position", s.indexOf(t, name));
            }
            return m;
        });
    }
}
