package dev.proxypool.sdk.probe;

import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.validate.ProxiedExchange;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * Settings of an {@link ActiveProber}, with the defaults of {@code health.active} (docs/configuration.md#health).
 * Validated on construction with messages naming the key. ({@code failuresToCool} lives in the
 * core's {@link dev.proxypool.core.health.HealthPolicy}: the prober only reports outcomes.)
 *
 * @param interval    {@code health.active.interval}: time from the start of one round to the next (30 s)
 * @param concurrency probes in flight at once ({@value #DEFAULT_CONCURRENCY})
 * @param timeout     hard deadline of one exchange (10 s); a probe confirmed on a second target takes
 *                    two, so keep twice this below {@code health.probeTimeout} (30 s): a recovery probe
 *                    then reports before its permit expires
 * @param targets     {@code health.active.targets}: {@code http(s)://} URLs, rotated per proxy from one
 *                    round to the next (see {@link ActiveProber}); give at least two so that a dead
 *                    target cannot be blamed on proxies (the default has three)
 */
public record ProberSettings(Duration interval, int concurrency, Duration timeout, List<URI> targets) {

    public static final Duration DEFAULT_INTERVAL = ProxyPoolConfig.Health.DEFAULTS.activeInterval();
    public static final int DEFAULT_CONCURRENCY = 32;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    public static final List<URI> DEFAULT_TARGETS = ProxyPoolConfig.Health.DEFAULTS.activeTargets().stream()
            .map(URI::create)
            .toList();

    public static final ProberSettings DEFAULTS =
            new ProberSettings(DEFAULT_INTERVAL, DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT, DEFAULT_TARGETS);

    public ProberSettings {
        if (interval == null
                || interval.toMillis() < 1
                || interval.compareTo(ProxyPoolConfig.Health.MAX_ACTIVE_INTERVAL) > 0) {
            throw new IllegalArgumentException("health.active.interval must be between 1 ms and "
                    + ProxyPoolConfig.Health.MAX_ACTIVE_INTERVAL + ", got " + interval);
        }
        if (concurrency < 1 || concurrency > 10_000) {
            throw new IllegalArgumentException("prober concurrency must be 1..10000, got " + concurrency);
        }
        if (timeout == null || timeout.toMillis() < 1 || timeout.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException("prober timeout must be between 1 ms and 10 minutes, got " + timeout);
        }
        if (targets == null || targets.isEmpty()) {
            throw new IllegalArgumentException("health.active.targets must name at least one probe target");
        }
        targets = List.copyOf(targets);
        for (int i = 0; i < targets.size(); i++) {
            URI t = targets.get(i);
            if (t == null || !ProxiedExchange.isTarget(t)) {
                throw new IllegalArgumentException("health.active.targets[" + i
                        + "] must be an http:// or https:// URL with a host, got '" + t + "'");
            }
        }
    }

    /** From the loaded {@code health:} section. */
    public static ProberSettings from(ProxyPoolConfig.Health h) {
        return new ProberSettings(
                h.activeInterval(),
                DEFAULT_CONCURRENCY,
                DEFAULT_TIMEOUT,
                h.activeTargets().stream().map(URI::create).toList());
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
                .interval(interval)
                .concurrency(concurrency)
                .timeout(timeout)
                .targets(targets);
    }

    /** Builds {@link ProberSettings}; {@link #build()} checks them. */
    public static final class Builder {
        private Duration interval;
        private int concurrency;
        private Duration timeout;
        private List<URI> targets;

        private Builder() {}

        /**
         * @param d {@code health.active.interval}
         * @return this builder
         */
        public Builder interval(Duration d) {
            this.interval = d;
            return this;
        }

        /**
         * @param n probes in flight at once
         * @return this builder
         */
        public Builder concurrency(int n) {
            this.concurrency = n;
            return this;
        }

        /**
         * @param d hard deadline of one exchange
         * @return this builder
         */
        public Builder timeout(Duration d) {
            this.timeout = d;
            return this;
        }

        /**
         * @param t {@code health.active.targets}
         * @return this builder
         */
        public Builder targets(List<URI> t) {
            this.targets = t;
            return this;
        }

        /**
         * @return the checked settings
         * @throws IllegalArgumentException naming the key of a bad value
         */
        public ProberSettings build() {
            return new ProberSettings(interval, concurrency, timeout, targets);
        }
    }
}
