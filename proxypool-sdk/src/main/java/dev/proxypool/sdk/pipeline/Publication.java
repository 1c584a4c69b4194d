package dev.proxypool.sdk.pipeline;

import dev.proxypool.core.model.Proxy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One atomic step of the pool's life (docs/design.md#collection-pipeline, P11): the proxies each upstream publishes and
 * the proxy ids that leave, applied together by {@link PoolPublisher} so the worker's snapshot
 * moves from the previous complete pool to the next one in one swap.
 *
 * @param upserts  proxies to add or refresh, by upstream (each proxy belongs to its key's upstream)
 * @param removals ids to remove (any state, not tombstoned), applied after the upserts
 */
public record Publication(Map<String, List<Proxy>> upserts, Set<String> removals) {

    public Publication {
        if (upserts == null || removals == null) {
            throw new IllegalArgumentException(
                    "publication needs upserts and removals, got " + upserts + "/" + removals);
        }
        Map<String, List<Proxy>> copy = new LinkedHashMap<>();
        upserts.forEach((upstream, proxies) -> {
            if (upstream == null || upstream.isBlank()) {
                throw new IllegalArgumentException("publication upstream must not be blank, got '" + upstream + "'");
            }
            copy.put(upstream, List.copyOf(proxies));
        });
        upserts = Collections.unmodifiableMap(copy);
        removals = Collections.unmodifiableSet(new LinkedHashSet<>(removals));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** True when it changes nothing. */
    public boolean isEmpty() {
        return removals.isEmpty() && upserts.values().stream().allMatch(List::isEmpty);
    }

    /** Collects one round's changes; not thread-safe. */
    public static final class Builder {
        private final Map<String, List<Proxy>> upserts = new LinkedHashMap<>();
        private final Set<String> removals = new LinkedHashSet<>();

        private Builder() {}

        /** Adds {@code proxies} to {@code upstream}'s part. */
        public Builder publish(String upstream, Collection<Proxy> proxies) {
            upserts.computeIfAbsent(upstream, u -> new ArrayList<>()).addAll(proxies);
            return this;
        }

        /** Removes these ids once the upserts are applied. */
        public Builder remove(Collection<String> proxyIds) {
            removals.addAll(proxyIds);
            return this;
        }

        public Publication build() {
            return new Publication(upserts, removals);
        }
    }
}
