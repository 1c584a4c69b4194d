package dev.proxypool.core.sticky;

import java.time.Duration;
import java.util.Locale;

/**
 * Sticky-session settings of a routing ({@code routings[].sticky}), defaults of docs/design.md#sticky-sessions (S4).
 *
 * @param enabled    off by default
 * @param header     request header carrying the session id ({@code X-ProxyPool-Session})
 * @param lifetime   a binding lives at most this long (10 min), and never past its proxy's expiry
 * @param idle       a binding unused this long is dropped (60 s)
 * @param onLost     what happens when the bound proxy no longer qualifies
 * @param maxEntries bound of the per-worker binding cache (100,000)
 * @param busyWait   how long a session's request waits for its bound proxy to free a unit of
 *                   capacity before it is answered {@code no_candidate} (500 ms; zero: not at all).
 *                   A client's next request on the session can arrive a moment before the gateway
 *                   has given back the capacity of the previous one (the client already has the
 *                   whole response, or closed its tunnel): without this wait such a request would
 *                   fail at capacity 1. The limit itself is never exceeded: the request waits.
 * @param switchFailures  a session moves off its proxy after this many failed requests on it in a
 *                        row (3); one failure never moves it, unless the proxy left the pool
 * @param switchErrorRate ... or when more than this share of its last {@code switchWindow} requests
 *                        on the proxy failed (0.30), judged once at least half the window is filled
 * @param switchWindow    how many of the session's recent requests on its proxy the error rate
 *                        covers (10, at most {@value #MAX_SWITCH_WINDOW})
 */
