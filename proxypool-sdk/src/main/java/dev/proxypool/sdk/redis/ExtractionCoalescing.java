package dev.proxypool.sdk.redis;

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
public record ExtractionCoalescing(long calls, long requests, long queueTimeouts) {}
