package dev.proxypool.sdk.provider;

import java.time.Duration;
import java.util.Locale;

/** How a gateway's login writes a session's lifetime ({@code {lifetime}}). */
enum LifetimeUnit {
    /** The login has no lifetime: {@code {lifetime}} is refused. */
    NONE,
    /** Whole seconds: {@code 600}. */
    SECONDS,
    /** Whole minutes, at least 1: {@code 10}. */
    MINUTES,
    /** A number and its unit, the largest that divides evenly: {@code 30m}, {@code 90s}, {@code 2h}. */
    SUFFIXED;

    static LifetimeUnit parse(String key, String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    key + ": unknown unit '" + value + "' (known: seconds, minutes, suffixed, none)", e);
        }
    }

    /** The lifetime as the login writes it. */
    String render(Duration lifetime) {
        long s = Math.max(1, lifetime.toSeconds());
        return switch (this) {
            case NONE -> "";
            case SECONDS -> Long.toString(s);
            case MINUTES -> Long.toString(Math.max(1, s / 60));
            case SUFFIXED -> {
                if (s % 86_400 == 0) {
                    yield s / 86_400 + "d";
                } else if (s % 3600 == 0) {
                    yield s / 3600 + "h";
                } else if (s % 60 == 0) {
                    yield s / 60 + "m";
                }
                yield s + "s";
            }
        };
    }
}
