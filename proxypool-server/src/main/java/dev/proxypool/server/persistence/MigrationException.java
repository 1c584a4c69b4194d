package dev.proxypool.server.persistence;

/** The schema cannot be brought up to date; start must stop. The message says what and what to do. */
public final class MigrationException extends RuntimeException {

    public MigrationException(String message) {
        super(message);
    }

    public MigrationException(String message, Throwable cause) {
        super(message, cause);
    }
}
