package dev.proxypool.sdk.coordination;

import dev.proxypool.sdk.redis.RedisAccess;
import dev.proxypool.sdk.redis.RedisScript;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The control-plane lease with a fencing token (docs/runbook.md#standby-control-plane): which of
 * several control-plane processes publishes snapshots. One Redis string
 * {@code <prefix>control:lease = "<token> <holder>"} with a TTL judged by Redis' clock, and a
 * counter {@code <prefix>control:fence} of the tokens issued, both in the slot of the snapshot keys
 * ({@link CoordinationKeys}); every operation is one run of {@code redis/cluster/control_lease.lua}:
 * <ul>
 *   <li>{@link #acquire}: when the lease is free, takes it with a new token ({@code INCR} of the
 *       counter: larger than every token issued before); when this holder holds it, renews it;</li>
 *   <li>{@link #renew}: extends it only for its holder;</li>
 *   <li>{@link #release}: deletes it only for its holder (a successor need not wait for the TTL).</li>
 * </ul>
 * The publish script refuses a token older than the counter ({@code FENCED}): a deposed control
 * plane that still believes it leads (a pause longer than the TTL) writes nothing once a successor
 * took the lease. Thread-safe; one round trip per call.
 */
public final class ControlLeadership implements AutoCloseable {

    static final RedisScript SCRIPT = RedisScript.resource("/redis/cluster/control_lease.lua");

    private final RedisAccess redis;
    private final CoordinationKeys keys;

    private ControlLeadership(RedisAccess redis, CoordinationKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** The lease on {@code redis}'s keys. Single node: connects lazily. */
    public static ControlLeadership open(CoordinationRedis redis) {
        return new ControlLeadership(redis.open("control-lease", 2), redis.keys());
    }

    /**
     * Takes the lease for {@code holder} when it is free (a new token), or renews it when
     * {@code holder} already holds it (its token).
     *
     * @return the token, or 0 when another holder holds the lease
     * @throws dev.proxypool.core.extract.StoreUnavailableException when Redis is unreachable
     */
    public long acquire(String holder, Duration ttl) {
        return run("acquire", holder, ttl);
    }

    /** Extends the lease when {@code holder} holds it. @return its token, or 0 when it does not hold it */
    public long renew(String holder, Duration ttl) {
        return run("renew", holder, ttl);
    }

    /** Frees the lease when {@code holder} holds it. @return true when it did */
    public boolean release(String holder) {
        return run("release", holder, Duration.ofSeconds(1)) == 1;
    }

    /** The current holder and token ({@code "<token> <holder>"}), if any holds the lease. */
    public Optional<String> current() {
        String key = keys.lease();
        return Optional.ofNullable(redis.call(c -> c.get(key)));
    }

    private long run(String op, String holder, Duration ttl) {
        if (holder == null || holder.isEmpty() || holder.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException(
                    "lease holder id must be non-empty without blanks, got '" + holder + "'");
        }
        if (ttl == null || ttl.toMillis() < 1) {
            throw new IllegalArgumentException("lease ttl must be at least 1 ms, got " + ttl);
        }
        Object reply = redis.evalBinary(
                SCRIPT,
                List.of(CoordinationKeys.bytes(keys.lease()), CoordinationKeys.bytes(keys.fence())),
                List.of(bytes(op), bytes(holder), bytes(Long.toString(ttl.toMillis()))));
        return reply instanceof Long n ? n : 0;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        redis.close();
    }
}
