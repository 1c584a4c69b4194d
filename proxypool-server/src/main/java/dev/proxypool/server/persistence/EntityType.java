package dev.proxypool.server.persistence;

import java.util.Locale;

/**
 * The four kinds of admin configuration (docs/design.md#configuration-source, K3): each has a config key and admin path
 * ({@link #plural()}: {@code providers}), a table of that name, and a singular name used in audit
 * rows and messages ({@code provider}).
 */
public enum EntityType {
    PROVIDER("providers"),
    UPSTREAM("upstreams"),
    ROUTING("routings"),
    CLIENT("clients");

    private final String plural;

    EntityType(String plural) {
        this.plural = plural;
    }

    /** Config key, admin path segment and table name: {@code providers}. */
    public String plural() {
        return plural;
    }

    /** Audit entity type and message noun: {@code provider}. */
    public String singular() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The config key of one entity: {@code routings[shop]}. */
    public String key(String name) {
        return plural + "[" + name + "]";
    }
}
