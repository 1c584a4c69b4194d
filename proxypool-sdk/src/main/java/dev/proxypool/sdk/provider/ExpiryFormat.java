package dev.proxypool.sdk.provider;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * How an {@code expiresAt} value is written ({@code expiresAtFormat} setting). {@code auto} reads a
 * number below 10^11 as epoch seconds and anything larger as epoch millis (10^11 s is the year
 * 5138, 10^11 ms is 1973), and text as ISO-8601 with an offset ({@code 2026-11-30T12:00:00Z});
 * a time without an offset is refused rather than guessed.
 */
enum ExpiryFormat {
    AUTO("auto"),
    EPOCH_SECONDS("epochSeconds"),
    EPOCH_MILLIS("epochMillis"),
    ISO8601("iso8601");

    private static final BigDecimal MILLIS_THRESHOLD = BigDecimal.valueOf(100_000_000_000L);
    private static final long MAX_EPOCH_SECOND = 253_402_300_799L; // 9999-12-31T23:59:59Z
    private static final BigDecimal MAX_EPOCH_SECOND_DECIMAL = BigDecimal.valueOf(MAX_EPOCH_SECOND);
    private static final BigDecimal MAX_EPOCH_MILLI = BigDecimal.valueOf(MAX_EPOCH_SECOND * 1000 + 999);

    private final String configName;

    ExpiryFormat(String configName) {
        this.configName = configName;
    }

    static ExpiryFormat parse(String key, String value) {
        for (ExpiryFormat f : values()) {
            if (f.configName.equalsIgnoreCase(value)) {
                return f;
            }
        }
        throw new IllegalArgumentException(
                key + ": unknown format '" + value + "' (expected auto, epochSeconds, epochMillis or iso8601)");
    }

    /** The instant {@code text} denotes, or null when it does not read in this format. */
    Instant read(String text) {
        BigDecimal number = number(text);
        return switch (this) {
            case AUTO ->
                number == null
                        ? iso(text)
                        : number.compareTo(MILLIS_THRESHOLD) >= 0 ? epoch(number, true) : epoch(number, false);
            case EPOCH_SECONDS -> number == null ? null : epoch(number, false);
            case EPOCH_MILLIS -> number == null ? null : epoch(number, true);
            case ISO8601 -> iso(text);
        };
    }

    private static BigDecimal number(String text) {
        if (text.isEmpty() || text.length() > 32 || !(Character.isDigit(text.charAt(0)) || text.charAt(0) == '-')) {
            return null;
        }
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Instant epoch(BigDecimal value, boolean millis) {
        // range first: scaling a huge exponent ("1e999999999") would compute a huge power of ten
        if (value.signum() <= 0 || value.compareTo(millis ? MAX_EPOCH_MILLI : MAX_EPOCH_SECOND_DECIMAL) > 0) {
            return null;
        }
        return millis ? Instant.ofEpochMilli(value.longValue()) : Instant.ofEpochSecond(value.longValue());
    }

    private static Instant iso(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return Instant.parse(text);
            } catch (DateTimeException e2) {
                return null;
            }
        }
    }
}
