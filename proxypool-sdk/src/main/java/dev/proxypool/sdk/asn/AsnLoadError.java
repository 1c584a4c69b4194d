package dev.proxypool.sdk.asn;

import java.time.Instant;
import java.util.Locale;

/**
 * Why an ASN database load was refused. The previous database stays in use and the pipeline
 * publishes no new validated snapshot until a load succeeds.
 *
 * @param reason what failed
 * @param detail a short explanation (file names, line numbers, checksums; nothing secret)
 * @param at     when the load was attempted
 */
public record AsnLoadError(Reason reason, String detail, Instant at) {

    public enum Reason {
        /** The database file does not exist. */
        MISSING,
        /** The {@code <file>.sha256} sidecar is absent or not in {@code sha256sum} format. */
        CHECKSUM_MISSING,
        /** The file's SHA-256 differs from the sidecar's (or the sidecar names another file). */
        CHECKSUM_MISMATCH,
        /** A line cannot be read, ranges overlap, or the file holds no range. */
        CORRUPT,
        /** The file is older than {@code maxAge}. */
        STALE,
        /** The file is larger than the loader's size limit. */
        TOO_LARGE,
        /** The file exists but cannot be read. */
        UNREADABLE;

        /** Metric label: {@code checksum_mismatch}, ... */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
