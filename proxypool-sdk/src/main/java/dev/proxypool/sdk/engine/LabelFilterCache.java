package dev.proxypool.sdk.engine;

import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.model.LabelSelector;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One routing's filters for requests that add labels of their own (username options such as
 * {@code -country-us}): the routing's filter with the request's labels merged in, built once per
 * distinct label set and then returned as the same instance. The same instance is what lets the
 * snapshot find the filter's candidate set by identity instead of hashing a new filter record
 * (and building its selector, lists and sets) on every request.
 *
 * <p>Bounded: at most {@value #MAX_ENTRIES} label sets per routing (a client cannot grow it
 * without limit by inventing labels); beyond that a filter is built per request as before, which
 * is correct, only slower. Thread-safe; a lookup of a known label set allocates nothing.
 */
final class LabelFilterCache {

    static final int MAX_ENTRIES = 1024;

    private final CandidateFilter base;
    private final ConcurrentHashMap<Map<String, String>, CandidateFilter> byLabels = new ConcurrentHashMap<>();

    LabelFilterCache(CandidateFilter base) {
        this.base = base;
    }

    /** The routing's filter plus {@code requestLabels} (a request label overrides the routing's value for its key). */
    CandidateFilter withLabels(Map<String, String> requestLabels) {
        if (requestLabels.isEmpty()) {
            return base;
        }
        CandidateFilter cached = byLabels.get(requestLabels);
        if (cached != null) {
            return cached;
        }
        Map<String, String> merged = new TreeMap<>(base.labels().required());
        merged.putAll(requestLabels);
        CandidateFilter filter = base.withLabels(LabelSelector.of(merged));
        if (byLabels.size() < MAX_ENTRIES) {
            CandidateFilter raced = byLabels.putIfAbsent(Map.copyOf(requestLabels), filter);
            return raced != null ? raced : filter;
        }
        return filter;
    }

    /** Label sets cached now (tests). */
    int size() {
        return byLabels.size();
    }
}
