package dev.proxypool.server.admin;

/**
 * An admin request that cannot be carried out, with the HTTP status and error code it is answered
 * with: {@code 400 invalid_request}, {@code 404 not_found}, {@code 409 conflict}. Thrown from
 * inside a store's write transaction it aborts the write.
 */
final class AdminException extends RuntimeException {

    private final int status;
    private final String code;

    private AdminException(int status, String code, String message) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
    }

    static AdminException invalid(String message) {
        return new AdminException(400, "invalid_request", message);
    }

    static AdminException notFound(String message) {
        return new AdminException(404, "not_found", message);
    }

    static AdminException conflict(String message) {
        return new AdminException(409, "conflict", message);
    }

    /** A retryable refusal: {@code 503} with {@code Retry-After} (the service is starting or a dependency is down). */
    static AdminException unavailable(String code, String message) {
        return new AdminException(503, code, message);
    }

    int status() {
        return status;
    }

    String code() {
        return code;
    }
}
