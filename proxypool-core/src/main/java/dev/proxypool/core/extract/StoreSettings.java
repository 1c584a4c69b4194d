package dev.proxypool.core.extract;

import java.time.Duration;

/**
 * Bounds a {@link PoolStore} keeps, the same for every implementation. Suggested config keys in
 * brackets; defaults in {@link #DEFAULTS}.
 *
 * @param tombstoneRetentionForNoExpiry how long an extracted proxy that never expires stays
 *                                      tombstoned [{@code store.tombstoneRetentionForNoExpiry}, 7 days].
 *                                      Bounded so tombstones cannot grow forever; an inventory that lists
 *                                      it again after that gets it back
 * @param idempotencyRetention          how long a completed idempotent response is replayed
 *                                      [{@code store.idempotency.retention}, 24 h, docs/design.md#extraction E7]
 * @param idempotencyInProgressTimeout  how long a started, never completed or abandoned key blocks
 *                                      retries (a crashed server must not lock a key for a day)
 *                                      [{@code store.idempotency.inProgressTimeout}, 60 s]
 * @param idempotencyMaxEntries         most idempotency records kept; beyond it the oldest started is
 *                                      evicted, whatever its state [{@code store.idempotency.maxEntries}, 100,000]
 */
public record StoreSettings(
        Duration tombstoneRetentionForNoExpiry,
        Duration idempotencyRetention,
        Duration idempotencyInProgressTimeout,
        int idempotencyMaxEntries) {

    /** The defaults given on the components: 7 days, 24 h, 60 s, 100,000. */
    public static final StoreSettings DEFAULTS =
            new StoreSettings(Duration.ofDays(7), Duration.ofHours(24), Duration.ofSeconds(60), 100_000);

    /**
     * Validates every bound.
     *
     * @throws IllegalArgumentException naming the config key of the first value out of range
     */
    public StoreSettings {
        positive("store.tombstoneRetentionForNoExpiry", tombstoneRetentionForNoExpiry);
        positive("store.idempotency.retention", idempotencyRetention);
        positive("store.idempotency.inProgressTimeout", idempotencyInProgressTimeout);
        if (idempotencyMaxEntries < 1) {
            throw new IllegalArgumentException(
                    "store.idempotency.maxEntries must be at least 1, got " + idempotencyMaxEntries);
        }
    }

    private static void positive(String key, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(key + " must be a positive duration, got " + d);
        }
    }

    /**
     * These settings with one bound changed.
     *
     * @param d the new {@code store.tombstoneRetentionForNoExpiry}, positive
     * @return new settings; these are unchanged
     * @throws IllegalArgumentException if the value is out of range
     */
    public StoreSettings withTombstoneRetentionForNoExpiry(Duration d) {
        return new StoreSettings(d, idempotencyRetention, idempotencyInProgressTimeout, idempotencyMaxEntries);
    }

    /**
     * These settings with one bound changed.
     *
     * @param d the new {@code store.idempotency.retention}, positive
     * @return new settings; these are unchanged
     * @throws IllegalArgumentException if the value is out of range
     */
    public StoreSettings withIdempotencyRetention(Duration d) {
        return new StoreSettings(tombstoneRetentionForNoExpiry, d, idempotencyInProgressTimeout, idempotencyMaxEntries);
    }

    /**
     * These settings with one bound changed.
     *
     * @param d the new {@code store.idempotency.inProgressTimeout}, positive
     * @return new settings; these are unchanged
     * @throws IllegalArgumentException if the value is out of range
     */
    public StoreSettings withIdempotencyInProgressTimeout(Duration d) {
        return new StoreSettings(tombstoneRetentionForNoExpiry, idempotencyRetention, d, idempotencyMaxEntries);
    }

    /**
     * These settings with one bound changed.
     *
     * @param n the new {@code store.idempotency.maxEntries}, at least 1
     * @return new settings; these are unchanged
     * @throws IllegalArgumentException if the value is out of range
     */
    public StoreSettings withIdempotencyMaxEntries(int n) {
        return new StoreSettings(tombstoneRetentionForNoExpiry, idempotencyRetention, idempotencyInProgressTimeout, n);
    }
}
