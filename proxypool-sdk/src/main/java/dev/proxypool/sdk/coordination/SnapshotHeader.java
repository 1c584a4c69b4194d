package dev.proxypool.sdk.coordination;

import java.time.Instant;

/**
 * What every snapshot frame says about the pool content it leads to.
 *
 * @param epoch             the publisher lineage: random when a control plane finds no snapshot in
 *                          Redis, kept across control-plane restarts; a worker seeing another epoch
 *                          takes the full snapshot whatever its version
 * @param version           the content's version, strictly increasing within an epoch
 * @param publishedAtMillis wall-clock publish time, epoch milliseconds (the control plane's clock)
 * @param validUntilMillis  wall-clock end of the validity period, epoch milliseconds: workers serve
 *                          this content without news from the control plane until then
 * @param size              proxies in the content
 * @param digest            {@link ContentDigest} of the content: a worker checks it after every delta
 */
public record SnapshotHeader(
        long epoch, long version, long publishedAtMillis, long validUntilMillis, int size, long digest) {

    public SnapshotHeader {
        if (version < 1) {
            throw new IllegalArgumentException("snapshot version must be at least 1, got " + version);
        }
        if (validUntilMillis < publishedAtMillis) {
            throw new IllegalArgumentException(
                    "snapshot validUntil " + validUntilMillis + " is before its publish time " + publishedAtMillis);
        }
        if (size < 0) {
            throw new IllegalArgumentException("snapshot size must not be negative, got " + size);
        }
    }

    public Instant publishedAt() {
        return Instant.ofEpochMilli(publishedAtMillis);
    }

    public Instant validUntil() {
        return Instant.ofEpochMilli(validUntilMillis);
    }
}
