package dev.proxypool.sdk;

/** Base of the SDK's typed failures; the message never carries a proxy address or secret. */
public class ProxyPoolException extends RuntimeException {

    /**
     * A failure without an underlying cause.
     *
     * @param message what went wrong (no proxy address, no secret)
     */
    public ProxyPoolException(String message) {
        super(message);
    }

    /**
     * A failure caused by {@code cause}.
     *
     * @param message what went wrong (no proxy address, no secret)
     * @param cause   the underlying failure
     */
    public ProxyPoolException(String message, Throwable cause) {
        super(message, cause);
    }
}
