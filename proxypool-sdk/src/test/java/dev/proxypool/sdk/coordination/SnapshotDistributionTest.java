package dev.proxypool.sdk.coordination;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.testkit.Await;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XAddParams;

/** Publisher → subscribers through the machine's Redis (unique key prefix per test). */
@Tag("slow")
class SnapshotDistributionTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    static final ClusterSettings FAST = ClusterSettings.builder()
            .pollInterval(Duration.ofMillis(500))
            .backoffMin(Duration.ofMillis(50))
            .backoffMax(Duration.ofMillis(500))
            .build();

    private final String prefix = RedisFixture.randomPrefix();
    private final RedisStoreConfig redis = RedisFixture.config(RedisFixture.SHARED_PORT, prefix);
    private final Ticker ticker = Clocks.monotonic();
    private final InstantSource wall = Clocks.wall();
    private final SplittableRandom rnd = new SplittableRandom(17);

    @AfterEach
    void deleteKeys() {
        RedisFixture.deleteKeys(RedisFixture.SHARED_PORT, prefix);
    }

    @Test
    void everyVersionReachesTwoSubscribersInOrder() throws Exception {
        Recorder a = new Recorder(ticker);
        Recorder b = new Recorder(ticker);
        List<Proxy> pool = Proxies.pool(5_000, 1);
        List<Long> latencies = new ArrayList<>();
        long last;
        try (SnapshotPublisher publisher = SnapshotPublisher.open(redis, FAST, wall, ticker);
                SnapshotSubscriber sa = SnapshotSubscriber.start(redis, FAST, a, wall, ticker);
                SnapshotSubscriber sb = SnapshotSubscriber.start(redis, FAST, b, wall, ticker)) {
            awaitTrue(() -> sa.status().subscribed() && sb.status().subscribed(), "both subscribed");
            PublishReport first = publisher.publish(pool);
            assertTrue(first.reset(), "a fresh publisher's first version is a reset with a full snapshot");
            assertTrue(sa.awaitVersion(first.version(), WAIT) && sb.awaitVersion(first.version(), WAIT));
            for (int i = 0; i < 40; i++) {
                pool = mutate(pool, 1 + rnd.nextInt(3));
                long t0 = ticker.read();
                PublishReport r = publisher.publish(pool);
                assertTrue(r.published() && !r.reset(), r.toString());
                assertTrue(
                        sa.awaitVersion(r.version(), WAIT) && sb.awaitVersion(r.version(), WAIT),
                        "version " + r.version());
                latencies.add(Math.max(a.arrivalOf(r.version()), b.arrivalOf(r.version())) - t0);
            }
            last = publisher.version();
            PublishReport same = publisher.publish(pool);
            assertFalse(same.published(), "unchanged content publishes nothing");
            assertEquals(last, same.version());
            for (SnapshotSubscriber s : List.of(sa, sb)) {
                SubscriberStatus st = s.status();
                assertEquals(last, st.version());
                assertEquals(pool.size(), st.proxies());
                assertTrue(st.withinValidity() && st.storeReachable() && !st.stale());
                assertEquals(1, st.fullLoads());
                assertEquals(40, st.deltasApplied());
            }
        }
        for (Recorder r : List.of(a, b)) {
            List<Long> versions = r.versions();
            for (int i = 1; i < versions.size(); i++) {
                assertEquals(versions.get(i - 1) + 1, versions.get(i), "versions in order without gaps: " + versions);
            }
            assertEquals(last, versions.getLast());
            assertTrue(r.arrivals().getFirst().snapshot().resynced());
            assertFalse(r.arrivals().getLast().snapshot().resynced());
            assertEquals(
                    new HashSet<>(pool),
                    new HashSet<>(r.arrivals().getLast().snapshot().proxies()));
        }
        long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf(
                Locale.ROOT,
                "propagation publish -> both subscribers applied (5,000 proxies, %d versions):"
                        + " P50 %.2f ms, P95 %.2f ms, max %.2f ms%n",
                sorted.length,
                sorted[sorted.length / 2] / 1e6,
                sorted[(int) (sorted.length * 0.95)] / 1e6,
                sorted[sorted.length - 1] / 1e6);
    }

    @Test
    void aDroppedDeltaTriggersAFullResyncAndTheWorkerConverges() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Recorder rec = new Recorder(ticker);
        SnapshotConsumer blocking = s -> {
            rec.accept(s);
            if (s.version() == 5) {
                entered.countDown();
                await(release);
            }
        };
        List<Proxy> pool = Proxies.pool(1_000, 2);
        try (SnapshotPublisher publisher = SnapshotPublisher.open(redis, FAST, wall, ticker);
                SnapshotSubscriber sub = SnapshotSubscriber.start(redis, FAST, blocking, wall, ticker);
                RedisClient raw = RedisFixture.client(RedisFixture.SHARED_PORT)) {
            awaitTrue(() -> sub.status().subscribed(), "subscribed");
            for (int v = 1; v <= 5; v++) {
                pool = mutate(pool, 2);
                publisher.publish(pool);
                assertTrue(sub.awaitVersion(Math.min(v, 4), WAIT));
            }
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            pool = mutate(pool, 2);
            assertEquals(6, publisher.publish(pool).version());
            pool = mutate(pool, 2);
            assertEquals(7, publisher.publish(pool).version());
            assertEquals(1, raw.xdel(prefix + "snapshot:deltas", new StreamEntryID(6, 0)));
            release.countDown();
            assertTrue(sub.awaitVersion(7, WAIT));
            SubscriberStatus st = sub.status();
            assertEquals(2, st.fullLoads(), "the first load and the resync");
            assertEquals(0, st.resyncRequests(), "the full snapshot bridged the gap by itself");
        }
        List<Long> versions = rec.versions();
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 7L), versions, "version 6 was never applied");
        ReceivedSnapshot lastOne = rec.arrivals().getLast().snapshot();
        assertTrue(lastOne.resynced());
        assertEquals(new HashSet<>(pool), new HashSet<>(lastOne.proxies()));
    }

    @Test
    void aGapTheFullCannotBridgeIsResolvedByTheControlPlaneOnRequest() throws Exception {
        ClusterSettings lazyFull = FAST.toBuilder().deltasKept(64).fullEvery(8).build();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Recorder rec = new Recorder(ticker);
        SnapshotConsumer blocking = s -> {
            rec.accept(s);
            if (s.version() == 2) {
                entered.countDown();
                await(release);
            }
        };
        List<Proxy> pool = Proxies.pool(500, 3);
        try (SnapshotPublisher publisher = SnapshotPublisher.open(redis, lazyFull, wall, ticker);
                SnapshotSubscriber sub = SnapshotSubscriber.start(redis, lazyFull, blocking, wall, ticker);
                RedisClient raw = RedisFixture.client(RedisFixture.SHARED_PORT)) {
            awaitTrue(() -> sub.status().subscribed(), "subscribed");
            publisher.start();
            assertEquals(1, publisher.publish(pool).version()); // reset + full v1
            pool = mutate(pool, 3);
            assertEquals(0, publisher.publish(pool).fullBytes()); // v2: delta only
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            pool = mutate(pool, 3);
            publisher.publish(pool); // v3, then dropped
            pool = mutate(pool, 3);
            publisher.publish(pool); // v4
            assertEquals(1, raw.xdel(prefix + "snapshot:deltas", new StreamEntryID(3, 0)));
            release.countDown();
            // the full (v1) cannot bridge past the hole at 3: the worker asks, the control plane rewrites
            awaitTrue(() -> sub.status().version() >= 5, "converged after the control plane rewrote the full");
            SubscriberStatus st = sub.status();
            assertTrue(st.resyncRequests() >= 1, st.toString());
            assertEquals(
                    new HashSet<>(pool),
                    new HashSet<>(sub.current().orElseThrow().proxies()));
        }
        assertFalse(rec.versions().contains(3L));
        assertFalse(rec.versions().contains(4L), "never applied 4 on top of a missing 3: " + rec.versions());
    }

    @Test
    void aCorruptDeltaIsNeverAppliedAndTheWorkerConverges() throws Exception {
        Recorder rec = new Recorder(ticker);
        List<Proxy> pool = Proxies.pool(800, 4);
        try (SnapshotPublisher publisher = SnapshotPublisher.open(redis, FAST, wall, ticker);
                SnapshotSubscriber sub = SnapshotSubscriber.start(redis, FAST, rec, wall, ticker);
                RedisClient raw = RedisFixture.client(RedisFixture.SHARED_PORT)) {
            long v = publisher.publish(pool).version();
            assertTrue(sub.awaitVersion(v, WAIT));
            // a delta for v+1 that claims the wrong resulting digest (valid CRC: only the content check can see it)
            List<Proxy> changed = mutate(pool, 1);
            PoolContent.Change change = PoolContent.of(pool).diff(PoolContent.of(changed));
            SnapshotHeader lie = new SnapshotHeader(
                    publisher.epoch(),
                    v + 1,
                    wall.millis(),
                    wall.millis() + 60_000,
                    changed.size(),
                    ContentDigest.of(changed) ^ 1);
            byte[] frame =
                    SnapshotCodec.plain().encode(new SnapshotFrame.Delta(lie, v, change.upserts(), change.removed()));
            raw.xadd(
                    (prefix + "snapshot:deltas").getBytes(),
                    XAddParams.xAddParams().id(new StreamEntryID(v + 1, 0)),
                    java.util.Map.of("d".getBytes(), frame));
            raw.publish(prefix + "snapshot:events", publisher.epoch() + ":" + (v + 1));
            awaitTrue(() -> sub.status().resyncRequests() >= 1, "the worker refused the delta and asked for a full");
            assertEquals(v, sub.status().version(), "kept its last complete snapshot");
            assertEquals(
                    new HashSet<>(pool),
                    new HashSet<>(sub.current().orElseThrow().proxies()));
            // the control plane's next version collides with the forged one: it continues after it, as a reset
            PublishReport r = publisher.publish(changed);
            assertTrue(r.reset() && r.version() == v + 2, r.toString());
            assertTrue(sub.awaitVersion(v + 2, WAIT));
            assertEquals(
                    new HashSet<>(changed),
                    new HashSet<>(sub.current().orElseThrow().proxies()));
        }
        assertFalse(rec.versions().contains(2L), "the forged version was never delivered: " + rec.versions());
    }

    @Test
    void versionsKeepIncreasingAcrossControlPlaneRestartsAndRivals() throws Exception {
        Recorder rec = new Recorder(ticker);
        List<Proxy> pool = Proxies.pool(300, 5);
        try (SnapshotSubscriber sub = SnapshotSubscriber.start(redis, FAST, rec, wall, ticker)) {
            long epoch;
            try (SnapshotPublisher first = SnapshotPublisher.open(redis, FAST, wall, ticker)) {
                epoch = first.epoch();
                for (int i = 0; i < 3; i++) {
                    pool = mutate(pool, 2);
                    first.publish(pool);
                }
                assertEquals(3, first.version());
            }
            try (SnapshotPublisher restarted = SnapshotPublisher.open(redis, FAST, wall, ticker);
                    SnapshotPublisher rival = SnapshotPublisher.open(redis, FAST, wall, ticker)) {
                assertEquals(epoch, restarted.epoch(), "a restarted control plane continues the stored lineage");
                assertEquals(3, restarted.version());
                pool = mutate(pool, 2);
                PublishReport r = restarted.publish(pool);
                assertTrue(r.reset() && r.version() == 4, "unknown base after a restart: reset + full " + r);
                // a second control plane (no leader lease) is refused on the same version and continues above it
                List<Proxy> theirs = mutate(pool, 5);
                PublishReport rr = rival.publish(theirs);
                assertEquals(5, rr.version());
                pool = mutate(pool, 1);
                assertEquals(6, restarted.publish(pool).version());
                assertTrue(sub.awaitVersion(6, WAIT));
            }
            assertEquals(
                    new HashSet<>(pool),
                    new HashSet<>(sub.current().orElseThrow().proxies()));
            List<Long> versions = rec.versions();
            for (int i = 1; i < versions.size(); i++) {
                assertTrue(versions.get(i) > versions.get(i - 1), "strictly increasing: " + versions);
            }
            // Redis emptied (FLUSH / failover to an empty replica) and a new control plane: a new epoch from version 1
            RedisFixture.deleteKeys(RedisFixture.SHARED_PORT, prefix);
            try (SnapshotPublisher fresh = SnapshotPublisher.open(redis, FAST, wall, ticker)) {
                assertNotEquals(epoch, fresh.epoch());
                List<Proxy> next = Proxies.pool(50, 6);
                assertEquals(1, fresh.publish(next).version());
                awaitTrue(() -> sub.status().epoch() == fresh.epoch(), "the worker follows the new epoch");
                assertEquals(
                        new HashSet<>(next),
                        new HashSet<>(sub.current().orElseThrow().proxies()));
            }
        }
    }

    /** Many owner threads publish at once: every delivered version is exactly the content published as it. */
    @Test
    void concurrentPublishersStillDeliverExactlyWhatEachVersionHeld() throws Exception {
        Recorder rec = new Recorder(ticker);
        java.util.concurrent.ConcurrentHashMap<Long, HashSet<Proxy>> published =
                new java.util.concurrent.ConcurrentHashMap<>();
        List<Proxy> base = Proxies.pool(400, 9);
        try (SnapshotPublisher publisher = SnapshotPublisher.open(redis, FAST, wall, ticker);
                SnapshotSubscriber sub = SnapshotSubscriber.start(redis, FAST, rec, wall, ticker)) {
            awaitTrue(() -> sub.status().subscribed(), "subscribed");
            publisher.start();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                SplittableRandom own = new SplittableRandom(100 + t);
                threads.add(Thread.ofPlatform().start(() -> {
                    List<Proxy> mine = new ArrayList<>(base);
                    for (int i = 0; i < 25; i++) {
                        int at = own.nextInt(mine.size());
                        mine.set(
                                at,
                                mine.get(at).toBuilder()
                                        .weight(own.nextInt(1, 60))
                                        .build());
                        synchronized (published) { // the report's version and the content must pair up
                            PublishReport r = i % 10 == 9 ? publisher.renew() : publisher.publish(mine);
                            if (r.published() && i % 10 != 9) {
                                published.put(r.version(), new HashSet<>(mine));
                            }
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join(20_000);
            }
            long last = publisher.version();
            assertTrue(sub.awaitVersion(last, WAIT), "final version " + last);
        }
        long previous = 0;
        for (Recorder.Arrival a : rec.arrivals()) {
            long v = a.snapshot().version();
            assertTrue(v > previous, "versions only move forward");
            previous = v;
            HashSet<Proxy> expected = published.get(v);
            if (expected != null) { // renewals repeat the previous content
                assertEquals(expected, new HashSet<>(a.snapshot().proxies()), "content of version " + v);
            }
        }
    }

    @Test
    void closeIsPrompt() throws Exception {
        SnapshotSubscriber sub = SnapshotSubscriber.start(redis, FAST, s -> {}, wall, ticker);
        awaitTrue(() -> sub.status().subscribed(), "subscribed");
        long t0 = ticker.read();
        sub.close();
        long ms = (ticker.read() - t0) / 1_000_000;
        assertTrue(ms < 1_000, "close took " + ms + " ms");
        assertFalse(sub.status().subscribed());
    }

    // ---- helpers ----

    private List<Proxy> mutate(List<Proxy> pool, int changes) {
        List<Proxy> next = new ArrayList<>(pool);
        for (int k = 0; k < changes; k++) {
            int i = rnd.nextInt(next.size());
            switch (rnd.nextInt(3)) {
                case 0 -> next.remove(i);
                case 1 ->
                    next.set(
                            i,
                            next.get(i).toBuilder()
                                    .weight(next.get(i).weight() % 50 + 1)
                                    .build());
                default -> next.add(Proxies.proxy(1_000_000 + rnd.nextInt(1_000_000), 99, rnd));
            }
        }
        return dedupe(next);
    }

    private static List<Proxy> dedupe(List<Proxy> proxies) {
        HashSet<String> seen = new HashSet<>();
        List<Proxy> out = new ArrayList<>();
        for (Proxy p : proxies) {
            if (seen.add(p.id())) {
                out.add(p);
            }
        }
        return out;
    }

    static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        Await.atMost(WAIT).until(what, condition);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
