package dev.proxypool.benchmarks.redis;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The benchmark's pool: {@code size} proxies over 4 upstreams and 2 protocols, labelled with one of
 * 8 countries and one of 2 types, so each 2-label filter (country, type) matches 1/16 of the pool,
 * its smallest index set (the country) holds 1/8 and half of that set passes the other label.
 */
final class RedisBenchPool {

    static final String[] COUNTRIES = {"US", "DE", "FR", "JP", "GB", "BR", "IN", "CA"};
    static final String[] TYPES = {"residential", "datacenter"};
    private static final int LOAD_CHUNK = 5000;

    private RedisBenchPool() {}

    static Proxy proxy(int n, Instant expiresAt) {
        ProxyKey key = new ProxyKey(
                n % 2 == 0 ? Protocol.HTTP : Protocol.SOCKS5,
                "10." + ((n >> 16) & 255) + "." + ((n >> 8) & 255) + "." + (n & 255),
                8000 + (n >>> 24),
                CredentialRef.NONE);
        return Proxy.builder(key)
                .provider("bench")
                .upstream("up-" + (n % 4))
                .labels(Labels.of(
                        "country", COUNTRIES[(n / 4) % COUNTRIES.length], "type", TYPES[(n / 32) % TYPES.length]))
                .expiresAt(expiresAt)
                .build();
    }

    /** Publishes proxies {@code 0..size-1} expiring 1 to 24 hours after {@code now}, from {@code loaders} threads. */
    static void load(PoolStore store, int size, Instant now, int loaders) throws Exception {
        load(store, 0, size, now, loaders);
    }

    /** Publishes proxies {@code first..end-1} (each {@link #proxy} number its own address) like {@link #load}. */
    static void load(PoolStore store, int first, int end, Instant now, int loaders) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(loaders);
        try {
            List<Future<?>> parts = new ArrayList<>();
            for (int from = first; from < end; from += LOAD_CHUNK) {
                int start = from;
                parts.add(pool.submit(() -> {
                    List<Proxy> chunk = new ArrayList<>(LOAD_CHUNK);
                    for (int n = start; n < Math.min(end, start + LOAD_CHUNK); n++) {
                        chunk.add(proxy(n, now.plus(Duration.ofHours(1)).plusSeconds((n * 7919L) % 82_800)));
                    }
                    int added = store.upsert(chunk, now).added();
                    if (added != chunk.size()) {
                        throw new IllegalStateException("loaded " + added + " of " + chunk.size());
                    }
                    return null;
                }));
            }
            for (Future<?> f : parts) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** A random 2-label filter and a protocol (half the pool each): country, type and protocol. */
    static ExtractionFilter twoLabelAndProtocolFilter(SplittableRandom random) {
        return ExtractionFilter.builder()
                .country(COUNTRIES[random.nextInt(COUNTRIES.length)])
                .label("type", TYPES[random.nextInt(TYPES.length)])
                .protocol(random.nextBoolean() ? Protocol.HTTP : Protocol.SOCKS5)
                .build();
    }

    /** A random 2-label filter: country and type. */
    static ExtractionFilter twoLabelFilter(SplittableRandom random) {
        return ExtractionFilter.builder()
                .country(COUNTRIES[random.nextInt(COUNTRIES.length)])
                .label("type", TYPES[random.nextInt(TYPES.length)])
                .build();
    }
}
