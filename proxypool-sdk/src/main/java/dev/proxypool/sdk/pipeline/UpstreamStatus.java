package dev.proxypool.sdk.pipeline;

import dev.proxypool.core.sequential.FetchOutcome;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * What an operator sees of one upstream's fetching: the last outcome and when, the streaks, and
 * the backoff in force.
 *
 * @param upstream          upstream name
 * @param lastOutcome       the last fetch's outcome, empty before the first fetch
 * @param lastFetchAt       wall-clock time of the last fetch
 * @param consecutiveErrors errors in a row (drives the backoff)
 * @param consecutiveEmpty  empty answers in a row
 * @param backoffSeconds    extra delay before the next fetch because of errors
 * @param lastDrops         records dropped by reason in the last fetch
 * @param published         proxies published by the last fetch
 */
public record UpstreamStatus(
        String upstream,
        Optional<FetchOutcome> lastOutcome,
        Optional<Instant> lastFetchAt,
        int consecutiveErrors,
        int consecutiveEmpty,
        long backoffSeconds,
        Map<String, Integer> lastDrops,
        int published) {}
