package dev.proxypool.sdk.redis;

/**
 * The shared store (Redis) cannot be reached or did not answer in time: connection refused or
 * reset, socket timeout, pool exhausted, or a script still busy. Distinct from a rule outcome so
 * the server can answer {@code 503 {"error": "store_unavailable"}} (SPEC §11) and a caller can retry.
 *
 * <p>An extraction that throws this changed nothing, or — when the reply was lost after Redis ran
 * the script — extracted proxies that were never delivered: they have left the pool for good. That
 * is the safe side of "never hand out a proxy twice"; see {@link RedisPoolStore}.
 */
public final class StoreUnavailableException extends RuntimeException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
