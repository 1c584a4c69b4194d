package dev.proxypool.cli;

import dev.proxypool.sdk.config.Durations;
import java.time.Duration;
import picocli.CommandLine;

/** Durations as in the config: {@code 500ms}, {@code 8s}, {@code 2m}, {@code 1h}, {@code PT10S}. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        try {
            return Durations.parse("duration", value);
        } catch (RuntimeException e) {
            throw new CommandLine.TypeConversionException(
                    "'" + value + "' is not a duration (write e.g. 500ms, 8s, 2m)");
        }
    }
}
