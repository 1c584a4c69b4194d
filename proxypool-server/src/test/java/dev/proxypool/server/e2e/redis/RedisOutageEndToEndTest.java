package dev.proxypool.server.e2e.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.redis.RedisPoolStore;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.PrivateRedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Distribution API when its Redis dies: a private redis-server (append-only file fsynced before
 * every reply, so what a client saw acknowledged survives) is SIGKILLed while HTTP clients extract.
 * Every request then answers {@code 503 store_unavailable} within the store's timeouts; after the
 * restart the data shows no half extraction (every proxy is either still stored or tombstoned,
 * every delivered proxy is tombstoned, an allOrNothing request got all its proxies or none), and
 * extraction works again without restarting the server.
 */
@Tag("slow")
class RedisOutageEndToEndTest {

    private static final int PROXIES = 3_000;
    private static final int CLIENTS = 24;
    private static final Duration CONNECT = Duration.ofSeconds(1);
    private static final Duration SOCKET = Duration.ofSeconds(1);
    /** A failing call: wait for a pooled connection, a read, a reconnect and its handshake; plus slack for 2 busy cores. */
    private static final Duration PROMPT =
            CONNECT.multipliedBy(2).plus(SOCKET.multipliedBy(2)).plusSeconds(2);

    @TempDir
    Path dir;

    @Test
    void aKilledRedisAnswers503PromptlyLeavesNoHalfExtractionAndServesAgainAfterRestart() throws Exception {
        Path data = Files.createDirectories(dir.resolve("redis"));
        String prefix = RedisE2e.randomPrefix();
        Instant now = Clocks.wall().instant();
        List<Proxy> seeded = RedisE2e.proxies(PROXIES, now);
        try (PrivateRedisServer redis = PrivateRedisServer.durable(data);
                RedisPoolStore store = RedisPoolStore.connect(
                        new RedisStoreConfig("127.0.0.1", redis.port(), "", "", 0, prefix, CONNECT, SOCKET, 16),
                        StoreSettings.DEFAULTS);
                ProxyPoolServer server = ProxyPoolServer.builder(RedisE2e.config(dir, 0))
                        .pool(b -> b.store(store).proxies(seeded))
                        .start()) {
            URI uri = RedisE2e.extractions(server.apiPort());
            Map<String, Boolean> delivered = new ConcurrentHashMap<>();
            Queue<String> problems = new ConcurrentLinkedQueue<>();
            AtomicInteger succeeded = new AtomicInteger();
            AtomicInteger unavailable = new AtomicInteger();
            AtomicLong requestedByFailures = new AtomicLong();
            AtomicLong slowestFailureMillis = new AtomicLong();
            AtomicLong killedAt = new AtomicLong();
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int seed = c;
                clients.add(Thread.ofPlatform().name("client-" + c).start(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    int mine503 = 0;
                    try (HttpClient http = HttpClient.newBuilder()
                            .version(HttpClient.Version.HTTP_1_1)
                            .build()) {
                        for (int i = 0; i < 5_000 && mine503 < 3; i++) {
                            int count = 1 + random.nextInt(10);
                            long start = System.nanoTime();
                            HttpResponse<String> r = RedisE2e.extract(http, uri, count, true);
                            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                            if (r.statusCode() == 200) {
                                List<String> ids = RedisE2e.ids(r.body());
                                if (ids.size() != count) {
                                    problems.add("allOrNothing of " + count + " gave " + ids.size());
                                }
                                for (String id : ids) {
                                    if (delivered.put(id, true) != null) {
                                        problems.add(id + " delivered twice");
                                    }
                                }
                                if (succeeded.incrementAndGet() == 100) {
                                    killedAt.set(System.nanoTime());
                                    redis.kill(); // from a client: the others are mid-request now
                                }
                            } else if (r.statusCode() == 503 && r.body().contains("store_unavailable")) {
                                mine503++;
                                unavailable.incrementAndGet();
                                requestedByFailures.addAndGet(count);
                                slowestFailureMillis.accumulateAndGet(millis, Math::max);
                            } else {
                                problems.add(r.statusCode() + " " + r.body());
                                return;
                            }
                        }
                    } catch (Exception e) {
                        problems.add(e.toString());
                    }
                }));
            }
            for (Thread t : clients) {
                t.join(60_000);
            }
            long outageMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt.get());
            assertEquals(List.of(), List.copyOf(problems));
            assertTrue(killedAt.get() != 0, "Redis was killed mid-run");
            assertTrue(
                    unavailable.get() >= 3 * CLIENTS, "every client saw 503 store_unavailable: " + unavailable.get());
            assertTrue(
                    slowestFailureMillis.get() < PROMPT.toMillis(), "a 503 took " + slowestFailureMillis.get() + " ms");

            redis.launch(); // same port, same append-only file
            Instant after = Clocks.wall().instant();
            int stored = 0;
            Set<String> tombstoned = new HashSet<>();
            for (Proxy p : seeded) {
                boolean isStored = store.get(p.id()).isPresent();
                boolean isTombstoned = store.isTombstoned(p.key(), after);
                assertTrue(isStored != isTombstoned, p.id() + ": stored " + isStored + ", tombstoned " + isTombstoned);
                if (isStored) {
                    stored++;
                } else {
                    tombstoned.add(p.id());
                }
            }
            assertTrue(tombstoned.containsAll(delivered.keySet()), "every delivered proxy is tombstoned");
            int lost = tombstoned.size() - delivered.size();
            assertTrue(
                    lost >= 0 && lost <= requestedByFailures.get(),
                    "extracted but undelivered " + lost + " (failed requests asked for " + requestedByFailures.get()
                            + ")");
            assertEquals(PROXIES, stored + tombstoned.size());

            try (HttpClient http =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
                HttpResponse<String> r = RedisE2e.extract(http, uri, 5, true);
                assertEquals(200, r.statusCode(), r.body());
                assertEquals(5, RedisE2e.ids(r.body()).size());
                assertEquals(stored - 5, store.available(RedisE2e.UPSTREAM));
            }
            System.out.printf(
                    "redis outage e2e: %d ok before the kill, %d x 503 (slowest %d ms, outage handled in %d ms), "
                            + "%d extracted but undelivered%n",
                    succeeded.get(), unavailable.get(), slowestFailureMillis.get(), outageMillis, lost);
        }
    }
}
