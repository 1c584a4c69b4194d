package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.StoreUnavailableException;

/** Redis cannot serve now ({@link RedisFailure#unavailable()}); the command changed nothing. */
public final class RedisUnavailableException extends StoreUnavailableException {

    private final RedisFailure failure;

    RedisUnavailableException(RedisFailure failure, String message, Throwable cause) {
        super(message, cause);
        this.failure = failure;
    }

    /** Why: unreachable, timeout, busy, ... */
    public RedisFailure failure() {
        return failure;
    }
}
