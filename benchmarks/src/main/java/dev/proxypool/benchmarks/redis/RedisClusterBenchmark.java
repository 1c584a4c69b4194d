package dev.proxypool.benchmarks.redis;

import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.redis.RedisClusterConfig;
import dev.proxypool.sdk.redis.RedisClusterPoolStore;
import dev.proxypool.sdk.redis.RedisPoolStore;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.testkit.PrivateRedisServer;
import dev.proxypool.testkit.RedisClusterServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Extractions/s of one Redis node ({@link RedisPoolStore} on a private redis-server) against a
 * 3-master Redis Cluster ({@link RedisClusterPoolStore} on the test kit's {@link RedisClusterServer},
 * no replicas, so no {@code WAIT}) under the same client load: count=1 with the 2-label filter of
 * {@link RedisBenchPool} over a fresh pool, 1 and 8 client threads. Next to each, the rate of a
 * trivial {@code EVALSHA} ({@code return 1}, one key in KEYS: spread over the slots on the cluster)
 * from the same Java client and threads, and the ratio of the two. Redis CPU per call is the sum
 * over the nodes of their main threads' CPU (INFO cpu). Prints markdown table rows
 * (benchmarks/redis/run.sh --cluster).
 *
 * <p>Arguments: {@code [--quick]} (a pool of 10,000 instead of 100,000 and fewer calls).
 */
public final class RedisClusterBenchmark {

    private static final int[] THREADS = {1, 8};
    private final Ticker ticker = Clocks.monotonic();
    private final Instant now = Clocks.wall().instant();

    static final String HEADER =
            "| setup | Redis nodes | pool | threads | trivial EVALSHA/s | extractions/s (count 1, 2-label) | ratio"
                    + " | Redis CPU µs/extraction (all nodes) |\n"
                    + "|---|---:|---:|---:|---:|---:|---:|---:|";

    public static void main(String[] args) throws Exception {
        boolean quick = List.of(args).contains("--quick");
        new RedisClusterBenchmark().run(quick ? 10_000 : 100_000, quick ? 2_000 : 20_000);
    }

    private void run(int size, int ops) throws Exception {
        System.out.println(HEADER);
        try (PrivateRedisServer single = PrivateRedisServer.start()) {
            List<Integer> ports = List.of(single.port());
            try (RedisClient trivial = RedisClient.builder()
                            .hostAndPort("127.0.0.1", single.port())
                            .build();
                    RedisPoolStore store =
                            RedisPoolStore.connect(singleConfig(single.port(), "ppbench:"), StoreSettings.DEFAULTS);
                    RedisPoolStore warm =
                            RedisPoolStore.connect(singleConfig(single.port(), "ppwarm:"), StoreSettings.DEFAULTS)) {
                String sha = trivial.scriptLoad("return 1");
                setup("single node", ports, trivial, sha, store, warm, size, ops);
            }
        }
        try (RedisClusterServer cluster = RedisClusterServer.start(3, 0)) {
            List<Integer> ports = cluster.masterPorts();
            Set<HostAndPort> seeds = new HashSet<>();
            String sha = null;
            for (int port : ports) {
                seeds.add(new HostAndPort("127.0.0.1", port));
                sha = (String) RedisClusterServer.command(port, "SCRIPT", "LOAD", "return 1");
            }
            try (RedisClusterClient trivial =
                            RedisClusterClient.builder().nodes(seeds).build();
                    RedisClusterPoolStore store =
                            RedisClusterPoolStore.connect(clusterConfig(cluster, "ppbench:"), StoreSettings.DEFAULTS);
                    RedisClusterPoolStore warm =
                            RedisClusterPoolStore.connect(clusterConfig(cluster, "ppwarm:"), StoreSettings.DEFAULTS)) {
                setup(
                        "Redis Cluster, " + RedisClusterConfig.DEFAULT_SHARDS + " shards",
                        ports,
                        trivial,
                        sha,
                        store,
                        warm,
                        size,
                        ops);
            }
        }
    }

    private static RedisStoreConfig singleConfig(int port, String prefix) {
        return new RedisStoreConfig(
                "127.0.0.1", port, "", "", 0, prefix, Duration.ofSeconds(2), Duration.ofSeconds(30), 16);
    }

