package dev.proxypool.sdk.provider;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;

/**
 * How an {@code expiresAt} value is written ({@code expiresAtFormat} setting). {@code auto} reads a
 * number below 10^11 as epoch seconds and anything larger as epoch millis (10^11 s is the year
 * 5138, 10^11 ms is 1973), and text as ISO-8601 with an offset ({@code 2026-11-30T12:00:00Z});
 * a time without an offset ({@code 2026-11-30 12:00:00}, many list APIs' {@code expire_time}) is
 * read in the provider's {@code expiresAtZone} when one is set, and refused rather than guessed when
 * none is. {@code dateTime} reads only {@code YYYY-MM-DD HH:MM:SS} (a {@code T} for the space and a
 * fraction of a second accepted), in {@code expiresAtZone}, UTC by default.
 */
enum ExpiryFormat {
    AUTO("auto"),
    EPOCH_SECONDS("epochSeconds"),
    EPOCH_MILLIS("epochMillis"),
    ISO8601("iso8601"),
    DATE_TIME("dateTime");

    /** {@code YYYY-MM-DD HH:MM:SS}, or with a {@code T}, an optional fraction of a second. */
    private static final DateTimeFormatter LOCAL = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart()
            .appendLiteral(' ')
            .optionalEnd()
            .optionalStart()
            .appendLiteral('T')
            .optionalEnd()
            .appendValue(ChronoField.HOUR_OF_DAY, 2)
            .appendLiteral(':')
            .appendValue(ChronoField.MINUTE_OF_HOUR, 2)
            .appendLiteral(':')
            .appendValue(ChronoField.SECOND_OF_MINUTE, 2)
            .optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
            .optionalEnd()
            .toFormatter();

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
        throw new IllegalArgumentException(key + ": unknown format '" + value
                + "' (expected auto, epochSeconds, epochMillis, iso8601 or dateTime)");
    }

    /**
     * The zone of {@code expiresAtZone}: an IANA name ({@code Asia/Shanghai}) or an offset
     * ({@code +08:00}, {@code UTC}).
     */
    static ZoneId zone(String key, String value) {
        try {
            return ZoneId.of(value.strip());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(key + ": unknown time zone '" + value
                    + "' (an IANA name such as Asia/Shanghai, or an offset such as +08:00)");
        }
    }

    /**
     * The instant {@code text} denotes, or null when it does not read in this format.
     *
     * @param zone the zone of a time written without an offset, or null when none is configured
     *             ({@code auto} then refuses such a time; {@code dateTime} reads it as UTC)
     */
    Instant read(String text, ZoneId zone) {
        BigDecimal number = number(text);
        return switch (this) {
            case AUTO -> {
                if (number != null) {
                    yield number.compareTo(MILLIS_THRESHOLD) >= 0 ? epoch(number, true) : epoch(number, false);
                }
                Instant at = iso(text);
                yield at != null || zone == null ? at : local(text, zone);
            }
            case EPOCH_SECONDS -> number == null ? null : epoch(number, false);
            case EPOCH_MILLIS -> number == null ? null : epoch(number, true);
            case ISO8601 -> iso(text);
            case DATE_TIME -> local(text, zone == null ? ZoneId.of("UTC") : zone);
        };
    }

    /** A date and time without an offset, in {@code zone} (a time a DST change skips moves forward). */
    private static Instant local(String text, ZoneId zone) {
        if (text.length() > 40) {
            return null;
        }
        try {
            return LocalDateTime.parse(text.strip(), LOCAL).atZone(zone).toInstant();
        } catch (DateTimeException e) {
            return null;
        }
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
