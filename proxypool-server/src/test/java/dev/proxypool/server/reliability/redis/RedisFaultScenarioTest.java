package dev.proxypool.server.reliability.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.redis.RedisPoolStore;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.e2e.redis.RedisE2e;
import dev.proxypool.testkit.PrivateRedisServer;
import dev.proxypool.testkit.TcpRelay;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;

/**
 * Issue #9 scenario 3, Redis faults, over HTTP against a ProxyPoolServer whose pool lives in a real
 * {@link RedisPoolStore}: one {@code Idempotency-Key} sent by 100 concurrent requests extracts once;
 * a slowed Redis (a relay adding 200 ms to every chunk each way) answers every extraction within its
 * deadline, or {@code 503} within it when the deadline is shorter than a round trip, with nothing
 * half-extracted; {@code SCRIPT FLUSH} is invisible to clients. A Redis killed mid-extraction is
 * {@code e2e/redis/RedisOutageEndToEndTest}.
 */
@Tag("slow")
class RedisFaultScenarioTest {

    private static final int CONCURRENT = 100;
    private static final Duration CONNECT = Duration.ofSeconds(1);
    private static final Duration SOCKET = Duration.ofSeconds(2);
    /**
     * The extraction deadline with the store's timeouts: an idempotent extraction makes three store
     * calls (claim, extract, record the outcome), each bounded by one pooled-connection wait plus one
     * reply ({@code CONNECT + SOCKET}); plus 2 s of slack for two busy cores.
     */
    private static final Duration DEADLINE =
            CONNECT.plus(SOCKET).multipliedBy(3).plusSeconds(2);

    @TempDir
    Path dir;

    @Test
    void hundredConcurrentRequestsWithOneIdempotencyKeyExtractExactlyOnce() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        Instant now = Clocks.wall().instant();
        int proxies = 200;
        int count = 5;
        List<Proxy> seeded = RedisE2e.proxies(proxies, now);
        try (RedisPoolStore store = RedisPoolStore.connect(
                        RedisStoreConfig.DEFAULTS.withKeyPrefix(prefix).withMaxConnections(32),
                        StoreSettings.DEFAULTS);
                ProxyPoolServer server = ProxyPoolServer.builder(RedisE2e.config(dir, 0))
                        .pool(b -> b.store(store).proxies(seeded))
                        .start();
                HttpClient http = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .build()) {
            assertEquals(proxies, store.available(RedisE2e.UPSTREAM));
            URI uri = RedisE2e.extractions(server.apiPort());
            String key = "order-" + UUID.randomUUID();
            CountDownLatch go = new CountDownLatch(1);
            Queue<HttpResponse<String>> answers = new ConcurrentLinkedQueue<>();
            Queue<String> problems = new ConcurrentLinkedQueue<>();
            List<Thread> callers = new ArrayList<>();
            for (int i = 0; i < CONCURRENT; i++) {
                callers.add(Thread.ofVirtual().start(() -> {
                    try {
                        go.await();
                        answers.add(RedisE2e.extract(http, uri, count, true, key));
                    } catch (Exception e) {
                        problems.add(e.toString());
                    }
                }));
            }
            long started = System.nanoTime();
            go.countDown();
            for (Thread t : callers) {
                assertTrue(t.join(Duration.ofSeconds(60)), "a caller hung");
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertEquals(List.of(), List.copyOf(problems));
            assertEquals(CONCURRENT, answers.size());

            List<HttpResponse<String>> fresh = new ArrayList<>();
            List<HttpResponse<String>> replayed = new ArrayList<>();
            int inProgress = 0;
            for (HttpResponse<String> r : answers) {
                boolean isReplay =
                        r.headers().firstValue("Idempotent-Replayed").orElse("").equals("true");
                if (r.statusCode() == 200) {
                    (isReplay ? replayed : fresh).add(r);
                } else if (r.statusCode() == 409 && r.body().contains("\"request_in_progress\"") && !isReplay) {
                    inProgress++;
                } else {
                    problems.add(r.statusCode() + " replayed=" + isReplay + " " + r.body());
                }
            }
            assertEquals(
                    List.of(), List.copyOf(problems), "only the extraction, its replays and 409 request_in_progress");
            assertEquals(1, fresh.size(), "exactly one request extracted");
            List<String> ids = RedisE2e.ids(fresh.getFirst().body());
            assertEquals(count, ids.size());
            for (HttpResponse<String> r : replayed) {
                assertEquals(fresh.getFirst().body(), r.body(), "a replay is the extraction's response, byte for byte");
            }
            assertEquals(CONCURRENT, 1 + replayed.size() + inProgress);

            assertEquals(
                    proxies - count,
                    store.available(RedisE2e.UPSTREAM),
                    "the pool lost exactly one extraction's proxies");
            Set<String> handedOut = new HashSet<>(ids);
            Instant after = Clocks.wall().instant();
            int tombstoned = 0;
            for (Proxy p : seeded) {
                if (store.isTombstoned(p.key(), after)) {
                    tombstoned++;
                    assertTrue(handedOut.contains(p.id()), p.id() + " tombstoned but never handed out");
                }
            }
            assertEquals(count, tombstoned);

            HttpResponse<String> late = RedisE2e.extract(http, uri, count, true, key);
            assertEquals(200, late.statusCode(), late.body());
            assertEquals(
                    "true", late.headers().firstValue("Idempotent-Replayed").orElse(""), "the outcome was recorded");
            assertEquals(fresh.getFirst().body(), late.body());
            assertEquals(proxies - count, store.available(RedisE2e.UPSTREAM));
            System.out.printf(
                    "idempotency x%d over HTTP on Redis: 1 extraction of %d, %d replays, %d x 409 request_in_progress,"
                            + " %d proxies left of %d, %d ms%n",
                    CONCURRENT,
                    count,
                    replayed.size(),
                    inProgress,
                    store.available(RedisE2e.UPSTREAM),
                    proxies,
                    millis);
        } finally {
            RedisE2e.deleteKeys(6379, prefix);
        }
    }

