package dev.proxypool.sdk.asn;

import dev.proxypool.sdk.asn.AsnLoadError.Reason;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Loads an ASN CSV file and verifies it before anyone may use it: the {@code <file>.sha256}
 * sidecar (the {@code sha256sum} format, {@code <hex>  <name>}) must match, the file must be
 * younger than {@code maxAge} (by its modification time), and every line must parse. The file is
 * read into memory once and that one copy is both hashed and parsed, so a file swapped mid-load
 * can never pass the check with one content and load another.
 *
 * <p>Stateless and thread-safe; {@link AsnDatabaseHolder} keeps the result.
 */
public final class AsnDatabaseLoader {

    /** Default size limit: the public IPv4+IPv6 ASN tables are ~20 MB together. */
    public static final long DEFAULT_MAX_FILE_BYTES = 256L * 1024 * 1024;

    /** Classpath location of the bundled documentation-range database (tests and demos). */
    public static final String DOCUMENTATION_DATABASE = "/asn/asn-doc.csv";

    private final Duration maxAge;
    private final InstantSource clock;
    private final long maxFileBytes;

    public AsnDatabaseLoader(Duration maxAge, InstantSource clock) {
        this(maxAge, clock, DEFAULT_MAX_FILE_BYTES);
    }

    public AsnDatabaseLoader(Duration maxAge, InstantSource clock, long maxFileBytes) {
        if (maxAge == null || maxAge.isNegative() || maxAge.isZero()) {
            throw new IllegalArgumentException("pipeline.asnMaxAge must be positive, got " + maxAge);
        }
        if (maxFileBytes < 1) {
            throw new IllegalArgumentException("ASN maxFileBytes must be positive, got " + maxFileBytes);
        }
        this.maxAge = maxAge;
        this.clock = clock;
        this.maxFileBytes = maxFileBytes;
    }

    public Duration maxAge() {
        return maxAge;
    }

    InstantSource clock() {
        return clock;
    }

    /** Loads and verifies {@code file}; never throws for anything about the file. */
    public AsnLoadResult load(Path file) {
        Instant now = clock.instant();
        String name = String.valueOf(file.getFileName());
        try {
            if (!Files.exists(file)) {
                return failed(Reason.MISSING, "file " + name + " does not exist", now);
            }
            Path sidecar = file.resolveSibling(name + ".sha256");
            String expected;
            try {
                expected = sidecarHash(Files.readString(sidecar, StandardCharsets.UTF_8), name);
            } catch (NoSuchFileException e) {
                return failed(Reason.CHECKSUM_MISSING, "checksum file " + name + ".sha256 does not exist", now);
            } catch (IllegalArgumentException e) {
                return failed(
                        e.getMessage().startsWith("names") ? Reason.CHECKSUM_MISMATCH : Reason.CHECKSUM_MISSING,
                        "checksum file " + name + ".sha256 " + e.getMessage(),
                        now);
            }
            Instant modified = Files.getLastModifiedTime(file).toInstant();
            if (Duration.between(modified, now).compareTo(maxAge) > 0) {
                return failed(
                        Reason.STALE,
                        "file " + name + " was modified at " + modified + ", older than maxAge " + maxAge,
                        now);
            }
            long size = Files.size(file);
            if (size > maxFileBytes) {
                return failed(
                        Reason.TOO_LARGE,
                        "file " + name + " has " + size + " bytes, over the limit of " + maxFileBytes,
                        now);
            }
            byte[] content = Files.readAllBytes(file);
            String actual = sha256(content);
            if (!actual.equals(expected)) {
                return failed(
                        Reason.CHECKSUM_MISMATCH,
                        "file " + name + " has SHA-256 " + actual + ", its .sha256 says " + expected,
                        now);
            }
            AsnDatabase db;
            try {
                db = AsnCsvParser.parse(content);
            } catch (AsnFormatException e) {
                return failed(Reason.CORRUPT, "file " + name + " " + e.getMessage(), now);
            }
            if (db.size() == 0) {
                return failed(Reason.CORRUPT, "file " + name + " holds no range", now);
            }
            return new AsnLoadResult.Loaded(db, new AsnSource(file, actual, modified, now, db.size()));
        } catch (IOException | UncheckedIOException e) {
            return failed(
                    Reason.UNREADABLE,
                    "file " + name + " cannot be read (" + e.getClass().getSimpleName() + ")",
                    now);
        }
    }

    /** The hash in a {@code sha256sum} line; a named file must be {@code name} (any directory). */
    static String sidecarHash(String text, String name) {
        String line = text.strip();
        int nl = line.indexOf('\n');
        if (nl >= 0) {
            line = line.substring(0, nl).strip();
        }
        String[] parts = line.split("\\s+", 2);
        String hash = parts[0].toLowerCase(Locale.ROOT);
        if (hash.length() != 64 || !hash.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            throw new IllegalArgumentException("is not in sha256sum format (<64 hex digits>  <file name>)");
        }
        if (parts.length == 2) {
            String named = parts[1].startsWith("*") ? parts[1].substring(1) : parts[1];
            String base = Path.of(named.strip()).getFileName().toString();
            if (!base.equals(name)) {
                throw new IllegalArgumentException("names " + base + ", not " + name);
            }
        }
        return hash;
    }

    static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    /**
     * Writes the bundled documentation-range database and its {@code .sha256} into {@code dir}
     * (for tests and {@code proxypool demo}) and returns the CSV's path.
     */
    public static Path extractDocumentationDatabase(Path dir) throws IOException {
        Path csv = dir.resolve("asn-doc.csv");
        for (String suffix : new String[] {"", ".sha256"}) {
            try (InputStream in = AsnDatabaseLoader.class.getResourceAsStream(DOCUMENTATION_DATABASE + suffix)) {
                if (in == null) {
                    throw new IOException("resource " + DOCUMENTATION_DATABASE + suffix + " is missing");
                }
                Files.write(dir.resolve("asn-doc.csv" + suffix), in.readAllBytes());
            }
        }
        return csv;
    }

    private static AsnLoadResult failed(Reason reason, String detail, Instant at) {
        return new AsnLoadResult.Failed(new AsnLoadError(reason, detail, at));
    }
}
