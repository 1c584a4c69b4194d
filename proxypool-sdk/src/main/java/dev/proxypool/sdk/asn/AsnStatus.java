package dev.proxypool.sdk.asn;

import java.time.Instant;
import java.util.Optional;

/**
 * What {@link AsnDatabaseHolder} serves and whether a new validated snapshot may be published.
 *
 * @param current   the database in use, if any load ever succeeded
 * @param lastError the failure of the latest load attempt, empty when it succeeded
 * @param fresh     the database in use is no older than {@code maxAge} right now
 */
public record AsnStatus(Optional<AsnSource> current, Optional<AsnLoadError> lastError, boolean fresh) {

    /** True only when a database is loaded, the latest load succeeded, and it is fresh. */
    public boolean publishable() {
        return current.isPresent() && lastError.isEmpty() && fresh;
    }

    /** When the database in use was loaded. */
    public Optional<Instant> loadedAt() {
        return current.map(AsnSource::loadedAt);
    }

    /** Ranges in the database in use; 0 when none is loaded. */
    public int entries() {
        return current.map(AsnSource::entries).orElse(0);
    }

    /** SHA-256 of the database in use. */
    public Optional<String> sha256() {
        return current.map(AsnSource::sha256);
    }
}
