package dev.proxypool.sdk.coordination;

/**
 * What one {@link SnapshotPublisher#publish} did.
 *
 * @param published   false when nothing changed and no renewal or full rewrite was due (no new version)
 * @param epoch       the lineage written to
 * @param version     the version now at the head (the new one when published)
 * @param upserts     proxies added or changed in the delta
 * @param removed     ids removed in the delta
 * @param reset       the version was written as a reset marker (workers load the full)
 * @param deltaBytes  size of the delta (or reset) frame, 0 when not published
 * @param fullBytes   size of the full frame when it was rewritten, else 0
 * @param encodeNanos time spent hashing the content, diffing and encoding
 * @param redisNanos  time spent in the publish script round trip
 */
public record PublishReport(
        boolean published,
        long epoch,
        long version,
        int upserts,
        int removed,
        boolean reset,
        int deltaBytes,
        int fullBytes,
        long encodeNanos,
        long redisNanos) {

    PublishReport plusEncodeNanos(long nanos) {
        return new PublishReport(
                published,
                epoch,
                version,
                upserts,
                removed,
                reset,
                deltaBytes,
                fullBytes,
                encodeNanos + nanos,
                redisNanos);
    }
}
