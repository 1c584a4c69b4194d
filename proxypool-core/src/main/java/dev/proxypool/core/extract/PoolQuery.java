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

    public static final PoolQuery ALL = new PoolQuery(ExtractionFilter.ANY, Optional.empty());

    public PoolQuery {
        if (filter == null || state == null) {
            throw new IllegalArgumentException("query needs a filter and a state (maybe empty)");
        }
    }

    public static PoolQuery of(ExtractionFilter filter) {
        return new PoolQuery(filter, Optional.empty());
    }

    public PoolQuery withState(ProxyState s) {
        return new PoolQuery(filter, Optional.of(s));
    }

    public boolean matches(Proxy proxy, ProxyState proxyState) {
        return (state.isEmpty() || state.get() == proxyState) && filter.matches(proxy);
    }
}
