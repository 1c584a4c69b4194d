package dev.proxypool.sdk.provider;

import dev.proxypool.core.sequential.FetchOutcome;

/**
 * Knows one vendor or source format: builds the request (file, URL template, auth) and parses the
 * answer into normalized {@link dev.proxypool.core.model.Proxy} candidates. The source is untrusted:
 * the answer is size-capped, every record is validated, and a bad record is dropped and counted by
 * reason while the good ones are kept.
 *
 * <p>Contract: {@link #fetch} never throws for anything the source does; every failure comes back
 * as a report with an {@link FetchOutcome.Error}. Implementations are thread-safe (one adapter
 * may serve several upstreams at once) and do blocking I/O, meant for a virtual thread.
 */
@FunctionalInterface
public interface ProviderAdapter {

    /**
     * Fetches one upstream once; blocks until done or the context's timeout.
     *
     * @param ctx the upstream, its params and the deadline
     * @return the report; never null, never thrown
     */
    FetchReport fetch(FetchContext ctx);

    /**
     * Whether each successful answer is the upstream's whole stock, so that a proxy of the pool it
     * no longer lists leaves at once, one with an expiry included ({@code session_gateway}: a
     * session it replaced). Otherwise a proxy leaves after two successful answers without it, and
     * one with an expiry only at its expiry (a list API's rented batches).
     *
     * @return false unless the adapter lists its whole stock every time
     */
    default boolean answersWholeStock() {
        return false;
    }
}
