package dev.proxypool.sdk.pipeline;

import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.IdempotencyKey;
import dev.proxypool.core.extract.IdempotencyStart;
import dev.proxypool.core.extract.PageRequest;
import dev.proxypool.core.extract.PoolQuery;
import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.ProxyPage;
import dev.proxypool.core.extract.PublishResult;
import dev.proxypool.core.extract.StoredProxy;
import dev.proxypool.core.extract.UpstreamCounts;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * A real store with hooks: {@code beforeRemove} runs in the writer's thread between a
 * publication's upserts and its removals, {@code onList} sees every page a refresh reads (and
 * which thread read it). For tests that put a concurrent reader exactly inside a publication.
 */
final class HookedStore implements PoolStore {

    private final PoolStore store;
    volatile Runnable beforeRemove = () -> {};
    volatile Runnable afterUpsert = () -> {};
    volatile BiConsumer<PoolQuery, ProxyPage> onList = (query, page) -> {};

    HookedStore(PoolStore store) {
        this.store = store;
    }

    @Override
    public PublishResult upsert(Collection<Proxy> proxies, Instant now) {
        PublishResult r = store.upsert(proxies, now);
        afterUpsert.run();
        return r;
    }

    @Override
    public int remove(Collection<String> proxyIds) {
        beforeRemove.run();
        return store.remove(proxyIds);
    }

    @Override
    public ProxyPage list(PoolQuery query, PageRequest page) {
        ProxyPage p = store.list(query, page);
        onList.accept(query, p);
        return p;
    }

    @Override
    public int purgeExpired(Instant now) {
        return store.purgeExpired(now);
    }

    @Override
    public int markChecked(Collection<String> proxyIds, Instant checkedAt) {
        return store.markChecked(proxyIds, checkedAt);
    }

    @Override
    public int markUnhealthy(Collection<String> proxyIds, Instant until) {
        return store.markUnhealthy(proxyIds, until);
    }

    @Override
    public int markHealthy(Collection<String> proxyIds) {
        return store.markHealthy(proxyIds);
    }

    @Override
    public boolean setDisabled(String proxyId, boolean disabled) {
        return store.setDisabled(proxyId, disabled);
    }

    @Override
    public ExtractionResult extract(ExtractionRequest request, Instant now) {
        return store.extract(request, now);
    }

    @Override
    public IdempotencyStart beginIdempotent(IdempotencyKey key, String fingerprint, Instant now) {
        return store.beginIdempotent(key, fingerprint, now);
    }

    @Override
    public boolean completeIdempotent(IdempotencyKey key, String fingerprint, String response, Instant now) {
        return store.completeIdempotent(key, fingerprint, response, now);
    }

    @Override
    public boolean abandonIdempotent(IdempotencyKey key, String fingerprint) {
        return store.abandonIdempotent(key, fingerprint);
    }

    @Override
    public int available(String upstream) {
        return store.available(upstream);
    }

    @Override
    public Map<String, UpstreamCounts> countsByUpstream() {
        return store.countsByUpstream();
    }

    @Override
    public Optional<StoredProxy> get(String proxyId) {
        return store.get(proxyId);
    }

    @Override
    public boolean isTombstoned(ProxyKey key, Instant now) {
        return store.isTombstoned(key, now);
    }

    @Override
    public void close() {
        store.close();
    }
}
