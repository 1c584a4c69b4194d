package dev.proxypool.sdk.asn;

import java.nio.file.Path;
import java.time.Instant;

/**
 * Where a loaded {@link AsnDatabase} came from.
 *
 * @param file           the CSV file
 * @param sha256         its verified SHA-256, lower-case hex
 * @param fileModifiedAt the file's modification time (freshness is judged from it)
 * @param loadedAt       when it was loaded
 * @param entries        number of ranges
 */
public record AsnSource(Path file, String sha256, Instant fileModifiedAt, Instant loadedAt, int entries) {}
