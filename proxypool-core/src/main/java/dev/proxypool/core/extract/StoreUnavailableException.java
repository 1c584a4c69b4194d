package dev.proxypool.core.extract;

/**
 * The shared store cannot be reached or did not answer in time. Part of the {@link PoolStore}
 * contract: an operation that throws this had no effect, or (for extraction) its effect is on the
 * safe side — proxies may have left the pool, never been handed out twice. The server answers
 * {@code 503 store_unavailable}.
 */
public class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(String message) {
        super(message);
    }

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
