package dev.proxypool.sdk.redis;

import static dev.proxypool.core.extract.ProxyFixtures.extracted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ExtractedProxy;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.IdempotencyKey;
import dev.proxypool.core.extract.IdempotencyStart;
import dev.proxypool.core.extract.ProxyFixtures;
import dev.proxypool.core.extract.PublishResult;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.PrivateRedisServer;
import dev.proxypool.testkit.TcpRelay;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * Redis failures against a private redis-server (never the shared one): killed mid-run, connections
 * cut mid-run by a relay, scripts flushed, a slowed network. Calls fail with
 * {@link StoreUnavailableException} within their timeouts or succeed, never hang, never leave a
 * half-done extraction, and the store recovers by itself when Redis is back.
 */
@Tag("slow")
class RedisPoolStoreFaultTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration CONNECT = Duration.ofSeconds(1);
    private static final Duration SOCKET = Duration.ofSeconds(1);
    /**
     * Bound of a failing call: wait for a pooled connection (connect timeout), one read (socket
     * timeout), then the pool opens the broken connection's replacement in the caller's thread
     * (connect + one handshake read); plus slack for two busy cores.
     */
    private static final Duration DEADLINE =
            CONNECT.multipliedBy(2).plus(SOCKET.multipliedBy(2)).plusSeconds(1);

    private final Ticker ticker = Clocks.monotonic();

    private static RedisPoolStore connect(int port, String prefix, Duration socketTimeout) {
        return RedisPoolStore.connect(
                new RedisStoreConfig("127.0.0.1", port, "", "", 0, prefix, CONNECT, socketTimeout, 16),
                StoreSettings.DEFAULTS);
    }

    private static List<Proxy> pool(int from, int count) {
        List<Proxy> ps = new ArrayList<>(count);
        for (int n = from; n < from + count; n++) {
            ps.add(ProxyFixtures.builder(n)
                    .expiresAt(NOW.plus(Duration.ofHours(1)))
                    .build());
        }
        return ps;
    }

    private long millisSince(long start) {
        return TimeUnit.NANOSECONDS.toMillis(ticker.read() - start);
    }

    @Test
    void killedRedisFailsFastAndTheStoreRecoversWhenItReturns() throws Exception {
        try (PrivateRedisServer redis = PrivateRedisServer.start();
                RedisPoolStore store = connect(redis.port(), TestRedis.randomPrefix(), SOCKET)) {
            store.upsert(pool(0, 3000), NOW);
            AtomicInteger succeeded = new AtomicInteger();
            AtomicLong slowestMillis = new AtomicLong();
            AtomicInteger failures = new AtomicInteger();
            Queue<String> problems = new ConcurrentLinkedQueue<>();
            ExecutorService threads = Executors.newFixedThreadPool(4);
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int me = t;
                runs.add(threads.submit(() -> {
                    SplittableRandom random = new SplittableRandom(me);
                    int mine = 0;
                    for (int call = 0; call < 50_000 && mine < 3; call++) {
                        long start = ticker.read();
                        try {
                            store.extract(
                                    ExtractionRequest.builder(1 + random.nextInt(5))
                                            .build(),
                                    NOW);
                            if (succeeded.incrementAndGet() == 100) {
                                redis.kill(); // from a worker: the other three are mid-call right now
                            }
                        } catch (StoreUnavailableException e) {
                            failures.incrementAndGet();
                            mine++;
                        } catch (RuntimeException e) {
                            problems.add(e.toString());
                            return;
                        }
                        slowestMillis.accumulateAndGet(millisSince(start), Math::max);
                    }
                }));
            }
            try {
                for (Future<?> run : runs) {
                    run.get(20, TimeUnit.SECONDS);
                }
            } finally {
                threads.shutdownNow();
            }
            assertEquals(List.of(), List.copyOf(problems), "only StoreUnavailableException is allowed");
            assertTrue(failures.get() >= 12, "every thread saw the outage: " + failures.get());
            assertTrue(slowestMillis.get() < DEADLINE.toMillis(), "slowest call took " + slowestMillis.get() + " ms");

            redis.launch(); // same port, empty, no scripts loaded
            assertEquals(new PublishResult(10, 0, 0, 0, 0), store.upsert(pool(100_000, 10), NOW));
            assertEquals(
                    10,
                    extracted(store.extract(
                                    ExtractionRequest.builder(10).allOrNothing().build(), NOW))
                            .size());
        }
    }

    @Test
    void cutConnectionsMidRunLeaveEveryExtractionWholeOrNotAtAll() throws Exception {
        int size = 5000;
        int count = 7;
        String prefix = TestRedis.randomPrefix();
        try (PrivateRedisServer redis = PrivateRedisServer.start();
                TcpRelay relay = new TcpRelay(redis.port());
                RedisPoolStore direct = connect(redis.port(), prefix, SOCKET);
                RedisPoolStore viaRelay = connect(relay.port(), prefix, SOCKET)) {
            List<Proxy> all = pool(0, size);
            direct.upsert(all, NOW);
            Map<String, Boolean> delivered = new ConcurrentHashMap<>();
            Queue<String> problems = new ConcurrentLinkedQueue<>();
            AtomicInteger failedCalls = new AtomicInteger();
            AtomicInteger succeeded = new AtomicInteger();
            ExecutorService threads = Executors.newFixedThreadPool(8);
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                runs.add(threads.submit(() -> {
                    int mine = 0;
                    for (int call = 0; call < 10_000 && mine < 2; call++) {
                        long start = ticker.read();
                        try {
                            for (ExtractedProxy p : extracted(viaRelay.extract(
                                    ExtractionRequest.builder(count)
                                            .allOrNothing()
                                            .build(),
                                    NOW))) {
                                if (delivered.put(p.id(), true) != null) {
                                    problems.add(p.id() + " delivered twice");
                                }
                            }
                            if (succeeded.incrementAndGet() == 100) {
                                relay.cut(); // from a worker: the other seven are mid-call right now
                            }
                        } catch (StoreUnavailableException e) {
                            failedCalls.incrementAndGet();
                            mine++;
                        } catch (RuntimeException | AssertionError e) {
                            problems.add(e.toString());
                            return;
                        }
                        if (millisSince(start) >= DEADLINE.toMillis()) {
                            problems.add("a call took " + millisSince(start) + " ms");
                        }
                    }
                }));
            }
            try {
                for (Future<?> run : runs) {
                    run.get(20, TimeUnit.SECONDS);
                }
            } finally {
                threads.shutdownNow();
            }
            assertEquals(List.of(), List.copyOf(problems));
            assertTrue(succeeded.get() >= 100 && failedCalls.get() >= 8, succeeded + " ok, " + failedCalls + " failed");

            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", redis.port(), prefix), "layout after the cut");
            int tombstones;
            try (RedisClient c =
                    RedisClient.builder().hostAndPort("127.0.0.1", redis.port()).build()) {
                // a tombstone is in T t, or kept by its retired id in T g until a purge collects it
                RedisKeys k = new RedisKeys(prefix);
                tombstones = (int) (c.zcard(k.tombstones()) + c.hlen(k.poolTag() + "g"));
            }
            int stored = direct.available(ProxyFixtures.UPSTREAM);
            assertEquals(size, stored + tombstones, "every proxy is either stored or tombstoned");
            assertEquals(0, tombstones % count, "every extraction that ran took all " + count + ": " + tombstones);
            assertEquals(0, delivered.size() % count);
            for (Proxy p : all) {
                if (delivered.containsKey(p.id())) {
                    assertTrue(direct.isTombstoned(p.key(), NOW), p.id() + " delivered but not tombstoned");
                }
            }
            int lost = tombstones - delivered.size();
            assertTrue(
                    lost >= 0 && lost <= count * failedCalls.get(),
                    "extracted but undelivered " + lost + " with " + failedCalls.get() + " failed calls");

            relay.resume();
            assertEquals(
                    count,
                    extracted(viaRelay.extract(
                                    ExtractionRequest.builder(count)
                                            .allOrNothing()
                                            .build(),
                                    NOW))
                            .size());
        }
    }

    @Test
    void flushedScriptsAreReloadedTransparently() {
        try (PrivateRedisServer redis = PrivateRedisServer.start();
                RedisPoolStore store = connect(redis.port(), TestRedis.randomPrefix(), SOCKET);
                RedisClient admin = RedisClient.builder()
                        .hostAndPort("127.0.0.1", redis.port())
                        .build()) {
            // the pool scripts run as the functions of one library (RedisLibrary), the others by SHA
            String library = RedisPoolStore.LIBRARY.name();
            assertTrue(admin.functionList().stream()
                    .anyMatch(l -> l.getLibraryName().equals(library)));
            admin.scriptFlush();
            admin.functionFlush();
            assertEquals(new PublishResult(100, 0, 0, 0, 0), store.upsert(pool(0, 100), NOW));
            assertEquals(
                    5,
                    extracted(store.extract(ExtractionRequest.builder(5).build(), NOW))
                            .size());
            assertTrue(admin.functionList().stream()
                    .anyMatch(l -> l.getLibraryName().equals(library)));

            admin.scriptFlush();
            IdempotencyKey key = new IdempotencyKey("alice", "k");
            assertEquals(IdempotencyStart.STARTED, store.beginIdempotent(key, "fp", NOW));
            admin.scriptFlush();
            assertEquals(IdempotencyStart.IN_PROGRESS, store.beginIdempotent(key, "fp", NOW));
        }
    }

    /**
     * At maxmemory, Redis refuses a script's first memory-growing command and then lets a script
     * that already wrote run to its end: publishing is refused whole (its first write is the HSET
     * of a record), extraction runs whole (its first writes remove, so it frees memory).
     */
    @Test
    void redisOutOfMemoryRefusesPublishingWholeAndStillExtracts() {
        String prefix = TestRedis.randomPrefix();
        try (PrivateRedisServer redis = PrivateRedisServer.start();
                RedisPoolStore store = connect(redis.port(), prefix, SOCKET);
                RedisClient admin = RedisClient.builder()
                        .hostAndPort("127.0.0.1", redis.port())
                        .build()) {
            store.upsert(pool(0, 50), NOW);
            admin.configSet("maxmemory-policy", "noeviction");
            admin.configSet("maxmemory", "1");
            try {
                StoreUnavailableException e =
                        assertThrows(StoreUnavailableException.class, () -> store.upsert(pool(100, 5), NOW));
                assertTrue(e.getMessage().contains("OOM"), e.getMessage());
                assertEquals(50, store.available(ProxyFixtures.UPSTREAM), "the refused publish wrote nothing");
                assertEquals(
                        5,
                        extracted(store.extract(ExtractionRequest.builder(5).build(), NOW))
                                .size());
            } finally {
                admin.configSet("maxmemory", "0");
            }
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", redis.port(), prefix));
            assertEquals(5, store.upsert(pool(100, 5), NOW).added());
        }
    }

    @Test
    void slowRedisAnswersWithinTheSocketTimeoutOrFailsAfterIt() {
        String prefix = TestRedis.randomPrefix();
        try (PrivateRedisServer redis = PrivateRedisServer.start();
                TcpRelay relay = new TcpRelay(redis.port());
                RedisPoolStore patient = connect(relay.port(), prefix, Duration.ofSeconds(2));
                RedisPoolStore impatient = connect(relay.port(), prefix, Duration.ofMillis(300))) {
            patient.upsert(pool(0, 100), NOW);
            relay.delay(200); // every chunk, each way: a round trip takes about 400 ms

            long start = ticker.read();
            assertEquals(
                    3,
                    extracted(patient.extract(
                                    ExtractionRequest.builder(3).allOrNothing().build(), NOW))
                            .size());
            long patientMillis = millisSince(start);
            assertTrue(patientMillis >= 350 && patientMillis < 2000, "patient call took " + patientMillis + " ms");

            start = ticker.read();
            assertThrows(
                    StoreUnavailableException.class,
                    () -> impatient.extract(
                            ExtractionRequest.builder(3).allOrNothing().build(), NOW));
            long impatientMillis = millisSince(start);
            assertTrue(
                    impatientMillis >= 250 && impatientMillis < 1300, "impatient call took " + impatientMillis + " ms");

            relay.delay(0);
            // the timed-out script either ran whole (3 more gone, undelivered) or not at all
            int left = patient.available(ProxyFixtures.UPSTREAM);
            assertTrue(left == 97 || left == 94, "left " + left);
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", redis.port(), prefix));
        }
    }

    @Test
    void extractionsQueuedBehindSlowCallsGiveUpAfterTheConnectTimeoutAndNeverRun() throws Exception {
        // count=1 extractions share at most FAST_CALLS_IN_FLIGHT calls (RedisPoolStore's coalescer): behind
        // that many calls that a slow network holds for about 2 s, the ones queued wait at most the connect
        // timeout (1 s, what a caller waited for a pooled connection before), then fail retryably without
        // being sent: the pool keeps exactly the proxies the answered calls did not take
        String prefix = TestRedis.randomPrefix();
        try (PrivateRedisServer redis = PrivateRedisServer.start();
                TcpRelay relay = new TcpRelay(redis.port());
                RedisPoolStore store = connect(relay.port(), prefix, Duration.ofSeconds(5))) {
            store.upsert(pool(0, 100), NOW);
            relay.delay(1000); // every chunk, each way: a call's round trip takes about 2 s
            ExtractionRequest one = ExtractionRequest.builder(1).build();
            try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<Integer>> slow = new ArrayList<>();
                int slots = RedisPoolStore.FAST_CALLS_IN_FLIGHT;
                for (int call = 1; call <= slots; call++) { // each its own call: every slot taken
                    slow.add(threads.submit(
                            () -> extracted(store.extract(one, NOW)).size()));
                    long calls = call;
                    Await.standard()
                            .until(
                                    "call " + call + " in flight",
                                    () -> store.oneEach().calls() == calls);
                }
                List<Future<Long>> queued = new ArrayList<>();
                for (int n = 0; n < 10; n++) {
                    queued.add(threads.submit(() -> {
                        long start = ticker.read();
                        StoreUnavailableException e =
                                assertThrows(StoreUnavailableException.class, () -> store.extract(one, NOW));
                        assertTrue(e.getMessage().contains("for its turn"), e.getMessage());
                        return millisSince(start);
                    }));
                }
                List<Long> waits = new ArrayList<>();
                for (Future<Long> f : queued) {
                    long waited = f.get(10, TimeUnit.SECONDS);
                    waits.add(waited);
                    assertTrue(
                            waited >= CONNECT.toMillis() - 50 && waited < CONNECT.toMillis() + 900,
                            "a queued extraction gave up after " + waited + " ms");
                }
                System.out.println("QUEUED-EXTRACTIONS-GAVE-UP after (ms) " + waits);
                for (Future<Integer> f : slow) {
                    assertEquals(1, f.get(10, TimeUnit.SECONDS), "the calls in flight still answer");
                }
            }
            assertEquals(10, store.oneEach().tooLongWaits());
            assertEquals(
                    RedisPoolStore.FAST_CALLS_IN_FLIGHT,
                    store.oneEach().calls(),
                    "the ones that gave up were never sent");
            relay.delay(0);
            assertEquals(
                    100 - RedisPoolStore.FAST_CALLS_IN_FLIGHT,
                    store.available(ProxyFixtures.UPSTREAM),
                    "the pool lost the proxies of the answered calls, no more");
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", redis.port(), prefix));
        }
    }
}
