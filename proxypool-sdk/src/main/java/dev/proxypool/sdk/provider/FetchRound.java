package dev.proxypool.sdk.provider;

import dev.proxypool.core.model.Proxy;
import java.util.List;

/**
 * One round over all enabled upstreams (docs/design.md#collection-pipeline, P2–P5): a report per upstream in configured
 * order, and the merged raw candidates deduplicated on (protocol, host, port, credentialRef).
 *
 * @param reports    one per upstream, in the order the sources were given
 * @param candidates merged candidates; for a key listed by several upstreams, the first upstream in
 *                   order wins
 * @param duplicates candidates collapsed because an earlier upstream listed the same key
 */
public record FetchRound(List<FetchReport> reports, List<Proxy> candidates, int duplicates) {

    /**
     * Copies the lists.
     */
    public FetchRound {
        reports = List.copyOf(reports);
        candidates = List.copyOf(candidates);
    }
}