    @Test
    void slowedRedisAnswersEveryExtractionWithinItsDeadlineAndNeverHalfExtracts() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        Instant now = Clocks.wall().instant();
        int proxies = 500;
        int clients = 16;
        int perClient = 3;
        List<Proxy> seeded = RedisE2e.proxies(proxies, now);
        try (PrivateRedisServer redis = PrivateRedisServer.start();
                TcpRelay relay = new TcpRelay(redis.port());
                RedisPoolStore store = RedisPoolStore.connect(
                        new RedisStoreConfig("127.0.0.1", relay.port(), "", "", 0, prefix, CONNECT, SOCKET, 16),
                        StoreSettings.DEFAULTS);
                RedisPoolStore direct = RedisPoolStore.connect(
                        new RedisStoreConfig("127.0.0.1", redis.port(), "", "", 0, prefix, CONNECT, SOCKET, 4),
                        StoreSettings.DEFAULTS);
                ProxyPoolServer server = ProxyPoolServer.builder(RedisE2e.config(dir, 0))
                        .pool(b -> b.store(store).proxies(seeded))
                        .start();
                HttpClient http = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .build()) {
            assertEquals(proxies, direct.available(RedisE2e.UPSTREAM));
            URI uri = RedisE2e.extractions(server.apiPort());
            relay.delay(200); // every chunk, each way: one store round trip takes at least 400 ms

            Queue<String> problems = new ConcurrentLinkedQueue<>();
            Queue<String> handedOut = new ConcurrentLinkedQueue<>();
            long[] latencies = new long[clients * perClient];
            AtomicInteger ok = new AtomicInteger();
            AtomicInteger unavailable = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> callers = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int me = c;
                callers.add(Thread.ofVirtual().start(() -> {
                    try {
                        go.await();
                        for (int i = 0; i < perClient; i++) {
                            int n = 1 + (me + i) % 3;
                            String key = me % 2 == 0 ? "slow-" + me + "-" + i : null;
                            long start = System.nanoTime();
                            HttpResponse<String> r = RedisE2e.extract(http, uri, n, true, key);
                            latencies[me * perClient + i] = System.nanoTime() - start;
                            if (r.statusCode() == 200) {
                                List<String> ids = RedisE2e.ids(r.body());
                                if (ids.size() != n) {
                                    problems.add("allOrNothing of " + n + " gave " + ids.size());
                                }
                                handedOut.addAll(ids);
                                ok.incrementAndGet();
                            } else if (r.statusCode() == 503 && r.body().contains("store_unavailable")) {
                                unavailable.incrementAndGet();
                            } else {
                                problems.add(r.statusCode() + " " + r.body());
                            }
                        }
                    } catch (Exception e) {
                        problems.add(e.toString());
                    }
                }));
            }
            go.countDown();
            for (Thread t : callers) {
                assertTrue(t.join(Duration.ofSeconds(90)), "a caller hung");
            }
            assertEquals(List.of(), List.copyOf(problems));
            long[] sorted = latencies.clone();
            Arrays.sort(sorted);
            long minMillis = TimeUnit.NANOSECONDS.toMillis(sorted[0]);
            long medianMillis = TimeUnit.NANOSECONDS.toMillis(sorted[sorted.length / 2]);
            long maxMillis = TimeUnit.NANOSECONDS.toMillis(sorted[sorted.length - 1]);
            assertTrue(
                    maxMillis < DEADLINE.toMillis(),
                    "slowest extraction " + maxMillis + " ms, deadline " + DEADLINE.toMillis());
            assertTrue(minMillis >= 350, "the relay slowed every extraction: fastest " + minMillis + " ms");
            assertTrue(ok.get() >= clients, ok + " answered 200 (every round trip fits the 2 s socket timeout)");

