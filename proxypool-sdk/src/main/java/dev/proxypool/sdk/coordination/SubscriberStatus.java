package dev.proxypool.sdk.coordination;

import java.time.Duration;
import java.time.Instant;

/**
 * A worker's view of its snapshot feed, for health checks, metrics ({@code snapshot version and
 * age}, docs/design.md#snapshots-and-distribution N6) and {@code GET /v1/admin/snapshot}.
 *
 * @param epoch            lineage of the held content (0 before the first load)
 * @param version          control-plane version of the held content (0 before the first load)
 * @param proxies          proxies in the held content
 * @param publishedAt      when the held version was published ({@link Instant#EPOCH} before the first load)
 * @param validUntil       end of its validity ({@link Instant#EPOCH} before the first load)
 * @param age              now minus publishedAt (never negative)
 * @param withinValidity   a content is held and now is before validUntil
 * @param subscribed       the pub/sub subscription is up
 * @param storeReachable   the last Redis read succeeded
 * @param sinceLastContact time since the last successful Redis read (the worker's own monotonic clock)
 * @param deltasApplied    deltas applied since start
 * @param fullLoads        full snapshots loaded since start (first load, gaps, resets)
 * @param resyncRequests   times this worker asked the control plane for a full rewrite
 * @param lastError        the last failure, empty when none
 */
public record SubscriberStatus(
        long epoch,
        long version,
        int proxies,
        Instant publishedAt,
        Instant validUntil,
        Duration age,
        boolean withinValidity,
        boolean subscribed,
        boolean storeReachable,
        Duration sinceLastContact,
        long deltasApplied,
        long fullLoads,
        long resyncRequests,
        String lastError) {

    /** Whether the worker holds content but it is past its validity: serve it, and say so. */
    public boolean stale() {
        return version > 0 && !withinValidity;
    }

    /** Time left in the validity period (negative once past it). */
    public Duration remainingValidity(Instant now) {
        return Duration.between(now, validUntil);
    }
}