public record StickyPolicy(
        boolean enabled,
        String header,
        Duration lifetime,
        Duration idle,
        OnLost onLost,
        int maxEntries,
        Duration busyWait,
        int switchFailures,
        double switchErrorRate,
        int switchWindow) {

    /** When a session's proxy no longer qualifies. */
    public enum OnLost {
        /** Silently bind a new proxy (default). */
        REPIN,
        /** Fail the request with 502 {@code session_lost}: the exit IP must never change mid-session. */
        STRICT;

        /**
         * Parses {@code sticky.onLost}, case-insensitively.
         *
         * @param value {@code repin} or {@code strict}
         * @return the choice
         * @throws IllegalArgumentException if the value is null or neither
         */
        public static OnLost parse(String value) {
            if (value != null) {
                switch (value.trim().toLowerCase(Locale.ROOT)) {
                    case "repin":
                        return REPIN;
                    case "strict":
                        return STRICT;
                    default:
                        break;
                }
            }
            throw new IllegalArgumentException("unknown sticky.onLost '" + value + "' (expected repin or strict)");
        }
    }

    /** The header carrying the session id unless {@code sticky.header} says otherwise. */
    public static final String DEFAULT_HEADER = "X-ProxyPool-Session";

    /** Default of {@link #busyWait()}. */
    public static final Duration DEFAULT_BUSY_WAIT = Duration.ofMillis(500);

    /** Default of {@link #switchFailures()}. */
    public static final int DEFAULT_SWITCH_FAILURES = 3;

    /** Default of {@link #switchErrorRate()}. */
    public static final double DEFAULT_SWITCH_ERROR_RATE = 0.30;

    /** Default of {@link #switchWindow()}. */
    public static final int DEFAULT_SWITCH_WINDOW = 10;

    /** Upper bound of {@link #switchWindow()} (the window is one bit per request in a {@code long}). */
    public static final int MAX_SWITCH_WINDOW = 64;

    /** Upper bound of {@link #busyWait()}: a request must not hang on a busy proxy for long. */
    public static final Duration MAX_BUSY_WAIT = Duration.ofSeconds(60);

    /** Sticky sessions off (every other setting at its default): the routing default. */
    public static final StickyPolicy DISABLED = new StickyPolicy(
            false, DEFAULT_HEADER, Duration.ofMinutes(10), Duration.ofSeconds(60), OnLost.REPIN, 100_000);

    /** Sticky sessions on, every setting at its default. */
    public static final StickyPolicy DEFAULTS = new StickyPolicy(
            true, DEFAULT_HEADER, Duration.ofMinutes(10), Duration.ofSeconds(60), OnLost.REPIN, 100_000);

    /**
     * A policy with the default {@link #busyWait()}.
     *
     * @param enabled    whether the routing pins sessions
     * @param header     request header carrying the session id, non-blank
     * @param lifetime   longest life of a binding, positive
     * @param idle       a binding unused this long is dropped, positive
     * @param onLost     what happens when the bound proxy no longer qualifies; null = repin
     * @param maxEntries bound of the per-worker binding cache, at least 1
     * @throws IllegalArgumentException as the canonical constructor does
     */
    public StickyPolicy(
            boolean enabled, String header, Duration lifetime, Duration idle, OnLost onLost, int maxEntries) {
        this(enabled, header, lifetime, idle, onLost, maxEntries, DEFAULT_BUSY_WAIT);
    }

    /**
     * A policy with the default session switching rules ({@link #switchFailures()},
     * {@link #switchErrorRate()}, {@link #switchWindow()}).
     *
     * @param enabled    whether the routing pins sessions
     * @param header     request header carrying the session id, non-blank
     * @param lifetime   longest life of a binding, positive
     * @param idle       a binding unused this long is dropped, positive
     * @param onLost     what happens when the bound proxy no longer qualifies; null = repin
     * @param maxEntries bound of the per-worker binding cache, at least 1
     * @param busyWait   how long a request waits for its busy bound proxy, 0 to 60 s
     * @throws IllegalArgumentException as the canonical constructor does
     */
    public StickyPolicy(
            boolean enabled,
            String header,
            Duration lifetime,
            Duration idle,
            OnLost onLost,
            int maxEntries,
            Duration busyWait) {
        this(
                enabled,
                header,
                lifetime,
                idle,
                onLost,
                maxEntries,
                busyWait,
                DEFAULT_SWITCH_FAILURES,
                DEFAULT_SWITCH_ERROR_RATE,
                DEFAULT_SWITCH_WINDOW);
    }

    /**
     * A copy with other session switching rules.
     *
     * @param failures  {@link #switchFailures()}
     * @param errorRate {@link #switchErrorRate()}
     * @param window    {@link #switchWindow()}
     * @return the new policy
     * @throws IllegalArgumentException as the canonical constructor does
     */
    public StickyPolicy withSwitching(int failures, double errorRate, int window) {
        return new StickyPolicy(
                enabled, header, lifetime, idle, onLost, maxEntries, busyWait, failures, errorRate, window);
    }

    /**
     * Validates every setting; a null {@code onLost} becomes {@link OnLost#REPIN}.
     *
     * @throws IllegalArgumentException naming the config key of the first invalid setting
     */
    public StickyPolicy {
        if (header == null || header.isBlank()) {
            throw new IllegalArgumentException("sticky.header must not be empty");
        }
        if (lifetime == null || lifetime.isNegative() || lifetime.isZero()) {
            throw new IllegalArgumentException("sticky.lifetime must be a positive duration, got " + lifetime);
        }
        if (idle == null || idle.isNegative() || idle.isZero()) {
            throw new IllegalArgumentException("sticky.idle must be a positive duration, got " + idle);
        }
        if (onLost == null) {
            onLost = OnLost.REPIN;
        }
        if (maxEntries < 1) {
            throw new IllegalArgumentException("sticky.maxEntries must be at least 1, got " + maxEntries);
        }
        if (busyWait == null || busyWait.isNegative() || busyWait.compareTo(MAX_BUSY_WAIT) > 0) {
            throw new IllegalArgumentException(
                    "sticky.busyWait must be between 0 and " + MAX_BUSY_WAIT.toSeconds() + "s, got " + busyWait);
        }
        if (switchFailures < 1) {
            throw new IllegalArgumentException("sticky.switchFailures must be at least 1, got " + switchFailures);
        }
        if (!(switchErrorRate > 0 && switchErrorRate <= 1)) {
            throw new IllegalArgumentException(
                    "sticky.switchErrorRate must be above 0 and at most 1, got " + switchErrorRate);
        }
        if (switchWindow < 2 || switchWindow > MAX_SWITCH_WINDOW) {
            throw new IllegalArgumentException(
                    "sticky.switchWindow must be between 2 and " + MAX_SWITCH_WINDOW + ", got " + switchWindow);
        }
    }
}
