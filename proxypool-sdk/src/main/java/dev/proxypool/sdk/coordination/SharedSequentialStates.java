package dev.proxypool.sdk.coordination;

import dev.proxypool.core.sequential.SequentialBoard;
import dev.proxypool.core.sequential.SequentialState;
import dev.proxypool.core.sequential.SwitchReason;
import dev.proxypool.core.task.BackgroundTasks;
import dev.proxypool.sdk.redis.RedisAccess;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The sequential routings' positions on the cluster's Redis (docs/design.md#sequential-switching, Q6):
 * one hash, field = routing name, value = its {@link SequentialState}. The control plane that
 * collects writes every change of its board here (so a restarted control plane, or a standby
 * taking over, starts where the routing stood); workers, whose boards are never fed fetch
 * outcomes, {@link #follow follow} it, so they serve from the upstream the routing has reached.
 *
 * <p>Value: {@code pp1 <version> <index> <exhausted 0|1> <consecutiveEmpty> <reason> <changedAt ms> <upstream>}
 * (the upstream last: it is the only free-form part). A value that does not parse is skipped.
 * Thread-safe; {@link #close()} stops following and closes the connection.
 */
public final class SharedSequentialStates implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(SharedSequentialStates.class.getName());

    private final RedisAccess redis;
    private final String key;
    private final BackgroundTasks tasks = BackgroundTasks.of("shared sequential positions");

    private SharedSequentialStates(RedisAccess redis, String key) {
        this.redis = redis;
        this.key = key;
    }

    /** The positions under the store's key prefix ({@code <prefix>sequential}; one slot on a cluster). */
    public static SharedSequentialStates open(CoordinationRedis redis) {
        return new SharedSequentialStates(
                redis.open("sequential", 1), redis.keys().sequential());
    }

    /** The hash's name (for operators and tests). */
    public String key() {
        return key;
    }

    /**
     * Stores {@code states} (one field per routing, the others kept).
     *
     * @throws dev.proxypool.core.extract.StoreUnavailableException when Redis cannot serve now
     */
    public void save(Collection<SequentialState> states) {
        if (states.isEmpty()) {
            return;
        }
        Map<String, String> fields = new HashMap<>();
        for (SequentialState s : states) {
            fields.put(s.routing(), encode(s));
        }
        redis.call(c -> c.hset(key, fields));
    }

    /**
     * Every stored position.
     *
     * @throws dev.proxypool.core.extract.StoreUnavailableException when Redis cannot serve now
     */
    public List<SequentialState> load() {
        Map<String, String> all = redis.call(c -> c.hgetAll(key));
        List<SequentialState> out = new ArrayList<>(all.size());
        all.forEach((routing, value) -> {
            SequentialState s = decode(routing, value);
            if (s != null) {
                out.add(s);
            }
        });
        return out;
    }

    /**
     * Takes the stored positions into {@code board} now and then every {@code every} on a virtual
     * thread, until {@link #close()}. Redis down: the board keeps the position it has.
     */
    public void follow(SequentialBoard board, Duration every) {
        follow(board, every, () -> true);
    }

    /**
     * As {@link #follow(SequentialBoard, Duration)}, each turn only while {@code when} holds: a
     * standby control plane follows while another one moves the routings, never while it moves
     * them itself (its own newer moves may not be stored yet).
     */
    public void follow(SequentialBoard board, Duration every, BooleanSupplier when) {
        followOnce(board, when);
        tasks.every("sequential-follow", every, () -> followOnce(board, when));
    }

    private void followOnce(SequentialBoard board, BooleanSupplier when) {
        try {
            if (when.getAsBoolean()) {
                List<SequentialState> saved = load();
                if (when.getAsBoolean()) {
                    board.restore(saved);
                }
            }
        } catch (RuntimeException e) { // expected while Redis is away: not a task failure
            LOG.log(Level.DEBUG, "sequential positions not read, keeping the current ones: {0}", e.getMessage());
        }
    }

    static String encode(SequentialState s) {
        return "pp1 " + s.version() + " " + s.index() + " " + (s.exhausted() ? 1 : 0) + " " + s.consecutiveEmpty() + " "
                + s.reason().label() + " " + s.changedAt().toEpochMilli() + " " + s.upstream();
    }

    static SequentialState decode(String routing, String value) {
        String[] f = value.split(" ", 8);
        if (f.length != 8 || !f[0].equals("pp1")) {
            LOG.log(Level.WARNING, "sequential position of {0} not understood, skipped", routing);
            return null;
        }
        try {
            return new SequentialState(
                    routing,
                    Integer.parseInt(f[2]),
                    f[7],
                    f[3].equals("1"),
                    Integer.parseInt(f[4]),
                    Long.parseLong(f[1]),
                    SwitchReason.parse(f[5]),
                    Instant.ofEpochMilli(Long.parseLong(f[6])));
        } catch (IllegalArgumentException e) {
            LOG.log(Level.WARNING, "sequential position of {0} not understood, skipped: {1}", routing, e.getMessage());
            return null;
        }
    }

    @Override
    public void close() {
        tasks.close();
        redis.close();
    }
}
