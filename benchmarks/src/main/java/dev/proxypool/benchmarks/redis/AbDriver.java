package dev.proxypool.benchmarks.redis;

import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.sdk.redis.RedisPoolStore;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One version of the Redis store in {@link RedisAbBenchmark}: a pool of its own, extracted through
 * the store's public API ({@link RedisPoolStore#extract}, the product path with its coalescing).
 * {@link RedisAbBenchmark} defines this class in a class loader of its own per version, the rest
 * of that loader being the version's benchmarks jar, so two versions of the store run side by side
 * in one JVM; it calls the constructor, {@link #run} and {@link #close} by reflection. So this class
 * uses only what every version it is run against has: the store's public API and
 * {@code RedisBenchPool.load} and {@code twoLabelFilter}.
 */
public final class AbDriver implements AutoCloseable {

    private final RedisPoolStore store;
    private final Instant now = Instant.now();

    /** Opens the store on {@code prefix} and publishes {@code size} proxies (RedisBenchPool's pool). */
    public AbDriver(String host, int port, String prefix, int size) throws Exception {
        store = RedisPoolStore.connect(
                new RedisStoreConfig(
                        host,
                        port,
                        "",
                        "",
                        0,
                        prefix,
                        RedisStoreConfig.DEFAULTS.connectTimeout(),
                        Duration.ofSeconds(30),
                        16),
                StoreSettings.DEFAULTS);
        RedisBenchPool.load(store, size, now, 2);
    }

    /**
     * {@code extractions / threads} count=1 extractions with a random 2-label filter on each of
     * {@code threads} threads started together (thread t's random seeded {@code seed + t}).
     *
     * @throws IllegalStateException when an extraction comes back short (the pool ran dry)
     */
    public void run(int threads, int extractions, long seed) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> parts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long mine = seed + t;
                parts.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(mine);
                    go.await();
                    for (int i = 0; i < extractions / threads; i++) {
                        ExtractionRequest request = ExtractionRequest.builder(1)
                                .filter(RedisBenchPool.twoLabelFilter(random))
                                .build();
                        if (!(store.extract(request, now) instanceof ExtractionResult.Extracted)) {
                            throw new IllegalStateException("the pool ran dry: give it a larger --size");
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> part : parts) {
                part.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Override
    public void close() {
        store.close();
    }
}