    private static RedisClusterConfig clusterConfig(RedisClusterServer cluster, String prefix) {
        return new RedisClusterConfig(
                cluster.nodes(),
                "",
                "",
                prefix,
                Duration.ofSeconds(2),
                Duration.ofSeconds(30),
                16,
                RedisClusterConfig.DEFAULT_SHARDS,
                0,
                RedisClusterConfig.DEFAULT_WAIT_TIMEOUT);
    }

    /**
     * Measures one setup: the trivial script and count=1 extractions on a pool of {@code size} in
     * {@code store}, after a warm-up ({@link JitWarmUp}, the same calls at 8 and 1 threads) on a pool of
     * its own in {@code warm}, the same kind of store under another prefix.
     */
    private void setup(
            String name,
            List<Integer> ports,
            UnifiedJedis trivial,
            String sha,
            PoolStore store,
            PoolStore warm,
            int size,
            int ops)
            throws Exception {
        IntConsumer evalsha = i -> trivial.evalsha(sha, List.of("{b" + (i & 1023) + "}:x"), List.of());
        // each round extracts ops / 8 + ops / 32: the warm pool holds twice what every round takes, so no set runs dry
        RedisBenchPool.load(warm, 0, (ops / 8 + ops / 32) * JitWarmUp.MAX_ROUNDS * 2, now, 2);
        String rounds = JitWarmUp.untilSettled(() -> {
            for (int threads : THREADS) {
                int calls = threads == 1 ? ops / 32 : ops / 8;
                rate(threads, calls, i -> extractOne(warm, i));
                rate(threads, calls, evalsha);
            }
        });
        System.err.printf(Locale.ROOT, "%s: warm-up %s%n", name, rounds);
        long loadStart = ticker.read();
        RedisBenchPool.load(store, size, now, 2);
        System.err.printf(Locale.ROOT, "%s: loaded %,d proxies in %.1f s%n", name, size, seconds(loadStart));
        for (int threads : THREADS) {
            double evalBefore = rate(threads, ops, evalsha);
            double cpu0 = cpuSeconds(ports);
            double extractRate = rate(threads, ops, i -> extractOne(store, i));
            double cpuPerCall = (cpuSeconds(ports) - cpu0) * 1e6 / ops;
            // the trivial rate just before and just after the row, their mean: one taken alone moved
            // with the machine enough to put a row at 127 %
            double evalRate = (evalBefore + rate(threads, ops, evalsha)) / 2;
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %d | %,d | %d | %,.0f | %,.0f | %.0f%% | %.1f |%n",
                    name,
                    ports.size(),
                    size,
                    threads,
                    evalRate,
                    extractRate,
                    100 * extractRate / evalRate,
                    cpuPerCall);
        }
    }

    private void extractOne(PoolStore store, int i) {
        ExtractionRequest req = ExtractionRequest.builder(1)
                .filter(RedisBenchPool.twoLabelFilter(new SplittableRandom(i)))
                .build();
        ExtractionResult r = store.extract(req, now);
        if (!(r instanceof ExtractionResult.Extracted e) || e.count() != 1) {
            throw new IllegalStateException("the pool ran dry: " + r);
        }
    }

    /** Calls/s of {@code calls} calls of {@code call} (given the call's number) from {@code threads} threads. */
    private double rate(int threads, int calls, IntConsumer call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            AtomicLong next = new AtomicLong();
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> parts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                parts.add(pool.submit(() -> {
                    go.await();
                    for (long i; (i = next.getAndIncrement()) < calls; ) {
                        call.accept((int) i);
                    }
                    return null;
                }));
            }
            long start = ticker.read();
            go.countDown();
            for (Future<?> f : parts) {
                f.get();
            }
            return calls / seconds(start);
        } finally {
            pool.shutdownNow();
        }
    }

    /** CPU seconds (user + system) of the main threads of the nodes on {@code ports}, summed. */
    private static double cpuSeconds(List<Integer> ports) {
        double sum = 0;
        for (int port : ports) {
            String info = (String) RedisClusterServer.command(port, "INFO", "cpu");
            for (String line : info.split("\r?\n")) {
                if (line.startsWith("used_cpu_sys_main_thread:") || line.startsWith("used_cpu_user_main_thread:")) {
                    sum += Double.parseDouble(
                            line.substring(line.indexOf(':') + 1).trim());
                }
            }
        }
        return sum;
    }

    private double seconds(long start) {
        return (ticker.read() - start) / 1e9;
    }
}
