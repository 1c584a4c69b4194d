package dev.proxypool.core.dispatch;

import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.model.Protocol;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which proxies may serve: upstreams, protocols, labels, minimum remaining TTL, maximum health age.
 * A value type: equal filters share one memoized candidate set per snapshot.
 *
 * @param upstreams       allowed upstream names, in routing order; empty = any upstream
 * @param protocols       allowed protocols; empty = any
 * @param labels          required labels
 * @param minRemainingTtl a proxy must have at least this much life left; zero = any unexpired
 * @param maxHealthAge    the last successful check must be at most this old; zero = no limit
 */
public record CandidateFilter(
        List<String> upstreams,
        Set<Protocol> protocols,
        LabelSelector labels,
        Duration minRemainingTtl,
        Duration maxHealthAge) {

    /** Every proxy of the snapshot that has not expired: no upstream, protocol, label, TTL or health-age condition. */
    public static final CandidateFilter ANY =
            new CandidateFilter(List.of(), Set.of(), LabelSelector.ANY, Duration.ZERO, Duration.ZERO);

    /**
     * Validates and normalises: null lists, sets, selectors and durations mean "any"; the
     * collections are copied (immutable).
     *
     * @throws IllegalArgumentException when an upstream name is blank or repeated, or a duration is negative
     */
    public CandidateFilter {
        if (upstreams == null) {
            upstreams = List.of();
        }
        for (String u : upstreams) {
            if (u == null || u.isBlank()) {
                throw new IllegalArgumentException("filter names an empty upstream");
            }
        }
        if (new LinkedHashSet<>(upstreams).size() != upstreams.size()) {
            throw new IllegalArgumentException("filter names an upstream twice: " + upstreams);
        }
        upstreams = List.copyOf(upstreams);
        protocols = protocols == null || protocols.isEmpty()
                ? Set.of()
                : Collections.unmodifiableSet(EnumSet.copyOf(protocols));
        labels = labels == null ? LabelSelector.ANY : labels;
        minRemainingTtl = minRemainingTtl == null ? Duration.ZERO : minRemainingTtl;
        maxHealthAge = maxHealthAge == null ? Duration.ZERO : maxHealthAge;
        if (minRemainingTtl.isNegative()) {
            throw new IllegalArgumentException("minRemainingTtl must not be negative, got " + minRemainingTtl);
        }
        if (maxHealthAge.isNegative()) {
            throw new IllegalArgumentException("maxHealthAge must not be negative, got " + maxHealthAge);
        }
    }

    /**
     * This filter with other upstreams. Build derived filters once (per routing, per label set),
     * not per request: the snapshot finds a reused instance by identity.
     *
     * @param u allowed upstream names in routing order; empty or null = any
     * @return a new filter
     */
    public CandidateFilter withUpstreams(List<String> u) {
        return new CandidateFilter(u, protocols, labels, minRemainingTtl, maxHealthAge);
    }

    /**
     * This filter with other protocols.
     *
     * @param p allowed protocols; empty or null = any
     * @return a new filter
     */
    public CandidateFilter withProtocols(Set<Protocol> p) {
        return new CandidateFilter(upstreams, p, labels, minRemainingTtl, maxHealthAge);
    }

    /**
     * This filter with other required labels.
     *
     * @param l the label selector; null = any
     * @return a new filter
     */
    public CandidateFilter withLabels(LabelSelector l) {
        return new CandidateFilter(upstreams, protocols, l, minRemainingTtl, maxHealthAge);
    }

    /**
     * This filter with another minimum remaining TTL.
     *
     * @param d the life a proxy must have left; zero or null = any unexpired
     * @return a new filter
     */
    public CandidateFilter withMinRemainingTtl(Duration d) {
        return new CandidateFilter(upstreams, protocols, labels, d, maxHealthAge);
    }

    /**
     * This filter with another maximum health age.
     *
     * @param d how old the last successful check may be; zero or null = no limit
     * @return a new filter
     */
    public CandidateFilter withMaxHealthAge(Duration d) {
        return new CandidateFilter(upstreams, protocols, labels, minRemainingTtl, d);
    }
}
