package dev.proxypool.benchmarks.cluster;

import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.coordination.ContentDigest;
import dev.proxypool.sdk.coordination.PublishReport;
import dev.proxypool.sdk.coordination.SnapshotCodec;
import dev.proxypool.sdk.coordination.SnapshotFrame;
import dev.proxypool.sdk.coordination.SnapshotHeader;
import dev.proxypool.sdk.coordination.SnapshotPublisher;
import dev.proxypool.sdk.coordination.SnapshotSubscriber;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.LongSupplier;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * Snapshot distribution costs for 10,000 and 100,000 proxies (benchmarks/cluster/run.sh): each
 * stage alone (engine snapshot build, content digest, full encode and decode, plain and deflated),
 * then through a running Redis with a publisher and a subscriber in this JVM whose consumer
 * rebuilds a worker engine: full publish + propagation, and a one-proxy change with the full
 * rewritten on every version ({@code fullEvery=1}, the default) and with deltas only
 * ({@code fullEvery=64}); plus the frame sizes of one-proxy changes. Every figure is the median of
 * several repetitions after warm-up, in milliseconds. Prints markdown.
 *
 * <p>Arguments: {@code --port P [--quick]} ({@code --quick}: fewer repetitions, 10,000 only).
 */
public final class ClusterSnapshotBenchmark {

    private final Ticker ticker = Clocks.monotonic();
    private final InstantSource wall = Clocks.wall();
    private final int port;
    private final int reps;

    private ClusterSnapshotBenchmark(int port, int reps) {
        this.port = port;
        this.reps = reps;
    }

