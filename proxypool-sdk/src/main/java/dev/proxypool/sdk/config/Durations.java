package dev.proxypool.sdk.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * Durations as people write them in YAML: {@code 500ms}, {@code 30s}, {@code 10m}, {@code 24h},
 * {@code 7d}, a bare number of seconds, or ISO-8601 ({@code PT30S}).
 */
public final class Durations {

    private Durations() {}

    /**
     * Parses a configured duration: a number and a unit ({@code ms}, {@code s}, {@code m}, {@code h},
     * {@code d}), e.g. {@code 30s}, {@code 10m}, {@code 1500ms}.
     *
     * @param key  the config key, for the message
     * @param text the configured text
     * @return the duration, zero or positive
     * @throws ConfigException naming {@code key} for an empty, malformed or negative duration
     */
    public static Duration parse(String key, String text) {
        if (text == null || text.isBlank()) {
            throw new ConfigException(key, "duration is empty (write e.g. 30s, 10m, 24h)");
        }
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("p")) {
                return nonNegative(key, text, Duration.parse(t.toUpperCase(Locale.ROOT)));
            }
            int unitAt = 0;
            while (unitAt < t.length() && (Character.isDigit(t.charAt(unitAt)) || t.charAt(unitAt) == '.')) {
                unitAt++;
            }
            if (unitAt == 0) {
                throw new NumberFormatException();
            }
            double amount = Double.parseDouble(t.substring(0, unitAt));
            String unit = t.substring(unitAt).trim();
            double millis = switch (unit) {
                case "ms" -> amount;
                case "", "s" -> amount * 1_000;
                case "m", "min" -> amount * 60_000;
                case "h" -> amount * 3_600_000;
                case "d" -> amount * 86_400_000;
                default ->
                    throw new ConfigException(
                            key, "unknown duration unit '" + unit + "' in '" + text + "' (use ms, s, m, h or d)");
            };
            return Duration.ofNanos(Math.round(millis * 1_000_000));
        } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
            throw new ConfigException(key, "'" + text + "' is not a duration (write e.g. 30s, 10m, 24h)");
        }
    }

    private static Duration nonNegative(String key, String text, Duration d) {
        if (d.isNegative()) {
            throw new ConfigException(key, "duration '" + text + "' is negative");
        }
        return d;
    }

    /**
     * The shortest human form of {@code d}: {@code 30s}, {@code 10m}, {@code 1500ms}.
     *
     * @param d the duration
     * @return its shortest form
     */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 86_400_000 == 0 && ms > 0) {
            return ms / 86_400_000 + "d";
        }
        if (ms % 3_600_000 == 0 && ms > 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0 && ms > 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1_000 == 0) {
            return ms / 1_000 + "s";
        }
        return ms + "ms";
    }
}
