package dev.proxypool.server.gateway;

/**
 * Bad input from the client: the wire layer answers {@code status} with {@code X-ProxyPool-Error:
 * reason} and closes the connection. Carries no stack trace: it is flow control, not a bug.
 */
final class WireException extends Exception {

    private final int status;
    private final String reason;

    WireException(int status, String reason, String message) {
        super(message, null, false, false);
        this.status = status;
        this.reason = reason;
    }

    static WireException badRequest(String reason, String message) {
        return new WireException(400, reason, message);
    }

    int status() {
        return status;
    }

    String reason() {
        return reason;
    }
}
