package dev.proxypool.sdk.lock;

import dev.proxypool.core.time.Ticker;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stage leases within one process (several pipelines in one JVM, the embedded default, tests):
 * a map {@code stage → (holder, deadline)} on the injected monotonic {@link Ticker}; each
 * operation is one atomic {@link ConcurrentHashMap#compute}. A lapsed lease counts as free.
 * Thread-safe; O(1) per call.
 */
public final class LocalStageLock implements StageLock {

    private record Held(String holder, long deadlineNanos) {}

    private final Ticker ticker;
    private final ConcurrentHashMap<String, Held> leases = new ConcurrentHashMap<>();

    public LocalStageLock(Ticker ticker) {
        if (ticker == null) {
            throw new IllegalArgumentException("ticker must not be null");
        }
        this.ticker = ticker;
    }

    @Override
    public boolean tryAcquire(String stage, String holderId, Duration ttl) {
        LockArguments.stage(stage);
        LockArguments.holder(holderId);
        long ttlNanos = Duration.ofMillis(LockArguments.ttlMillis(ttl)).toNanos();
        long now = ticker.read();
        boolean[] acquired = {false};
        leases.compute(stage, (k, held) -> {
            if (held == null || lapsed(held, now) || held.holder().equals(holderId)) {
                acquired[0] = true;
                return new Held(holderId, now + ttlNanos);
            }
            return held;
        });
        return acquired[0];
    }

    @Override
    public boolean renew(String stage, String holderId, Duration ttl) {
        LockArguments.stage(stage);
        LockArguments.holder(holderId);
        long ttlNanos = Duration.ofMillis(LockArguments.ttlMillis(ttl)).toNanos();
        long now = ticker.read();
        boolean[] renewed = {false};
        leases.computeIfPresent(stage, (k, held) -> {
            if (held.holder().equals(holderId) && !lapsed(held, now)) {
                renewed[0] = true;
                return new Held(holderId, now + ttlNanos);
            }
            return held;
        });
        return renewed[0];
    }

    @Override
    public boolean release(String stage, String holderId) {
        LockArguments.stage(stage);
        LockArguments.holder(holderId);
        long now = ticker.read();
        boolean[] released = {false};
        leases.computeIfPresent(stage, (k, held) -> {
            if (held.holder().equals(holderId)) {
                released[0] = !lapsed(held, now);
                return null;
            }
            return held;
        });
        return released[0];
    }

    @Override
    public Optional<String> currentHolder(String stage) {
        LockArguments.stage(stage);
        Held held = leases.get(stage);
        return held == null || lapsed(held, ticker.read()) ? Optional.empty() : Optional.of(held.holder());
    }

    private static boolean lapsed(Held held, long now) {
        return now - held.deadlineNanos() >= 0;
    }

    @Override
    public void close() {
        // nothing to release: the map goes with this object
    }

    @Override
    public String toString() {
        return "LocalStageLock" + leases.keySet();
    }
}
