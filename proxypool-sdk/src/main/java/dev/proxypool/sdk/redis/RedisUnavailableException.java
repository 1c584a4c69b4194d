package dev.proxypool.sdk.redis;

import dev.proxypool.core.extract.StoreUnavailableException;

/**
 * Redis cannot serve now ({@link RedisFailure#unavailable()}). For a plain command it changed
 * nothing; for a script run with {@link RedisAccess#evalDurably} {@link #scriptRun()} says what is
 * known of the script's effect (an extraction's proxies may have left the pool, never twice).
 */
public final class RedisUnavailableException extends StoreUnavailableException {

    /** What is known of a script whose call failed. */
    public enum ScriptRun {
        /** Redis never ran it: no connection, the command was not sent, or an error reply before it ran. */
        NOT_RUN,
        /** Sent, and no reply came back (timeout, connection lost): it may or may not have run. */
        UNKNOWN,
        /** It ran and its reply is known ({@link #reply()}), but its writes were not acknowledged by enough replicas. */
        RAN_NOT_DURABLE
    }

    private final RedisFailure failure;
    private final ScriptRun scriptRun;
    private final transient Object reply;

    RedisUnavailableException(RedisFailure failure, String message, Throwable cause) {
        this(failure, message, cause, ScriptRun.UNKNOWN, null);
    }

    RedisUnavailableException(RedisFailure failure, String message, Throwable cause, ScriptRun run, Object reply) {
        super(message, cause);
        this.failure = failure;
        this.scriptRun = run;
        this.reply = reply;
    }

    /** The same failure with what is known of the script's run. */
    RedisUnavailableException withScriptRun(ScriptRun run, Object scriptReply) {
        RedisUnavailableException e =
                new RedisUnavailableException(failure, getMessage(), getCause(), run, scriptReply);
        e.setStackTrace(getStackTrace());
        return e;
    }

    /** Why: unreachable, timeout, busy, ... */
    public RedisFailure failure() {
        return failure;
    }

    /**
     * What is known of the script's run ({@link RedisAccess#evalDurably}); {@link ScriptRun#UNKNOWN}
     * for any other command.
     */
    public ScriptRun scriptRun() {
        return scriptRun;
    }

    /** The script's reply when it {@link ScriptRun#RAN_NOT_DURABLE ran}, else null. */
    Object reply() {
        return reply;
    }
}
