package dev.proxypool.server.api.distribution;

import static dev.proxypool.server.api.distribution.DistributionFixture.START;
import static dev.proxypool.server.api.distribution.DistributionFixture.proxies;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Many HTTP clients drain one pool at once: no proxy twice, nothing lost, the reserve kept. */
class DistributionConcurrencyTest {

    private static final int CLIENTS = 32;
    private static final int PROXIES = 2_000;
    private static final int RESERVE = 100;

    @Test
    void concurrentClientsNeverReceiveTheSameProxyAndKeepTheReserve() throws Exception {
        List<Proxy> pool = new ArrayList<>();
        String[] upstreams = {"a", "b", "c", "d"};
        for (String u : upstreams) {
            pool.addAll(proxies(PROXIES / upstreams.length, u, Protocol.HTTP, "", START.plusSeconds(3600)));
        }
        Set<String> known = new HashSet<>();
        pool.forEach(p -> known.add(p.id()));
        try (DistributionFixture f =
                DistributionFixture.with(pool).reserve(RESERVE).start()) {
            assertEquals(PROXIES, f.initial);
            Queue<String> handedOut = new ConcurrentLinkedQueue<>();
            Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicInteger requests = new AtomicInteger();
            AtomicInteger conflicts = new AtomicInteger();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            long started = System.nanoTime();
            for (int c = 0; c < CLIENTS; c++) {
                int seed = c;
                threads.add(Thread.ofPlatform().name("client-" + c).start(() -> {
                    Random rnd = new Random(seed);
                    try (HttpClient http = HttpClient.newBuilder()
                            .version(HttpClient.Version.HTTP_1_1)
                            .build()) {
                        go.await();
                        for (int i = 0; i < 1_000; i++) {
                            int count = 1 + rnd.nextInt(25);
                            boolean all = rnd.nextBoolean();
                            String body = "{\"count\": " + count + ", \"fulfillment\": \""
                                    + (all ? "allOrNothing" : "partial") + "\"}";
                            HttpResponse<String> r = http.send(
                                    HttpRequest.newBuilder(f.uri)
                                            .timeout(Duration.ofSeconds(20))
                                            .header("Authorization", "Bearer " + DistributionFixture.ALICE_TOKEN)
                                            .POST(HttpRequest.BodyPublishers.ofString(body))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
                            requests.incrementAndGet();
                            if (r.statusCode() == 409) {
                                conflicts.incrementAndGet();
                                continue;
                            }
                            assertEquals(200, r.statusCode(), r.body());
                            List<String> ids = Responses.ids(r);
                            assertTrue(ids.size() <= count);
                            if (all) {
                                assertEquals(count, ids.size(), "allOrNothing: all of them");
                            }
                            handedOut.addAll(ids);
                            if (!all && ids.isEmpty()) {
                                return; // the pool is down to the reserve
                            }
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            go.countDown();
            for (Thread t : threads) {
                t.join(60_000);
            }
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertTrue(failures.isEmpty(), () -> "client failures: " + failures.peek());

            List<String> all = new ArrayList<>(handedOut);
            Set<String> unique = new HashSet<>(all);
            assertEquals(all.size(), unique.size(), "a proxy was handed out twice");
            assertTrue(known.containsAll(unique), "only pool proxies are handed out");
            assertEquals(PROXIES, unique.size() + f.available(), "extracted + remaining = initial");
            assertEquals(RESERVE, f.available(), "drained exactly down to the gateway reserve");
            System.out.printf(
                    "distribution concurrency: %d clients, %d requests (%d x 409), %d proxies in %d ms%n",
                    CLIENTS, requests.get(), conflicts.get(), unique.size(), millis);
        }
    }

    @Test
    void concurrentRequestsWithOneIdempotencyKeyExtractOnce() throws Exception {
        try (DistributionFixture f = DistributionFixture.with(
                        proxies(100, "a", Protocol.HTTP, "", START.plusSeconds(3600)))
                .start()) {
            Queue<HttpResponse<String>> answers = new ConcurrentLinkedQueue<>();
            Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int c = 0; c < 16; c++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        go.await();
                        answers.add(f.alice("{\"count\": 7}", "Idempotency-Key", "one-order"));
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            go.countDown();
            for (Thread t : threads) {
                t.join(20_000);
            }
            assertTrue(failures.isEmpty(), () -> "failures: " + failures.peek());
            assertEquals(93, f.available(), "exactly one extraction of 7");
            assertEquals(1, f.store.extractCalls.get());
            Set<String> bodies = new HashSet<>();
            int fresh = 0;
            for (HttpResponse<String> r : answers) {
                if (r.statusCode() == 409) {
                    assertTrue(r.body().contains("request_in_progress"), r.body());
                    continue;
                }
                assertEquals(200, r.statusCode(), r.body());
                bodies.add(r.body());
                if (r.headers().firstValue("Idempotent-Replayed").isEmpty()) {
                    fresh++;
                }
            }
            assertEquals(1, fresh, "one original answer, the rest replays or in-progress");
            assertEquals(1, bodies.size(), "every 200 is the same body");
        }
    }
}
