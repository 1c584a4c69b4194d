package dev.proxypool.sdk.pipeline;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One upstream's de-listing watch (docs/design.md#collection-pipeline, P13): a proxy of the pool
 * that a successful fetch of its upstream no longer lists is missed once; missed by the next
 * successful fetch too, it is withdrawn. Listed again in between, it is forgiven. Only answers
 * with at least one valid candidate count: a failed fetch says nothing, and an empty one is
 * treated as a broken answer (a file caught mid-rewrite, a vendor API answering {@code []} on a
 * hiccup), never as "sells nothing any more". Proxies with an expiry are rentals: they leave at
 * their expiry (TTLs), not by absence, since vendors of rented proxies answer each call with a new
 * batch rather than the whole list. An adapter that answers its whole stock every time
 * ({@link dev.proxypool.sdk.provider.ProviderAdapter#answersWholeStock()}) is taken at its word: what
 * it no longer lists leaves at once, expiry or not.
 *
 * <p>Not thread-safe: the pipeline uses it under its round lock.
 */
final class Delisting {

    /** Successful fetches in a row a proxy must be missing from before it leaves. */
    static final int MISSES_TO_WITHDRAW = 2;

    private final Map<ProxyKey, Integer> misses = new HashMap<>();

    /**
     * Judges one successful answer.
     *
     * @param pooled     the upstream's proxies in the pool now
     * @param listed     the answer's valid candidates (at least one)
     * @param wholeStock the answer is the upstream's whole stock: a proxy missing from it leaves at once
     * @return the ids to withdraw
     */
    List<String> answer(List<Proxy> pooled, List<Proxy> listed, boolean wholeStock) {
        Set<ProxyKey> keys = HashSet.newHashSet(listed.size());
        for (Proxy p : listed) {
            keys.add(p.key());
        }
        Map<ProxyKey, Integer> next = new HashMap<>();
        List<String> withdraw = new ArrayList<>();
        for (Proxy p : pooled) {
            if ((p.expires() && !wholeStock) || keys.contains(p.key())) {
                continue;
            }
            int n = misses.getOrDefault(p.key(), 0) + 1;
            if (n >= MISSES_TO_WITHDRAW || wholeStock) {
                withdraw.add(p.id());
            } else {
                next.put(p.key(), n);
            }
        }
        // keys listed again, withdrawn, or gone from the pool otherwise start over
        misses.clear();
        misses.putAll(next);
        return withdraw;
    }
}
