package dev.proxypool.sdk;

/** Base of the SDK's typed failures; the message never carries a proxy address or secret. */
public class ProxyPoolException extends RuntimeException {

    public ProxyPoolException(String message) {
        super(message);
    }

    public ProxyPoolException(String message, Throwable cause) {
        super(message, cause);
    }
}
