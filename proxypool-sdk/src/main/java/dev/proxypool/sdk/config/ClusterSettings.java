package dev.proxypool.sdk.config;

import java.time.Duration;

/**
 * How snapshots travel between the control plane and the workers, and how workers count each
 * other. Redis location, credentials, timeouts and the key prefix come from the store's
 * {@code dev.proxypool.sdk.redis.RedisStoreConfig}; these are the cluster's own knobs (proposed
 * config keys {@code cluster.*}). Defaults in {@link #DEFAULTS}; the constructor validates and names
 * the key in its message.
 *
 * @param validity         how long workers may serve a snapshot without news from the control plane
 *                         [{@code cluster.validity}, 10 min]: each published version carries
 *                         {@code validUntil = publishedAt + validity}
 * @param renewAfter       the control plane publishes an empty version after this long without a
 *                         change, so a live control plane keeps validity fresh
 *                         [{@code cluster.renewAfter}, 1 min; at most half of validity]
 * @param deltasKept       deltas kept in the stream for workers to catch up from
 *                         [{@code cluster.deltasKept}, 64]; a worker further behind loads the full snapshot
 * @param fullEvery        the full snapshot is rewritten every this many versions
 *                         [{@code cluster.fullEvery}, 1 = with every version; at most {@code deltasKept}]
 * @param deflate          deflate full snapshot bodies [{@code cluster.deflate}, false]
 * @param pollInterval     a worker checks for missed versions this often even without a pub/sub event
 *                         (pub/sub is at-most-once) [{@code cluster.pollInterval}, 5 s]
 * @param backoffMin       first wait before reconnecting after Redis failed [{@code cluster.backoffMin}, 100 ms]
 * @param backoffMax       the wait doubles up to this [{@code cluster.backoffMax}, 5 s]
 * @param workerTtl        a worker counts as alive this long after its last heartbeat, judged by
 *                         Redis' clock (key TTL) [{@code cluster.workerTtl}, 15 s]; heartbeats go
 *                         every third of it
 * @param leaseTtl         the control-plane lease: the active control plane renews it every third
 *                         of this, a standby takes over at most this long (plus one poll of at most
 *                         a second) after the active one stopped renewing [{@code cluster.leaseTtl},
 *                         5 s; at least 1 s]
 */
