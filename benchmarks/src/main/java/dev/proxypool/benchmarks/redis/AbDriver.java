package dev.proxypool.benchmarks.redis;

import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
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
import java.util.function.Consumer;

/**
 * One version of the Redis store in {@link RedisAbBenchmark}: a pool of its own, extracted through
 * the store's public API ({@link RedisPoolStore#extract}, the product path with its coalescing).
 * {@link RedisAbBenchmark} defines this class in a class loader of its own per version, the rest
 * of that loader being the version's benchmarks jar, so two versions of the store run side by side
 * in one JVM; it calls the constructor, {@link #run} and {@link #close} by reflection. So this class
 * uses only what every version it is run against has: the store's public API, the core's
 * {@code Clocks}, and {@code RedisBenchPool.load} and {@code twoLabelFilter}; the helpers the
 * other benchmarks share with it ({@link #open}, {@link #parallel}) are its own for that reason.
 */
public final class AbDriver implements AutoCloseable {

    private final RedisPoolStore store;
    private final Instant now = Clocks.wall().instant();

    /** Opens the store on {@code prefix} and publishes {@code size} proxies (RedisBenchPool's pool). */
    public AbDriver(String host, int port, String prefix, int size) throws Exception {
        store = open(host, port, prefix, StoreSettings.DEFAULTS);
        RedisBenchPool.load(store, size, now, 2);
    }

    /**
     * {@code extractions / threads} count=1 extractions with a random 2-label filter on each of
     * {@code threads} threads started together (thread t's random seeded {@code seed + t}).
     *
     * @throws IllegalStateException when an extraction comes back short (the pool ran dry)
     */
    public void run(int threads, int extractions, long seed) throws Exception {
        parallel(threads, extractions, seed, random -> {
            ExtractionRequest request = ExtractionRequest.builder(1)
                    .filter(RedisBenchPool.twoLabelFilter(random))
                    .build();
            if (!(store.extract(request, now) instanceof ExtractionResult.Extracted)) {
                throw new IllegalStateException("the pool ran dry: give it a larger --size");
            }
        });
    }

    /**
     * The store on a running Redis as the benchmarks open it: a long read timeout (on a machine shared
     * with other builds a stall must slow a run, not end it) and a pool of 16 connections.
     */
    static RedisPoolStore open(String host, int port, String prefix, StoreSettings settings) {
        return RedisPoolStore.connect(
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
                settings);
    }

    /**
     * {@code ops / threads} calls of {@code call} on each of {@code threads} threads, started together (thread
     * {@code t} with a random of seed {@code seed + t}); returns the seconds from the start to the last call's end.
     */
    static double parallel(int threads, int ops, long seed, Consumer<SplittableRandom> call) throws Exception {
        Ticker ticker = Clocks.monotonic();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> parts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long mine = seed + t;
                parts.add(pool.submit(() -> {
                    SplittableRandom random = new SplittableRandom(mine);
                    go.await();
                    for (int i = 0; i < ops / threads; i++) {
                        call.accept(random);
                    }
                    return null;
                }));
            }
            long start = ticker.read();
            go.countDown();
            for (Future<?> part : parts) {
                part.get();
            }
            return (ticker.read() - start) / 1e9;
        } finally {
            pool.shutdown();
        }
    }

    @Override
    public void close() {
        store.close();
    }
}
