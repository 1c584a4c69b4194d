package dev.proxypool.core.extract;

import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Bounds a {@link PoolStore} keeps, the same for every implementation. Defaults in {@link #DEFAULTS}. Three come
 * from {@code proxypool.yaml} (the key in brackets); the others are not configuration keys, and their messages
 * name the component ({@code StoreSettings.idempotencyMaxEntries}).
 *
 * @param tombstoneRetentionForNoExpiry how long an extracted proxy that never expires stays
 *                                      tombstoned [7 days].
 *                                      Bounded so tombstones cannot grow forever; an inventory that lists
 *                                      it again after that gets it back
 * @param idempotencyRetention          how long a completed idempotent response is replayed
 *                                      [{@code distribution.idempotencyTtl}, {@link #DEFAULT_IDEMPOTENCY_RETENTION}, docs/design.md#extraction E7]
 * @param idempotencyInProgressTimeout  how long a started, never completed or abandoned key blocks
 *                                      retries (a crashed server must not lock a key for a day)
 *                                      [60 s]
 * @param idempotencyMaxEntries         most idempotency records kept; beyond it the oldest started is
 *                                      evicted, whatever its state [100,000]
 * @param indexDimensions               label keys whose value combinations a store indexes, so a filter
 *                                      on two or more of them is one index range [{@code store.index.dimensions},
 *                                      {@code [country, type]}]; upstream, protocol and every single label
 *                                      are always indexed. Kept sorted and distinct
 * @param indexProtocol                 whether each combination of one or more of {@code indexDimensions}
 *                                      with a protocol is indexed too, so a filter of such labels and a
 *                                      protocol is one index set [{@code store.index.protocol}, true]
 * @param indexUpstream                 whether each combination of the upstream with one or more of
 *                                      {@code indexDimensions} is indexed too, and, with
 *                                      {@code indexProtocol}, with the protocol and with both, so a filter
 *                                      of an upstream beside such labels or a protocol is one index set
 *                                      [{@code store.index.upstream}, false]
 */
public record StoreSettings(
        Duration tombstoneRetentionForNoExpiry,
        Duration idempotencyRetention,
        Duration idempotencyInProgressTimeout,
        int idempotencyMaxEntries,
        List<String> indexDimensions,
        boolean indexProtocol,
        boolean indexUpstream) {

    /** {@code store.index.dimensions} by default: the label keys whose combinations are indexed. */
    public static final List<String> DEFAULT_INDEX_DIMENSIONS = List.of("country", "type");
    /** Most declared dimensions: a proxy gets one index entry per combination of two or more (11 for 4). */
    public static final int MAX_INDEX_DIMENSIONS = 4;

    private static final Pattern DIMENSION = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    /** The default {@code distribution.idempotencyTtl}: 24 h. */
    public static final Duration DEFAULT_IDEMPOTENCY_RETENTION = Duration.ofHours(24);

    /** The defaults given on the components: 7 days, 24 h, 60 s, 100,000. */
    public static final StoreSettings DEFAULTS =
            new StoreSettings(Duration.ofDays(7), DEFAULT_IDEMPOTENCY_RETENTION, Duration.ofSeconds(60), 100_000);

    /**
     * Settings with the default index dimensions ({@link #DEFAULT_INDEX_DIMENSIONS}), each combination
     * of them with a protocol indexed too.
     *
     * @param tombstoneRetentionForNoExpiry how long an extracted proxy that never expires stays tombstoned
     * @param idempotencyRetention {@code distribution.idempotencyTtl}
     * @param idempotencyInProgressTimeout how long a started, never completed key blocks retries
     * @param idempotencyMaxEntries most idempotency records kept
     * @throws IllegalArgumentException naming the config key or component of the first value out of range
     */
    public StoreSettings(
            Duration tombstoneRetentionForNoExpiry,
            Duration idempotencyRetention,
            Duration idempotencyInProgressTimeout,
            int idempotencyMaxEntries) {
        this(
                tombstoneRetentionForNoExpiry,
                idempotencyRetention,
                idempotencyInProgressTimeout,
                idempotencyMaxEntries,
                DEFAULT_INDEX_DIMENSIONS,
                true,
                false);
    }

    /**
     * Validates every bound.
     *
     * @throws IllegalArgumentException naming the config key or component of the first value out of range
     */
    public StoreSettings {
        positive("StoreSettings.tombstoneRetentionForNoExpiry", tombstoneRetentionForNoExpiry);
        positive("distribution.idempotencyTtl", idempotencyRetention);
        positive("StoreSettings.idempotencyInProgressTimeout", idempotencyInProgressTimeout);
        if (idempotencyMaxEntries < 1) {
            throw new IllegalArgumentException(
                    "StoreSettings.idempotencyMaxEntries must be at least 1, got " + idempotencyMaxEntries);
        }
        indexDimensions = dimensions(indexDimensions);
    }

    /** Trimmed, distinct, sorted label keys (sorted: one name per combination whatever the config order). */
    private static List<String> dimensions(List<String> dims) {
        if (dims == null) {
            throw new IllegalArgumentException("store.index.dimensions must be a list (empty for none)");
        }
        TreeSet<String> out = new TreeSet<>();
        for (String d : dims) {
            String k = d == null ? "" : d.trim();
            if (!DIMENSION.matcher(k).matches()) {
                throw new IllegalArgumentException("store.index.dimensions: '" + d
                        + "' is not a label key (letters, digits, '_', '.', '-'; at most 64)");
            }
            if (!out.add(k)) {
                throw new IllegalArgumentException("store.index.dimensions names '" + k + "' twice");
            }
        }
        if (out.size() > MAX_INDEX_DIMENSIONS) {
            throw new IllegalArgumentException("store.index.dimensions has " + out.size() + " entries, at most "
                    + MAX_INDEX_DIMENSIONS + " (each proxy is indexed once per combination)");
        }
        return List.copyOf(out);
    }

    private static void positive(String key, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(key + " must be a positive duration, got " + d);
        }
    }

    /**
     * A builder holding {@link #DEFAULTS}.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return DEFAULTS.toBuilder();
    }

    /**
     * A builder holding these settings.
     *
     * @return a new builder
     */
    public Builder toBuilder() {
        return new Builder()
                .tombstoneRetentionForNoExpiry(tombstoneRetentionForNoExpiry)
                .idempotencyRetention(idempotencyRetention)
                .idempotencyInProgressTimeout(idempotencyInProgressTimeout)
                .idempotencyMaxEntries(idempotencyMaxEntries)
                .indexDimensions(indexDimensions)
                .indexProtocol(indexProtocol)
                .indexUpstream(indexUpstream);
    }

    /** Builds {@link StoreSettings}; {@link #build()} checks every bound. */
    public static final class Builder {
        private Duration tombstoneRetentionForNoExpiry;
        private Duration idempotencyRetention;
        private Duration idempotencyInProgressTimeout;
        private int idempotencyMaxEntries;
        private List<String> indexDimensions;
        private boolean indexProtocol;
        private boolean indexUpstream;

        private Builder() {}

        /**
         * Sets {@link StoreSettings#tombstoneRetentionForNoExpiry()}.
         *
         * @param d positive
         * @return this builder
         */
        public Builder tombstoneRetentionForNoExpiry(Duration d) {
            this.tombstoneRetentionForNoExpiry = d;
            return this;
        }

        /**
         * Sets {@link StoreSettings#idempotencyRetention()} ({@code distribution.idempotencyTtl}).
         *
         * @param d positive
         * @return this builder
         */
        public Builder idempotencyRetention(Duration d) {
            this.idempotencyRetention = d;
            return this;
        }

        /**
         * Sets {@link StoreSettings#idempotencyInProgressTimeout()}.
         *
         * @param d positive
         * @return this builder
         */
        public Builder idempotencyInProgressTimeout(Duration d) {
            this.idempotencyInProgressTimeout = d;
            return this;
        }

        /**
         * Sets {@link StoreSettings#idempotencyMaxEntries()}.
         *
         * @param n at least 1
         * @return this builder
         */
        public Builder idempotencyMaxEntries(int n) {
            this.idempotencyMaxEntries = n;
            return this;
        }

        /**
         * Sets {@link StoreSettings#indexDimensions()} ({@code store.index.dimensions}).
         *
         * @param dims label keys, at most {@value StoreSettings#MAX_INDEX_DIMENSIONS}
         * @return this builder
         */
        public Builder indexDimensions(List<String> dims) {
            this.indexDimensions = dims;
            return this;
        }

        /**
         * Sets {@link StoreSettings#indexProtocol()} ({@code store.index.protocol}).
         *
         * @param on whether the declared dimensions' combinations with a protocol are indexed
         * @return this builder
         */
        public Builder indexProtocol(boolean on) {
            this.indexProtocol = on;
            return this;
        }

        /**
         * Sets {@link StoreSettings#indexUpstream()} ({@code store.index.upstream}).
         *
         * @param on whether the upstream's combinations with the declared dimensions (and the protocol) are indexed
         * @return this builder
         */
        public Builder indexUpstream(boolean on) {
            this.indexUpstream = on;
            return this;
        }

        /**
         * The checked settings.
         *
         * @return the settings
         * @throws IllegalArgumentException naming the config key or component of the first value out of range
         */
        public StoreSettings build() {
            return new StoreSettings(
                    tombstoneRetentionForNoExpiry,
                    idempotencyRetention,
                    idempotencyInProgressTimeout,
                    idempotencyMaxEntries,
                    indexDimensions,
                    indexProtocol,
                    indexUpstream);
        }
    }
}
