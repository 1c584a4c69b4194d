package dev.proxypool.server.persistence;

import java.util.Locale;

/** What an admin write did to one entity; its lower-case name ends the audit action ({@code routing.create}). */
public enum ChangeKind {
    CREATE,
    UPDATE,
    DELETE;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
