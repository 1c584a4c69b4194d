package dev.proxypool.server.api.distribution;

import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.IdempotencyKey;
import dev.proxypool.core.extract.IdempotencyStart;
import dev.proxypool.core.extract.PageRequest;
import dev.proxypool.core.extract.PoolQuery;
import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.ProxyPage;
import dev.proxypool.core.extract.PublishResult;
import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.extract.StoredProxy;
import dev.proxypool.core.extract.UpstreamCounts;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real store decorated so a test can take it "down": while down, the calls a shared store makes
 * over the network throw {@link StoreUnavailableException} and change nothing. Counts the extract
 * calls that reached the real store.
 */
final class SwitchableStore implements PoolStore {

    private final PoolStore real;
    private volatile boolean down;
    private volatile boolean extractDown;
    final AtomicInteger extractCalls = new AtomicInteger();

    SwitchableStore(PoolStore real) {
        this.real = real;
    }

    void down(boolean d) {
        down = d;
    }

    /** Only {@link #extract} fails: the store answered idempotency, then went away mid-request. */
    void extractDown(boolean d) {
        extractDown = d;
    }

    private void check() {
        if (down) {
            throw new StoreUnavailableException("test store is down");
        }
    }

    @Override
    public PublishResult upsert(Collection<Proxy> proxies, Instant now) {
        check();
        return real.upsert(proxies, now);
    }

    @Override
    public int remove(Collection<String> proxyIds) {
        check();
        return real.remove(proxyIds);
    }

    @Override
    public int purgeExpired(Instant now) {
        check();
        return real.purgeExpired(now);
    }

    @Override
    public int markChecked(Collection<String> proxyIds, Instant checkedAt) {
        check();
        return real.markChecked(proxyIds, checkedAt);
    }

    @Override
    public int markUnhealthy(Collection<String> proxyIds, Instant until) {
        check();
        return real.markUnhealthy(proxyIds, until);
    }

    @Override
    public int markHealthy(Collection<String> proxyIds) {
        check();
        return real.markHealthy(proxyIds);
    }

    @Override
    public boolean setDisabled(String proxyId, boolean disabled) {
        check();
        return real.setDisabled(proxyId, disabled);
    }

    @Override
    public ExtractionResult extract(ExtractionRequest request, Instant now) {
        check();
        if (extractDown) {
            throw new StoreUnavailableException("test store timed out on extract");
        }
        extractCalls.incrementAndGet();
        return real.extract(request, now);
    }

    @Override
    public IdempotencyStart beginIdempotent(IdempotencyKey key, String fingerprint, Instant now) {
        check();
        return real.beginIdempotent(key, fingerprint, now);
    }

    @Override
    public boolean completeIdempotent(IdempotencyKey key, String fingerprint, String response, Instant now) {
        check();
        return real.completeIdempotent(key, fingerprint, response, now);
    }

    @Override
    public boolean abandonIdempotent(IdempotencyKey key, String fingerprint) {
        check();
        return real.abandonIdempotent(key, fingerprint);
    }

    @Override
    public int available(String upstream) {
        check();
        return real.available(upstream);
    }

    @Override
    public Map<String, UpstreamCounts> countsByUpstream() {
        check();
        return real.countsByUpstream();
    }

    @Override
    public Optional<StoredProxy> get(String proxyId) {
        check();
        return real.get(proxyId);
    }

    @Override
    public ProxyPage list(PoolQuery query, PageRequest page) {
        check();
        return real.list(query, page);
    }

    @Override
    public boolean isTombstoned(ProxyKey key, Instant now) {
        check();
        return real.isTombstoned(key, now);
    }

    @Override
    public void close() {
        real.close();
    }
}
