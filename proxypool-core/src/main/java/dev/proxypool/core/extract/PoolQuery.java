package dev.proxypool.core.extract;

import dev.proxypool.core.model.Proxy;
import java.util.Optional;

/**
 * Which stored proxies an admin listing shows ({@code GET /v1/admin/proxies?upstream=&state=&protocol=&label.k=}).
 *
 * @param filter protocol, upstream and labels, as for extraction
 * @param state  only this state; empty = both
 */
public record PoolQuery(ExtractionFilter filter, Optional<ProxyState> state) {

    /** Every stored proxy, both states. */
    public static final PoolQuery ALL = new PoolQuery(ExtractionFilter.ANY, Optional.empty());

    /**
     * Checks both parts are present.
     *
     * @throws IllegalArgumentException if the filter or the state option is null
     */
    public PoolQuery {
        if (filter == null || state == null) {
            throw new IllegalArgumentException("query needs a filter and a state (maybe empty)");
        }
    }

    /**
     * A query of both states.
     *
     * @param filter protocol, upstream and labels; not null
     * @return the query
     */
    public static PoolQuery of(ExtractionFilter filter) {
        return new PoolQuery(filter, Optional.empty());
    }

    /**
     * This query narrowed to one state.
     *
     * @param s the state to list; not null
     * @return a new query
     */
    public PoolQuery withState(ProxyState s) {
        return new PoolQuery(filter, Optional.of(s));
    }

    /**
     * Whether a stored proxy belongs in the listing.
     *
     * @param proxy      the stored proxy
     * @param proxyState its stored state
     * @return true if the state fits and the filter matches
     */
    public boolean matches(Proxy proxy, ProxyState proxyState) {
        return (state.isEmpty() || state.get() == proxyState) && filter.matches(proxy);
    }
}
