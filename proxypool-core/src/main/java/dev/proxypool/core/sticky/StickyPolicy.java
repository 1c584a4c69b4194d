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
 */
public record StickyPolicy(boolean enabled, String header, Duration lifetime, Duration idle,
                           OnLost onLost, int maxEntries) {

    /** When a session's proxy no longer qualifies. */
    public enum OnLost {
        /** Silently bind a new proxy (default). */
        REPIN,
        /** Fail the request with 502 {@code session_lost}: the exit IP must never change mid-session. */
        STRICT;

        public static OnLost parse(String value) {
            if (value != null) {
                switch (value.trim().toLowerCase(Locale.ROOT)) {
                    case "repin": return REPIN;
                    case "strict": return STRICT;
                    default: break;
                }
            }
            throw new IllegalArgumentException("unknown sticky.onLost '" + value + "' (expected repin or strict)");
        }
    }

    public static final String DEFAULT_HEADER = "X-ProxyPool-Session";

    public static final StickyPolicy DISABLED = new StickyPolicy(false, DEFAULT_HEADER,
            Duration.ofMinutes(10), Duration.ofSeconds(60), OnLost.REPIN, 100_000);

    public static final StickyPolicy DEFAULTS = new StickyPolicy(true, DEFAULT_HEADER,
            Duration.ofMinutes(10), Duration.ofSeconds(60), OnLost.REPIN, 100_000);

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
    }
}
