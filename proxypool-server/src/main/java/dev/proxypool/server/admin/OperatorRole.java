package dev.proxypool.server.admin;

import java.util.Locale;

/** What a named operator may do through the admin API. */
enum OperatorRole {
    /** Everything: reads and writes. */
    ADMIN,
    /** Reads only ({@code GET}); every write answers {@code 403 forbidden}; proxy addresses are always masked. */
    VIEWER;

    /** {@code admin} / {@code viewer}, as the API and the database spell it. */
    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    static OperatorRole parse(String s) {
        return switch (s) {
            case "admin" -> ADMIN;
            case "viewer" -> VIEWER;
            default -> throw new IllegalArgumentException("role must be admin or viewer, got '" + s + "'");
        };
    }
}
