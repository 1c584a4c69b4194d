package dev.proxypool.sdk.coordination;

import static dev.proxypool.sdk.coordination.SnapshotDistributionTest.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.testkit.PrivateRedisServer;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Redis killed under a worker (a private redis-server on a free port; the machine's shared Redis
 * is never touched): the worker keeps its last complete snapshot, reports itself unreachable and,
 * once the validity period has passed, stale; it recovers when Redis comes back (empty, as after a
 * restart without persistence) and the control plane republishes.
 */
class RedisOutageTest {

    @Test
    void workerKeepsItsSnapshotThroughARedisOutageAndRecovers() throws Exception {
        Ticker ticker = Clocks.monotonic();
        ManualClock wall = new ManualClock(Instant.parse("2026-11-30T12:00:00Z"));
        ClusterSettings settings = SnapshotDistributionTest.FAST;
        Recorder rec = new Recorder(ticker);
        List<Proxy> pool = Proxies.pool(2_000, 21);
        try (PrivateRedisServer server = PrivateRedisServer.start()) {
            RedisStoreConfig redis = RedisFixture.config(server.port(), "pp:");
            try (SnapshotPublisher publisher = SnapshotPublisher.open(redis, settings, wall, ticker);
                    SnapshotSubscriber sub = SnapshotSubscriber.start(redis, settings, rec, wall, ticker)) {
                publisher.start();
                long v1 = publisher.publish(pool).version();
                assertTrue(sub.awaitVersion(v1, Duration.ofSeconds(10)));
                ReceivedSnapshot held = sub.current().orElseThrow();
                assertTrue(sub.status().withinValidity());

                server.kill();
                awaitTrue(() -> !sub.status().subscribed(), "the worker notices the lost subscription");
                awaitTrue(() -> !sub.status().storeReachable(), "the worker's next read fails");
                SubscriberStatus down = sub.status();
                assertTrue(down.withinValidity(), "still inside the validity period");
                assertFalse(down.stale());
                assertSame(held, sub.current().orElseThrow(), "the last complete snapshot is kept as is");
                assertTrue(down.lastError().contains("Redis"), down.lastError());

                wall.advance(Duration.ofMinutes(11)); // past the 10 min validity
                SubscriberStatus stale = sub.status();
                assertTrue(stale.stale() && !stale.withinValidity(), stale.toString());
                assertTrue(stale.age().compareTo(Duration.ofMinutes(11)) >= 0);
                assertSame(held, sub.current().orElseThrow(), "never cleared, even when stale");
                assertEquals(held.proxies().size(), stale.proxies());
                assertEquals(1, rec.versions().size(), "nothing was delivered during the outage");

                long t0 = ticker.read();
                server.launch(); // empty: no persistence
                awaitTrue(() -> sub.status().version() > v1, "the control plane republishes and the worker follows");
                long recoveryMs = (ticker.read() - t0) / 1_000_000;
                awaitTrue(() -> sub.status().storeReachable() && sub.status().subscribed(), "reachable and subscribed");
                SubscriberStatus up = sub.status();
                assertTrue(up.withinValidity() && !up.stale(), up.toString());
                assertEquals(held.epoch(), up.epoch(), "the control plane kept its lineage");
                // the control plane still knows what version v1 held, so it continues with a delta (and a full)
                ReceivedSnapshot after = sub.current().orElseThrow();
                assertEquals(new HashSet<>(pool), new HashSet<>(after.proxies()));
                System.out.println(
                        "recovery after Redis returned (empty): " + recoveryMs + " ms to version " + up.version());
            }
        }
    }

    @Test
    void subscriberStartedWhileRedisIsDownLoadsOnceItIsUp() throws Exception {
        Ticker ticker = Clocks.monotonic();
        ManualClock wall = new ManualClock(Instant.parse("2026-11-30T12:00:00Z"));
        Recorder rec = new Recorder(ticker);
        try (PrivateRedisServer server = PrivateRedisServer.start()) {
            RedisStoreConfig redis = RedisFixture.config(server.port(), "pp:");
            server.kill();
            try (SnapshotSubscriber sub =
                    SnapshotSubscriber.start(redis, SnapshotDistributionTest.FAST, rec, wall, ticker)) {
                awaitTrue(() -> !sub.status().lastError().isEmpty(), "the first attempt fails");
                assertEquals(0, sub.status().version());
                assertFalse(sub.status().stale(), "nothing held, so nothing stale");
                server.launch();
                try (SnapshotPublisher publisher =
                        SnapshotPublisher.open(redis, SnapshotDistributionTest.FAST, wall, ticker)) {
                    long v = publisher.publish(Proxies.pool(100, 22)).version();
                    assertTrue(sub.awaitVersion(v, Duration.ofSeconds(10)));
                }
            }
        }
    }
}
