package dev.proxypool.sdk.redis;

/**
 * Redis refused a command or a script failed ({@link RedisFailure#unavailable()} false): retrying
 * would not help. {@link #reply()} is Redis' error text, e.g. a script's own error reply.
 */
public final class RedisCommandException extends IllegalStateException {

    private final RedisFailure failure;
    private final String reply;

    RedisCommandException(RedisFailure failure, String message, String reply, Throwable cause) {
        super(message, cause);
        this.failure = failure;
        this.reply = reply == null ? "" : reply;
    }

    /** Why: wrong type, script error, auth, rejected. */
    public RedisFailure failure() {
        return failure;
    }

    /** Redis' error reply as received (starts with its code, e.g. {@code WRONGTYPE}). */
    public String reply() {
        return reply;
    }
}
