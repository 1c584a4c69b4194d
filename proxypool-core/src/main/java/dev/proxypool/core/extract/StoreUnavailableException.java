package dev.proxypool.core.extract;

/**
 * The shared store cannot be reached or did not answer in time. Part of the {@link PoolStore}
 * contract: an operation that throws this had no effect, or (for extraction) its effect is on the
 * safe side — proxies may have left the pool, never been handed out twice. The server answers
 * {@code 503 store_unavailable}.
 */
public class StoreUnavailableException extends RuntimeException {

    /**
     * An outage described by a message only.
     *
     * @param message what was unreachable; never a secret or an unmasked address
     */
    public StoreUnavailableException(String message) {
        super(message);
    }

    /**
     * An outage caused by a client error.
     *
     * @param message what was unreachable; never a secret or an unmasked address
     * @param cause   the client's exception
     */
    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