            relay.delay(0);
            Set<String> unique = new HashSet<>(handedOut);
            assertEquals(handedOut.size(), unique.size(), "a proxy was handed out twice");
            int left = direct.available(RedisE2e.UPSTREAM);
            assertEquals(
                    proxies,
                    left + unique.size(),
                    "every extraction whole and delivered: extracted + remaining = seeded");
            System.out.printf(
                    "slowed Redis (+200 ms per chunk each way): %d extractions, %d x 200, %d x 503; latency min %d,"
                            + " median %d, max %d ms (deadline %d ms)%n",
                    latencies.length,
                    ok.get(),
                    unavailable.get(),
                    minMillis,
                    medianMillis,
                    maxMillis,
                    DEADLINE.toMillis());
        }
    }

    @Test
    void aRedisSlowerThanTheSocketTimeoutAnswers503WithinItAndHalfExtractsNothing() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        Instant now = Clocks.wall().instant();
        int proxies = 100;
        Duration impatient = Duration.ofMillis(300);
        List<Proxy> seeded = RedisE2e.proxies(proxies, now);
        try (PrivateRedisServer redis = PrivateRedisServer.start();
                TcpRelay relay = new TcpRelay(redis.port());
                RedisPoolStore store = RedisPoolStore.connect(
                        new RedisStoreConfig("127.0.0.1", relay.port(), "", "", 0, prefix, CONNECT, impatient, 8),
                        StoreSettings.DEFAULTS);
                RedisPoolStore direct = RedisPoolStore.connect(
                        new RedisStoreConfig("127.0.0.1", redis.port(), "", "", 0, prefix, CONNECT, SOCKET, 4),
                        StoreSettings.DEFAULTS);
                ProxyPoolServer server = ProxyPoolServer.builder(RedisE2e.config(dir, 0))
                        .pool(b -> b.store(store).proxies(seeded))
                        .start();
                HttpClient http = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .build()) {
            URI uri = RedisE2e.extractions(server.apiPort());
            relay.delay(200);
            long bound = CONNECT.plus(impatient).multipliedBy(2).plusSeconds(2).toMillis();
            long slowest = 0;
            for (int i = 0; i < 4; i++) {
                long start = System.nanoTime();
                HttpResponse<String> r = RedisE2e.extract(http, uri, 3, true, i % 2 == 0 ? null : "impatient-" + i);
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                slowest = Math.max(slowest, millis);
                assertEquals(503, r.statusCode(), r.body());
                assertEquals("{\"error\":\"store_unavailable\"}", r.body());
                assertTrue(millis < bound, "503 after " + millis + " ms, bound " + bound);
            }
            relay.delay(0);
            // a timed-out script may have run whole on the server (its reply lost): all 3 gone or none
            int left = direct.available(RedisE2e.UPSTREAM);
            int tombstoned = 0;
            Instant after = Clocks.wall().instant();
            for (Proxy p : seeded) {
                boolean stored = direct.get(p.id()).isPresent();
                boolean gone = direct.isTombstoned(p.key(), after);
                assertTrue(stored != gone, p.id() + ": stored " + stored + ", tombstoned " + gone);
                tombstoned += gone ? 1 : 0;
            }
            assertEquals(proxies, left + tombstoned);
            assertEquals(0, tombstoned % 3, "whole extractions only: " + tombstoned + " tombstoned");
            HttpResponse<String> back = RedisE2e.extract(http, uri, 3, true, null);
            assertEquals(200, back.statusCode(), "the store recovers with the network: " + back.body());
            System.out.printf(
                    "Redis slower than a 300 ms socket timeout: 4 x 503, slowest %d ms (bound %d ms),"
                            + " %d proxies extracted but undelivered%n",
                    slowest, bound, tombstoned);
        }
    }

    @Test
    void scriptFlushIsInvisibleToExtractionClients() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        Instant now = Clocks.wall().instant();
        List<Proxy> seeded = RedisE2e.proxies(50, now);
        try (PrivateRedisServer redis = PrivateRedisServer.start();
                RedisPoolStore store = RedisPoolStore.connect(
                        new RedisStoreConfig("127.0.0.1", redis.port(), "", "", 0, prefix, CONNECT, SOCKET, 8),
                        StoreSettings.DEFAULTS);
                ProxyPoolServer server = ProxyPoolServer.builder(RedisE2e.config(dir, 0))
                        .pool(b -> b.store(store).proxies(seeded))
                        .start();
                RedisClient admin = RedisClient.builder()
                        .hostAndPort("127.0.0.1", redis.port())
                        .build();
                HttpClient http = HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .build()) {
            URI uri = RedisE2e.extractions(server.apiPort());
            assertEquals(200, RedisE2e.extract(http, uri, 2, true).statusCode(), "scripts loaded");
            assertEquals("OK", admin.scriptFlush());
            HttpResponse<String> plain = RedisE2e.extract(http, uri, 2, true);
            assertEquals(200, plain.statusCode(), plain.body());
            assertEquals(2, RedisE2e.ids(plain.body()).size());

            assertEquals("OK", admin.scriptFlush());
            HttpResponse<String> keyed = RedisE2e.extract(http, uri, 3, true, "flush-1");
            assertEquals(200, keyed.statusCode(), keyed.body());
            assertFalse(keyed.headers().firstValue("Idempotent-Replayed").isPresent());
            assertEquals("OK", admin.scriptFlush());
            HttpResponse<String> replay = RedisE2e.extract(http, uri, 3, true, "flush-1");
            assertEquals(200, replay.statusCode(), replay.body());
            assertEquals(
                    "true", replay.headers().firstValue("Idempotent-Replayed").orElse(""));
            assertEquals(keyed.body(), replay.body());
            assertEquals(50 - 2 - 2 - 3, store.available(RedisE2e.UPSTREAM), "nothing extracted twice, nothing lost");
        }
    }
}
