package dev.proxypool.sdk.validate;

import java.time.Duration;
import java.util.Locale;

/**
 * Where a {@link Validator#validateAll} run stands, for progress lines.
 *
 * @param done    candidates with a result so far
 * @param total   candidates expected, or -1 when the source's size is unknown
 * @param elapsed since the run started, by the validator's ticker
 */
public record ValidationProgress(long done, long total, long elite, long anonymous, long rejected, Duration elapsed) {

    /** Receives progress after every result, one call at a time (never concurrently); must be quick. */
    @FunctionalInterface
    public interface Listener {
        void onProgress(ValidationProgress progress);

        static Listener none() {
            return p -> {};
        }
    }

    /** {@code validated 1200/2000: elite 300, anonymous 100, rejected 800 (12.3 s)}. */
    public String line() {
        return "validated " + done + (total >= 0 ? "/" + total : "") + ": elite " + elite + ", anonymous " + anonymous
                + ", rejected " + rejected + " (" + String.format(Locale.ROOT, "%.1f", elapsed.toMillis() / 1000.0)
                + " s)";
    }
}
