package dev.proxypool.core.dispatch;

import java.util.ArrayList;
import java.util.List;

/**
 * What one pick asks for. A value: build it once per routing and reuse it across calls; derive
 * per-request variants with the {@code with...} methods (retries, target hosts, sequential moves),
 * or build one request with all of them at once with the canonical constructor. Each derivation
 * allocates a new request; the filter instance carries over, so the snapshot's identity cache still
 * finds its candidate set.
 *
 * @param filter           which proxies may serve; the same instance across calls keeps the
 *                         snapshot's candidate-set lookup to one identity check
 * @param strategy         how to choose among the usable candidates
 * @param hashKey          {@link Strategy#CONSISTENT_HASH}: the target host or a caller key; required
 *                         (non-empty) for that strategy, ignored otherwise; "" = none
 * @param domain           the destination domain: proxies banned for it are skipped; "" = none
 * @param excludedProxyIds proxies not to use this time (a retry goes to a different proxy);
 *                         checked linearly, so keep it short (the attempts so far)
 * @param upstreamIndex    {@link Strategy#SEQUENTIAL}: index of the current upstream in
 *                         {@code filter.upstreams()}; 0 when the filter names no upstream
 */
public record PickRequest(
        CandidateFilter filter,
        Strategy strategy,
        String hashKey,
        String domain,
        List<String> excludedProxyIds,
        int upstreamIndex) {

    /**
     * Validates and normalises: null strings mean "", null exclusions mean none (the list is copied).
     *
     * @throws IllegalArgumentException when the filter or strategy is missing, consistent hashing has
     *                                  no key, or {@code upstreamIndex} is outside the filter's upstreams
     */
    public PickRequest {
        if (filter == null) {
            throw new IllegalArgumentException("pick request: filter is missing");
        }
        if (strategy == null) {
            throw new IllegalArgumentException("pick request: strategy is missing");
        }
        hashKey = hashKey == null ? "" : hashKey;
        domain = domain == null ? "" : domain;
        excludedProxyIds = excludedProxyIds == null ? List.of() : List.copyOf(excludedProxyIds);
        if (strategy == Strategy.CONSISTENT_HASH && hashKey.isEmpty()) {
            throw new IllegalArgumentException(
                    "pick request: strategy consistentHash needs a hashKey (target host or caller key)");
        }
        int upstreams = Math.max(1, filter.upstreams().size());
        if (upstreamIndex < 0 || upstreamIndex >= upstreams) {
            throw new IllegalArgumentException("pick request: upstreamIndex " + upstreamIndex
                    + " is outside the filter's " + filter.upstreams().size() + " upstream(s)");
        }
    }

    /**
     * A request with no hash key, domain, exclusions, on the first upstream.
     *
     * @param filter   which proxies may serve
     * @param strategy how to choose (not {@link Strategy#CONSISTENT_HASH}, which needs a key)
     * @return the request
     */
    public static PickRequest of(CandidateFilter filter, Strategy strategy) {
        return new PickRequest(filter, strategy, "", "", List.of(), 0);
    }

    /**
     * For {@link Strategy#CONSISTENT_HASH}: the same key keeps its proxy.
     *
     * @param filter  which proxies may serve
     * @param hashKey the target host or a caller key, non-empty
     * @return the request
     */
    public static PickRequest consistentHash(CandidateFilter filter, String hashKey) {
        return new PickRequest(filter, Strategy.CONSISTENT_HASH, hashKey, "", List.of(), 0);
    }

    /**
     * This request with another consistent-hash key.
     *
     * @param key the target host or a caller key
     * @return a new request
     */
    public PickRequest withHashKey(String key) {
        return new PickRequest(filter, strategy, key, domain, excludedProxyIds, upstreamIndex);
    }

    /**
     * This request for another destination domain (proxies banned for it are skipped).
     *
     * @param d the domain; "" or null = none
     * @return a new request
     */
    public PickRequest withDomain(String d) {
        return new PickRequest(filter, strategy, hashKey, d, excludedProxyIds, upstreamIndex);
    }

    /**
     * This request on another upstream of a {@link Strategy#SEQUENTIAL} routing.
     *
     * @param index the current upstream's index in {@code filter.upstreams()}
     * @return a new request
     */
    public PickRequest withUpstreamIndex(int index) {
        return new PickRequest(filter, strategy, hashKey, domain, excludedProxyIds, index);
    }

    /**
     * This request with other excluded proxies.
     *
     * @param ids proxy ids not to use (keep it short: checked linearly); null = none
     * @return a new request
     */
    public PickRequest withExcluded(List<String> ids) {
        return new PickRequest(filter, strategy, hashKey, domain, ids, upstreamIndex);
    }

    /**
     * This request, also excluding {@code proxyId} (the proxy an attempt just failed on).
     *
     * @param proxyId the id to add to the exclusions
     * @return a new request
     */
    public PickRequest excluding(String proxyId) {
        List<String> ids = new ArrayList<>(excludedProxyIds.size() + 1);
        ids.addAll(excludedProxyIds);
        ids.add(proxyId);
        return withExcluded(ids);
    }

    boolean hasDomain() {
        return !domain.isEmpty();
    }

    /** Whether {@code proxyId} is excluded. Indexed loop: no iterator on the hot path. */
    boolean excludes(String proxyId) {
        List<String> ids = excludedProxyIds;
        for (int i = 0, n = ids.size(); i < n; i++) {
            if (proxyId.equals(ids.get(i))) {
                return true;
            }
        }
        return false;
    }
}