    public static void main(String[] args) throws Exception {
        int port = 6379;
        boolean quick = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--quick" -> quick = true;
                default -> throw new IllegalArgumentException("usage: --port P [--quick]");
            }
        }
        ClusterSnapshotBenchmark b = new ClusterSnapshotBenchmark(port, quick ? 3 : 7);
        List<Integer> sizes = quick ? List.of(10_000) : List.of(10_000, 100_000);
        StringBuilder stages = new StringBuilder();
        StringBuilder redis = new StringBuilder();
        StringBuilder deltas = new StringBuilder();
        for (int n : sizes) {
            List<Proxy> pool =
                    ClusterPool.proxies(n, Instant.parse("2026-11-30T12:00:00Z").plusSeconds(0), 42);
            b.stages(n, pool, stages);
            b.throughRedis(n, pool, redis, deltas);
            System.err.println("done: " + n);
        }
        System.out.println("## Stages in one JVM (no I/O), median ms\n");
        System.out.println(
                "| proxies | engine snapshot build | content digest | encode plain | full plain bytes (B/proxy)"
                        + " | decode plain | encode deflated | full deflated bytes (B/proxy) | decode deflated |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        System.out.print(stages);
        System.out.println("\n## Through Redis (publisher and subscriber in one JVM, loopback), median ms\n");
        System.out.println("| proxies | case | publish call (diff+encode / Redis) | full bytes | delta bytes"
                + " | publish → worker engine rebuilt | of which worker engine build |");
        System.out.println("|---:|---|---:|---:|---:|---:|---:|");
        System.out.print(redis);
        System.out.println("\n## One-proxy change frames (plain), bytes\n");
        System.out.println("| proxies | weight change | proxy removed | proxy added | empty renewal | full snapshot |");
        System.out.println("|---:|---:|---:|---:|---:|---:|");
        System.out.print(deltas);
    }

    private void stages(int n, List<Proxy> pool, StringBuilder out) {
        SnapshotCodec plain = SnapshotCodec.plain();
        SnapshotCodec deflated = SnapshotCodec.deflated();
        SnapshotHeader h = new SnapshotHeader(1, 1, wall.millis(), wall.millis() + 600_000, n, ContentDigest.of(pool));
        SnapshotFrame.Full full = new SnapshotFrame.Full(h, pool);
        byte[] p = plain.encode(full);
        byte[] d = deflated.encode(full);
        try (MemoryPoolStore unused = new MemoryPoolStore()) {
            PoolEngine engine = new PoolEngine(List.of(), HealthPolicy.DEFAULTS, unused, ticker, wall, 1);
            double build = median(() -> engine.refresh(pool));
            double digest = median(() -> ContentDigest.of(pool));
            double encPlain = median(() -> plain.encode(full).length);
            double decPlain = median(() -> SnapshotCodec.decode(p).version());
            double encDefl = median(() -> deflated.encode(full).length);
            double decDefl = median(() -> SnapshotCodec.decode(d).version());
            out.append(String.format(
                    Locale.ROOT,
                    "| %,d | %.1f | %.1f | %.1f | %,d (%.1f) | %.1f | %.1f | %,d (%.1f) | %.1f |%n",
                    n,
                    build,
                    digest,
                    encPlain,
                    p.length,
                    p.length / (double) n,
                    decPlain,
                    encDefl,
                    d.length,
                    d.length / (double) n,
                    decDefl));
        }
    }

    private void throughRedis(int n, List<Proxy> pool, StringBuilder out, StringBuilder deltas) throws Exception {
        ClusterSettings every = ClusterSettings.builder()
                .pollInterval(Duration.ofMillis(500))
                .backoffMin(Duration.ofMillis(50))
                .backoffMax(Duration.ofMillis(500))
                .build();
        ClusterSettings lazy = every.toBuilder().deltasKept(64).fullEvery(64).build();
        for (ClusterSettings settings : List.of(every, lazy)) {
            String prefix = "ppbench:cluster:" + UUID.randomUUID() + ":";
            RedisStoreConfig redis = new RedisStoreConfig(
                    "127.0.0.1", port, "", "", 0, prefix, Duration.ofSeconds(2), Duration.ofSeconds(10), 4);
            long[] buildNanos = new long[1];
            try (MemoryPoolStore unused = new MemoryPoolStore()) {
                PoolEngine worker = new PoolEngine(List.of(), HealthPolicy.DEFAULTS, unused, ticker, wall, 1);
                try (SnapshotSubscriber sub = SnapshotSubscriber.start(
                        redis,
                        settings,
                        s -> {
                            long t0 = ticker.read();
                            worker.refresh(s.proxies());
                            buildNanos[0] = ticker.read() - t0;
                        },
                        wall,
                        ticker)) {
                    waitSubscribed(sub);
                    if (settings == every) {
                        // full: each new publisher instance starts with a reset + full snapshot
                        Row full = new Row();
                        for (int i = 0; i < reps + 2; i++) {
                            try (SnapshotPublisher pub = SnapshotPublisher.open(redis, settings, wall, ticker)) {
                                long t0 = ticker.read();
                                PublishReport r = pub.publish(pool);
                                awaitVersion(sub, r.version());
                                full.add(i >= 2, r, ticker.read() - t0, buildNanos[0]);
                            }
                        }
                        out.append(full.markdown(n, "full snapshot (reset)"));
                    }
                    try (SnapshotPublisher pub = SnapshotPublisher.open(redis, settings, wall, ticker)) {
                        List<Proxy> current = new ArrayList<>(pool);
                        awaitVersion(sub, pub.publish(current).version());
                        SplittableRandom rnd = new SplittableRandom(7);
                        Row change = new Row();
                        for (int i = 0; i < reps * 3 + 3; i++) {
                            int at = rnd.nextInt(current.size());
                            current.set(
                                    at,
                                    current.get(at).toBuilder()
                                            .weight(current.get(at).weight() % 10 + 1)
                                            .build());
                            long t0 = ticker.read();
                            PublishReport r = pub.publish(current);
                            awaitVersion(sub, r.version());
                            change.add(i >= 3, r, ticker.read() - t0, buildNanos[0]);
                        }
                        out.append(change.markdown(n, "one-proxy change, fullEvery=" + settings.fullEvery()));
                        if (settings == lazy) {
                            deltas.append(frameSizes(n, pub, current, sub));
                        }
                    }
                }
            } finally {
                deleteKeys(prefix);
            }
        }
    }

    private String frameSizes(int n, SnapshotPublisher pub, List<Proxy> current, SnapshotSubscriber sub)
            throws Exception {
        List<Proxy> next = new ArrayList<>(current);
        next.set(
                0,
                next.getFirst().toBuilder()
                        .weight(next.getFirst().weight() % 10 + 1)
                        .build());
        PublishReport weight = pub.publish(next);
        Proxy removed = next.remove(n / 2);
        PublishReport removal = pub.publish(next);
        next.add(removed.toBuilder().id("p-added-0000000001").build());
        PublishReport addition = pub.publish(next);
        PublishReport renewal = pub.renew();
        awaitVersion(sub, renewal.version());
        byte[] full = SnapshotCodec.plain()
                .encode(new SnapshotFrame.Full(
                        new SnapshotHeader(1, 1, 0, 0, next.size(), ContentDigest.of(next)), next));
        return String.format(
                Locale.ROOT,
                "| %,d | %d | %d | %d | %d | %,d |%n",
                n,
                weight.deltaBytes(),
                removal.deltaBytes(),
                addition.deltaBytes(),
                renewal.deltaBytes(),
                full.length);
    }

    /** Medians of one Redis case. */
    private static final class Row {
        final List<Long> encode = new ArrayList<>();
        final List<Long> redis = new ArrayList<>();
        final List<Long> total = new ArrayList<>();
        final List<Long> build = new ArrayList<>();
        int fullBytes;
        int deltaBytes;

        void add(boolean measured, PublishReport r, long totalNanos, long buildNanos) {
            if (!measured) {
                return;
            }
            encode.add(r.encodeNanos());
            redis.add(r.redisNanos());
            total.add(totalNanos);
            build.add(buildNanos);
            fullBytes = Math.max(fullBytes, r.fullBytes());
            deltaBytes = r.deltaBytes();
        }

        String markdown(int n, String name) {
            return String.format(
                    Locale.ROOT,
                    "| %,d | %s | %.1f (%.1f / %.1f) | %,d | %,d | %.1f | %.1f |%n",
                    n,
                    name,
                    ms(median(encode) + median(redis)),
                    ms(median(encode)),
                    ms(median(redis)),
                    fullBytes,
                    deltaBytes,
                    ms(median(total)),
                    ms(median(build)));
        }
    }

    private double median(LongSupplier work) {
        long sink = 0;
        for (int i = 0; i < 2; i++) {
            sink += work.getAsLong();
        }
        long[] t = new long[reps];
        for (int i = 0; i < reps; i++) {
            long t0 = ticker.read();
            sink += work.getAsLong();
            t[i] = ticker.read() - t0;
        }
        if (sink == 42) {
            System.err.print("");
        }
        Arrays.sort(t);
        return t[reps / 2] / 1e6;
    }

    private static long median(List<Long> values) {
        long[] v = values.stream().mapToLong(Long::longValue).sorted().toArray();
        return v[v.length / 2];
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static void awaitVersion(SnapshotSubscriber sub, long version) throws InterruptedException {
        if (!sub.awaitVersion(version, Duration.ofSeconds(60))) {
            throw new IllegalStateException("version " + version + " did not arrive: " + sub.status());
        }
    }

    private static void waitSubscribed(SnapshotSubscriber sub) throws InterruptedException {
        for (int i = 0; i < 1000 && !sub.status().subscribed(); i++) {
            Thread.sleep(10);
        }
    }

    private void deleteKeys(String prefix) {
        try (RedisClient c =
                RedisClient.builder().hostAndPort("127.0.0.1", port).build()) {
            ScanParams params = new ScanParams().match(prefix + "*").count(1000);
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = c.scan(cursor, params);
                if (!page.getResult().isEmpty()) {
                    c.unlink(page.getResult().toArray(String[]::new));
                }
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
    }
}
