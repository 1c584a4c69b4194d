package dev.proxypool.sdk.coordination;

import dev.proxypool.core.model.Proxy;
import java.util.ArrayList;
import java.util.List;

/**
 * How a worker takes its share of every proxy's concurrency (docs/design.md#capacity C5: with {@code w} workers each
 * gets {@code max(1, maxConcurrency / w)}).
 */
public sealed interface WorkerShare {

    /**
     * The engine divides: it was built with {@code new PoolEngine(..., workers)} (so its
     * {@code RuntimeRegistry} gives {@code max(1, maxConcurrency / workers)}), typically with the
     * planned worker count from config. Content reaches the engine unchanged.
     */
    record Fixed() implements WorkerShare {}

    /**
     * The live worker count from the {@link WorkerRegistry} divides: the engine must be built with
     * {@code workers = 1}; each proxy reaches it with {@code maxConcurrency = max(1, maxConcurrency / live)},
     * and when the count changes the last content is handed over again, so the engine's
     * {@code RuntimeRegistry} moves every capacity limit to the new share (in-flight work is kept).
     */
    record Live() implements WorkerShare {}

    /** The content with each proxy's concurrency divided among {@code workers} (the same list when 1). */
    static List<Proxy> divide(List<Proxy> proxies, int workers) {
        if (workers <= 1) {
            return proxies;
        }
        List<Proxy> out = new ArrayList<>(proxies.size());
        for (Proxy p : proxies) {
            int share = Math.max(1, p.maxConcurrency() / workers);
            out.add(
                    share == p.maxConcurrency()
                            ? p
                            : p.toBuilder().maxConcurrency(share).build());
        }
        return out;
    }
}
