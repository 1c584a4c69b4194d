package dev.proxypool.server.persistence;

/**
 * PostgreSQL cannot be reached (no connection within the pool's timeout, connection lost, server
 * shutting down). Nothing was written. The admin API answers {@code 503 database_unavailable}.
 */
public final class DatabaseUnavailableException extends RuntimeException {

    public DatabaseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
