package dev.proxypool.sdk.pipeline;

import dev.proxypool.core.extract.PublishResult;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.engine.PoolEngine;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Publishes a {@link Publication} so that readers of the engine's snapshot see the old complete
 * pool or the new one, never a mix (docs/design.md#collection-pipeline, P11). Why this order:
 * <ol>
 *   <li>everything slow (fetch, validation, ranking) is done before, so the store writes of one
 *       round are back to back;</li>
 *   <li>the writes and the snapshot rebuild run inside {@link PoolEngine#publish}, which holds the
 *       engine's refresh lock: a concurrent {@code refresh()} (an application's
 *       {@code addProxies}, an admin action) waits instead of building a snapshot from a
 *       half-applied round;</li>
 *   <li>upserts first, removals second, one rebuild last: the intermediate store states are never
 *       turned into a snapshot by this engine.</li>
 * </ol>
 * Scope: the guarantee is for the engine this publisher writes through. Another process reading
 * the same shared store builds its own snapshots and is ordered by the stage lease and snapshot
 * versions, not by this lock. A store failure part-way leaves the engine's snapshot as it was (no
 * rebuild), while a Redis store may keep the batches written before the failure; the next round
 * publishes again (upserts are idempotent).
 *
 * <p>Thread-safe: publications through one engine are serialized by its lock.
 */
public final class PoolPublisher {

    /** What one publication did: store results by upstream, removed count, the snapshot version built. */
    public record Published(Map<String, PublishResult> byUpstream, int removed, long snapshotVersion) {

        public Published {
            byUpstream = Map.copyOf(byUpstream);
        }

        /** Proxies added or refreshed in the store for {@code upstream}. */
        public int published(String upstream) {
            PublishResult r = byUpstream.get(upstream);
            return r == null ? 0 : r.added() + r.refreshed();
        }

        /** Proxies added or refreshed over every upstream. */
        public int published() {
            int n = 0;
            for (PublishResult r : byUpstream.values()) {
                n += r.added() + r.refreshed();
            }
            return n;
        }
    }

    private final PoolEngine engine;
    private final InstantSource wall;

    public PoolPublisher(PoolEngine engine, InstantSource wall) {
        if (engine == null || wall == null) {
            throw new IllegalArgumentException(
                    "publisher needs an engine and a wall clock, got " + engine + "/" + wall);
        }
        this.engine = engine;
        this.wall = wall;
    }

    /** Applies {@code publication} to the store and swaps in the snapshot built from the result, as one step. */
    public Published publish(Publication publication) {
        record Applied(Map<String, PublishResult> results, int removed) {}
        Applied applied = engine.publish(() -> {
            Map<String, PublishResult> results = new LinkedHashMap<>();
            var now = wall.instant();
            for (Map.Entry<String, List<Proxy>> e : publication.upserts().entrySet()) {
                if (!e.getValue().isEmpty()) {
                    results.put(e.getKey(), engine.store().publish(e.getKey(), e.getValue(), now));
                }
            }
            int removed = publication.removals().isEmpty() ? 0 : engine.store().remove(publication.removals());
            return new Applied(results, removed);
        });
        return new Published(
                applied.results(), applied.removed(), engine.snapshot().version());
    }
}
