package dev.proxypool.server.api.distribution;

/** A request the service refuses with {@code 400 invalid_request}; the message names the field and is safe to send. */
final class InvalidRequestException extends Exception {

    InvalidRequestException(String message) {
        super(message, null, false, false);
    }
}