public record ClusterSettings(
        Duration validity,
        Duration renewAfter,
        int deltasKept,
        int fullEvery,
        boolean deflate,
        Duration pollInterval,
        Duration backoffMin,
        Duration backoffMax,
        Duration workerTtl,
        Duration leaseTtl) {

    /** The largest {@code cluster.deltasKept} (and so {@code cluster.fullEvery}). */
    public static final int MAX_DELTAS_KEPT = 100_000;

    /** The default of {@link #leaseTtl()}. */
    public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(5);

    /**
     * The defaults named with each component above.
     */
    public static final ClusterSettings DEFAULTS = new ClusterSettings(
            Duration.ofMinutes(10),
            Duration.ofMinutes(1),
            64,
            1,
            false,
            Duration.ofSeconds(5),
            Duration.ofMillis(100),
            Duration.ofSeconds(5),
            Duration.ofSeconds(15),
            DEFAULT_LEASE_TTL);

    /**
     * The settings without a {@code leaseTtl} (the default lease); each parameter as in the record.
     *
     * @param validity     {@code cluster.validity}
     * @param renewAfter   {@code cluster.renewAfter}
     * @param deltasKept   {@code cluster.deltasKept}
     * @param fullEvery    {@code cluster.fullEvery}
     * @param deflate      {@code cluster.deflate}
     * @param pollInterval {@code cluster.pollInterval}
     * @param backoffMin   {@code cluster.backoffMin}
     * @param backoffMax   {@code cluster.backoffMax}
     * @param workerTtl    {@code cluster.workerTtl}
     */
    public ClusterSettings(
            Duration validity,
            Duration renewAfter,
            int deltasKept,
            int fullEvery,
            boolean deflate,
            Duration pollInterval,
            Duration backoffMin,
            Duration backoffMax,
            Duration workerTtl) {
        this(
                validity,
                renewAfter,
                deltasKept,
                fullEvery,
                deflate,
                pollInterval,
                backoffMin,
                backoffMax,
                workerTtl,
                DEFAULT_LEASE_TTL);
    }

    /**
     * Validates the settings.
     *
     * @throws IllegalArgumentException naming the {@code cluster.*} key of a bad value
     */
    public ClusterSettings {
        positive("cluster.validity", validity);
        positive("cluster.renewAfter", renewAfter);
        if (renewAfter.multipliedBy(2).compareTo(validity) > 0) {
            throw new IllegalArgumentException(
                    "cluster.renewAfter " + renewAfter + " must be at most half of cluster.validity " + validity
                            + " (a live control plane must renew before workers go stale)");
        }
        if (deltasKept < 1 || deltasKept > MAX_DELTAS_KEPT) {
            throw new IllegalArgumentException(
                    "cluster.deltasKept must be between 1 and " + MAX_DELTAS_KEPT + ", got " + deltasKept);
        }
        if (fullEvery < 1 || fullEvery > deltasKept) {
            throw new IllegalArgumentException("cluster.fullEvery must be between 1 and cluster.deltasKept ("
                    + deltasKept + "), got " + fullEvery);
        }
        positive("cluster.pollInterval", pollInterval);
        positive("cluster.backoffMin", backoffMin);
        positive("cluster.backoffMax", backoffMax);
        if (backoffMax.compareTo(backoffMin) < 0) {
            throw new IllegalArgumentException(
                    "cluster.backoffMax " + backoffMax + " is below cluster.backoffMin " + backoffMin);
        }
        positive("cluster.workerTtl", workerTtl);
        if (workerTtl.toMillis() < 300) {
            throw new IllegalArgumentException("cluster.workerTtl must be at least 300ms, got " + workerTtl);
        }
        positive("cluster.leaseTtl", leaseTtl);
        if (leaseTtl.toMillis() < 1000) {
            throw new IllegalArgumentException("cluster.leaseTtl must be at least 1s, got " + leaseTtl);
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
        Builder b = new Builder();
        b.validity = validity;
        b.renewAfter = renewAfter;
        b.deltasKept = deltasKept;
        b.fullEvery = fullEvery;
        b.deflate = deflate;
        b.pollInterval = pollInterval;
        b.backoffMin = backoffMin;
        b.backoffMax = backoffMax;
        b.workerTtl = workerTtl;
        b.leaseTtl = leaseTtl;
        return b;
    }

    /**
     * Builds {@link ClusterSettings}: set the keys that differ, then {@link #build()} checks them together
     * (the rules between keys, such as {@code renewAfter} at most half of {@code validity}, see the whole).
     */
    public static final class Builder {
        private Duration validity;
        private Duration renewAfter;
        private int deltasKept;
        private int fullEvery;
        private boolean deflate;
        private Duration pollInterval;
        private Duration backoffMin;
        private Duration backoffMax;
        private Duration workerTtl;
        private Duration leaseTtl;

        private Builder() {}

        /**
         * Sets {@code cluster.validity}.
         *
         * @param d how long workers may serve a snapshot without news
         * @return this builder
         */
        public Builder validity(Duration d) {
            this.validity = d;
            return this;
        }

        /**
         * Sets {@code cluster.renewAfter}.
         *
         * @param d an empty version renews validity after this long without a change
         * @return this builder
         */
        public Builder renewAfter(Duration d) {
            this.renewAfter = d;
            return this;
        }

        /**
         * Sets {@code cluster.deltasKept}.
         *
         * @param n deltas kept for workers to catch up from
         * @return this builder
         */
        public Builder deltasKept(int n) {
            this.deltasKept = n;
            return this;
        }

        /**
         * Sets {@code cluster.fullEvery}.
         *
         * @param n the full snapshot is rewritten every this many versions
         * @return this builder
         */
        public Builder fullEvery(int n) {
            this.fullEvery = n;
            return this;
        }

        /**
         * Sets {@code cluster.deflate}.
         *
         * @param on whether full snapshot bodies are deflated
         * @return this builder
         */
        public Builder deflate(boolean on) {
            this.deflate = on;
            return this;
        }

        /**
         * Sets {@code cluster.pollInterval}.
         *
         * @param d how often a worker checks for missed versions
         * @return this builder
         */
        public Builder pollInterval(Duration d) {
            this.pollInterval = d;
            return this;
        }

        /**
         * Sets {@code cluster.backoffMin}.
         *
         * @param d first wait before reconnecting
         * @return this builder
         */
        public Builder backoffMin(Duration d) {
            this.backoffMin = d;
            return this;
        }

        /**
         * Sets {@code cluster.backoffMax}.
         *
         * @param d the longest wait before reconnecting
         * @return this builder
         */
        public Builder backoffMax(Duration d) {
            this.backoffMax = d;
            return this;
        }

        /**
         * Sets {@code cluster.workerTtl}.
         *
         * @param d a worker counts as alive this long after its last heartbeat
         * @return this builder
         */
        public Builder workerTtl(Duration d) {
            this.workerTtl = d;
            return this;
        }

        /**
         * Sets {@code cluster.leaseTtl}.
         *
         * @param d how long the active control plane's lease lasts without renewal
         * @return this builder
         */
        public Builder leaseTtl(Duration d) {
            this.leaseTtl = d;
            return this;
        }

        /**
         * The checked settings.
         *
         * @return the settings
         * @throws IllegalArgumentException naming the {@code cluster.*} key of a bad value
         */
        public ClusterSettings build() {
            return new ClusterSettings(
                    validity,
                    renewAfter,
                    deltasKept,
                    fullEvery,
                    deflate,
                    pollInterval,
                    backoffMin,
                    backoffMax,
                    workerTtl,
                    leaseTtl);
        }
    }

    private static void positive(String key, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(key + " must be a positive duration, got " + d);
        }
    }
}
