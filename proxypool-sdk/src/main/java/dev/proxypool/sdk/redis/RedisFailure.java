package dev.proxypool.sdk.redis;

import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Locale;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisBusyException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * The one classification of Redis failures that every Redis user of the SDK shares (through
 * {@link RedisAccess}). A failure is either <em>unavailable</em> — Redis cannot serve now, the
 * command changed nothing (or, for an extraction, only on the safe side), and the caller reports
 * {@link dev.proxypool.core.extract.StoreUnavailableException} — or a <em>rejection</em> of the
 * command itself, which retrying would not fix ({@link RedisCommandException}).
 *
 * <table>
 *   <caption>Redis replies and client errors by kind</caption>
 *   <tr><th>kind</th><th>from</th><th>unavailable</th></tr>
 *   <tr><td>{@link #UNREACHABLE}</td><td>refused, reset, closed connection; no pooled connection</td><td>yes</td></tr>
 *   <tr><td>{@link #TIMEOUT}</td><td>no reply within the socket timeout</td><td>yes</td></tr>
 *   <tr><td>{@link #BUSY}</td><td>{@code BUSY} (a script runs), {@code LOADING}, {@code MASTERDOWN},
 *       {@code TRYAGAIN}, {@code NOREPLICAS}</td><td>yes</td></tr>
 *   <tr><td>{@link #CLUSTER_DOWN}</td><td>{@code CLUSTERDOWN}: a Redis Cluster without a live master for
 *       a slot, e.g. between a master's death and its replica's promotion (the command did not run)</td><td>yes</td></tr>
 *   <tr><td>{@link #OUT_OF_MEMORY}</td><td>{@code OOM}: Redis refuses a script at its first
 *       memory-growing command only when it has written nothing yet</td><td>yes</td></tr>
 *   <tr><td>{@link #READONLY}</td><td>{@code READONLY}: a replica after a failover</td><td>yes</td></tr>
 *   <tr><td>{@link #NOSCRIPT}</td><td>{@code NOSCRIPT} again right after loading the script</td><td>yes</td></tr>
 *   <tr><td>{@link #WRONG_TYPE}</td><td>{@code WRONGTYPE}: a key holds another type (foreign data under the prefix)</td><td>no</td></tr>
 *   <tr><td>{@link #SCRIPT_ERROR}</td><td>a Lua script failed to compile or run</td><td>no</td></tr>
 *   <tr><td>{@link #AUTH}</td><td>{@code NOAUTH}, {@code WRONGPASS}, {@code NOPERM}</td><td>no</td></tr>
 *   <tr><td>{@link #REJECTED}</td><td>any other error reply, including a script's own error reply</td><td>no</td></tr>
 * </table>
 */
public enum RedisFailure {
    UNREACHABLE(true),
    TIMEOUT(true),
    BUSY(true),
    CLUSTER_DOWN(true),
    OUT_OF_MEMORY(true),
    READONLY(true),
    NOSCRIPT(true),
    WRONG_TYPE(false),
    SCRIPT_ERROR(false),
    AUTH(false),
    REJECTED(false);

    private static final List<String> BUSY_REPLIES = List.of("BUSY", "LOADING", "MASTERDOWN", "TRYAGAIN", "NOREPLICAS");

    private final boolean unavailable;

    RedisFailure(boolean unavailable) {
        this.unavailable = unavailable;
    }

    /** True when Redis cannot serve now (the caller reports the store unavailable), false for a rejected command. */
    public boolean unavailable() {
        return unavailable;
    }

    /** The kind of a Jedis failure. */
    public static RedisFailure of(JedisException e) {
        return switch (e) {
            case JedisNoScriptException n -> NOSCRIPT;
            case JedisBusyException b -> BUSY;
            case JedisAccessControlException a -> AUTH;
            case JedisConnectionException c -> timedOut(c) ? TIMEOUT : UNREACHABLE;
            case JedisDataException d -> ofReply(d.getMessage());
            default -> timedOut(e) ? TIMEOUT : UNREACHABLE; // e.g. no pooled connection free in time
        };
    }

    /** The kind of a Redis error reply (its text, starting with the error code). */
    public static RedisFailure ofReply(String reply) {
        String m = reply == null ? "" : reply;
        String code = m.indexOf(' ') < 0 ? m : m.substring(0, m.indexOf(' '));
        if (BUSY_REPLIES.contains(code)) {
            return BUSY;
        }
        return switch (code) {
            case "CLUSTERDOWN" -> CLUSTER_DOWN; // a failover in progress: the textbook retryable condition
            case "OOM" -> OUT_OF_MEMORY;
            case "READONLY" -> READONLY;
            case "NOSCRIPT" -> NOSCRIPT;
            case "WRONGTYPE" -> WRONG_TYPE;
            case "NOAUTH", "WRONGPASS", "NOPERM" -> AUTH;
            default ->
                m.contains("user_script:")
                                || m.startsWith("ERR Error running script")
                                || m.startsWith("ERR Error compiling script")
                        ? SCRIPT_ERROR
                        : REJECTED;
        };
    }

    private static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
