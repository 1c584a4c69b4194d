package dev.proxypool.sdk.redis;

import java.util.List;

/**
 * How a Redis store served its count=1 fast-path extractions since it was opened: concurrent
 * requests share calls (docs/architecture.md, "Coalescing"), so {@code requests / calls} is the
 * mean batch, 1 when requests never met.
 *
 * @param calls         script calls made for count=1 requests (each serves one or more)
 * @param requests      count=1 requests those calls served (answered or failed with their call)
 * @param queueTimeouts requests that waited longer than the connect timeout for a call and failed
 *                      unsent (retryable): Redis answered slower than the requests arrived
 */
public record ExtractionCoalescing(long calls, long requests, long queueTimeouts) {

    /** The counts of {@code coalescers} together (a store's one, or a cluster's one per shard). */
    static ExtractionCoalescing of(List<? extends Coalescer<?, ?>> coalescers) {
        long calls = 0;
        long requests = 0;
        long timeouts = 0;
        for (Coalescer<?, ?> c : coalescers) {
            calls += c.calls();
            requests += c.requests();
            timeouts += c.tooLongWaits();
        }
        return new ExtractionCoalescing(calls, requests, timeouts);
    }
}
