package dev.proxypool.sdk.pipeline;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.engine.PoolEngine;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.List;

/**
 * The collection writer's watch over a store that can lose its content behind its back (a Redis
 * restarted without persistence, a {@code FLUSHALL}; docs/reliability.md): the writer marks the
 * content with each publication ({@link #mark}) and checks the mark every round ({@link #check});
 * when it is gone, the last pool it saw is republished at once, instead of the gateway serving an
 * empty pool until each upstream's next fetch.
 *
 * <p>Not thread-safe: the pipeline calls it under its round lock.
 */
final class ContentGuard {

    private static final Logger LOG = System.getLogger(ContentGuard.class.getName());

    private final PoolEngine engine;
    private final PoolPublisher publisher;
    /** The pool as the writer last saw it in place. */
    private List<Proxy> lastContent = List.of();

    ContentGuard(PoolEngine engine, PoolPublisher publisher) {
        this.engine = engine;
        this.publisher = publisher;
    }

    /**
     * Remembers the pool while the mark is there, republishes it when the mark is gone. The
     * snapshot is read before the check: one built before the loss is whole, and once the store
     * lost its content the mark is already gone, so an empty snapshot built from it is never kept.
     */
    void check() {
        List<Proxy> seen = engine.snapshot().proxies();
        boolean lost;
        try {
            lost = engine.store().lostContent();
        } catch (RuntimeException e) {
            return; // store unreachable: nothing to republish into; the next round asks again
        }
        if (!lost) {
            lastContent = seen;
            return;
        }
        LOG.log(
                Level.WARNING,
                "the pool store lost its content (a Redis restarted empty or flushed): republishing the last {0}"
                        + " proxies now",
                lastContent.size());
        Publication.Builder restore = Publication.builder();
        for (Proxy proxy : lastContent) {
            restore.publish(proxy.upstream(), List.of(proxy));
        }
        Publication p = restore.build();
        if (!p.isEmpty()) {
            publisher.publish(p);
        }
        mark();
    }

    /** Marks the content in place; a failure only delays noticing a loss until the next publication. */
    void mark() {
        try {
            engine.store().markContent();
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "pool content mark not written ({0}); a lost store is noticed after the next publication",
                    e.getMessage());
        }
    }
}
