package dev.proxypool.server.e2e.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.redis.ExtractionCoalescing;
import dev.proxypool.sdk.redis.RedisPoolStore;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.server.ProxyPoolServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Distribution API over the real shared Redis (127.0.0.1:6379, a random key prefix removed
 * after): a ProxyPoolServer whose pool lives in a RedisPoolStore, 10,000 proxies, a gateway
 * reserve, and 32 concurrent JDK HttpClient workers extracting mixed counts with both fulfilments.
 */
@Tag("slow")
class RedisExtractionEndToEndTest {

    private static final int PROXIES = 10_000;
    private static final int RESERVE = 500;
    private static final int CLIENTS = 32;

    @TempDir
    Path dir;

    @Test
    void thirtyTwoHttpClientsDrainARedisPoolToTheReserveAndNeverGetAProxyTwice() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        Instant now = Clocks.wall().instant();
        List<Proxy> seeded = RedisE2e.proxies(PROXIES, now);
        Set<String> known = new HashSet<>();
        seeded.forEach(p -> known.add(p.id()));
        try (RedisPoolStore store = RedisPoolStore.connect(
                        RedisStoreConfig.DEFAULTS.withKeyPrefix(prefix).withMaxConnections(48),
                        StoreSettings.DEFAULTS);
                ProxyPoolServer server = ProxyPoolServer.builder(RedisE2e.config(dir, RESERVE))
                        .pool(b -> b.store(store).proxies(seeded))
                        .start()) {
            int initial = store.available(RedisE2e.UPSTREAM);
            assertEquals(PROXIES, initial);
            URI uri = RedisE2e.extractions(server.apiPort());

            AtomicBoolean done = new AtomicBoolean();
            AtomicInteger lowest = new AtomicInteger(initial);
            Thread watcher = Thread.ofPlatform().name("reserve-watcher").start(() -> {
                while (!done.get()) {
                    lowest.accumulateAndGet(store.available(RedisE2e.UPSTREAM), Math::min);
                }
            });
            Queue<String> handedOut = new ConcurrentLinkedQueue<>();
            Queue<String> problems = new ConcurrentLinkedQueue<>();
            AtomicInteger requests = new AtomicInteger();
            AtomicInteger insufficient = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> clients = new ArrayList<>();
            long started = System.nanoTime();
            for (int c = 0; c < CLIENTS; c++) {
                int seed = c;
                clients.add(Thread.ofPlatform().name("client-" + c).start(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    try (HttpClient http = HttpClient.newBuilder()
                            .version(HttpClient.Version.HTTP_1_1)
                            .build()) {
                        go.await();
                        for (int i = 0; i < 2_000; i++) {
                            int count = 1 + random.nextInt(20);
                            boolean all = random.nextBoolean();
                            HttpResponse<String> r = RedisE2e.extract(http, uri, count, all);
                            requests.incrementAndGet();
                            if (r.statusCode() == 409 && all && r.body().contains("insufficient_proxies")) {
                                insufficient.incrementAndGet();
                                continue;
                            }
                            if (r.statusCode() != 200) {
                                problems.add(r.statusCode() + " " + r.body());
                                return;
                            }
                            List<String> ids = RedisE2e.ids(r.body());
                            if (all ? ids.size() != count : ids.size() > count) {
                                problems.add(
                                        (all ? "allOrNothing" : "partial") + " of " + count + " gave " + ids.size());
                                return;
                            }
                            handedOut.addAll(ids);
                            if (!all && ids.isEmpty()) {
                                return; // down to the reserve
                            }
                        }
                        problems.add(Thread.currentThread().getName() + " never reached the reserve");
                    } catch (Exception e) {
                        problems.add(e.toString());
                    }
                }));
            }
            go.countDown();
            for (Thread t : clients) {
                t.join(60_000);
            }
            done.set(true);
            watcher.join(5_000);
            long millis = (System.nanoTime() - started) / 1_000_000;

            assertEquals(List.of(), List.copyOf(problems));
            List<String> all = new ArrayList<>(handedOut);
            Set<String> unique = new HashSet<>(all);
            assertEquals(all.size(), unique.size(), "a proxy was handed out twice");
            assertTrue(known.containsAll(unique), "only seeded proxies are handed out");
            int remaining = store.available(RedisE2e.UPSTREAM);
            assertEquals(initial, unique.size() + remaining, "extracted + remaining = initial");
            assertEquals(RESERVE, remaining, "drained exactly down to the reserve");
            assertTrue(
                    lowest.get() >= RESERVE, "the reserve was violated: " + lowest.get() + " available at one point");
            Instant after = Clocks.wall().instant();
            for (Proxy p : seeded) {
                if (unique.contains(p.id())) {
                    assertTrue(store.isTombstoned(p.key(), after), p.id() + " handed out but not tombstoned");
                }
            }
            // the count=1 requests (about 1 in 20) went through the store's coalescer: its counts on /observe/metrics
            ExtractionCoalescing coalescing = store.coalescing();
            String metrics = RedisClusterPromotionEndToEndTest.get(server.apiPort(), "/observe/metrics");
            assertTrue(coalescing.requests() > 0 && coalescing.calls() <= coalescing.requests(), coalescing.toString());
            assertEquals(0, coalescing.queueTimeouts(), coalescing.toString());
            assertEquals(coalescing.calls(), counter(metrics, "proxypool_store_extraction_calls_total"), metrics);
            assertEquals(coalescing.requests(), counter(metrics, "proxypool_store_extraction_requests_total"));
            assertEquals(0, counter(metrics, "proxypool_store_extraction_queue_timeouts_total"));
            // the calls near the reserve went to the general script, which counts exactly
            assertTrue(store.generalExtractionCalls() > 0, "the reserve's exact count: the general script");
            assertEquals(
                    store.generalExtractionCalls(),
                    counter(metrics, "proxypool_store_extraction_general_calls_total"),
                    metrics);
            System.out.printf(
                    "redis e2e: %d HTTP clients, %d requests (%d x 409), %d proxies extracted in %d ms;"
                            + " count=1: %d requests in %d calls%n",
                    CLIENTS,
                    requests.get(),
                    insufficient.get(),
                    unique.size(),
                    millis,
                    coalescing.requests(),
                    coalescing.calls());
        } finally {
            RedisE2e.deleteKeys(6379, prefix);
        }
    }

    /** The value of the counter {@code name} (its only series) in a Prometheus scrape. */
    private static long counter(String metrics, String name) {
        Matcher m =
                Pattern.compile("(?m)^" + name + "(\\{[^}]*})? ([0-9.eE+-]+)$").matcher(metrics);
        assertTrue(
                m.find(),
                name + " in the scrape: "
                        + String.join(
                                "\n",
                                metrics.lines()
                                        .filter(l -> l.contains("proxypool_store"))
                                        .toList()));
        return (long) Double.parseDouble(m.group(2));
    }
}
