package dev.proxypool.core.extract;

import static dev.proxypool.core.extract.ProxyFixtures.builder;
import static dev.proxypool.core.extract.ProxyFixtures.listAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Atomicity under contention: many threads extract from one pool (and republish into it) at once;
 * invariants are checked during and after. Sizes are overridable so a remote store stays within
 * the time bound.
 */
public interface ConcurrencyContract extends StoreUnderTest {

    /** Proxies in the extraction race (default 10,000). */
    default int concurrentPoolSize() {
        return 10_000;
    }

    /** Extracting threads (default 32). */
    default int concurrentThreads() {
        return 32;
    }

    /** Proxies in the republish race (default 2,000). */
    default int republishPoolSize() {
        return 2_000;
    }

    /** Wall-clock bound of each race. */
    default Duration raceTimeout() {
        return Duration.ofSeconds(20);
    }

    private List<Proxy> racePool(int size, Instant now) {
        Protocol[] protocols = Protocol.values();
        List<Proxy> ps = new ArrayList<>(size);
        for (int n = 0; n < size; n++) {
            ps.add(builder(n, protocols[n % protocols.length])
                    .upstream("up-" + (n % 4))
                    .expiresAt(now.plus(Duration.ofHours(1)))
                    .build());
        }
        for (int from = 0; from < size; from += 1000) {
            store().upsert(ps.subList(from, Math.min(size, from + 1000)), now);
        }
        return ps;
    }

    @Test
    default void concurrentExtractionsNeverShareAProxyAndKeepTheReserve() throws Exception {
        int size = concurrentPoolSize();
        int reserve = size / 20;
        Instant now = now();
        Map<String, Proxy> byId = new HashMap<>();
        racePool(size, now).forEach(p -> byId.put(p.id(), p));
        ConcurrentHashMap<String, Integer> owner = new ConcurrentHashMap<>();
        Queue<String> problems = new ConcurrentLinkedQueue<>();
        AtomicInteger extractedCount = new AtomicInteger();
        AtomicBoolean done = new AtomicBoolean();

        List<Callable<Void>> tasks = new ArrayList<>();
        for (int t = 0; t < concurrentThreads(); t++) {
            int me = t;
            tasks.add(() -> {
                SplittableRandom random = new SplittableRandom(7919L * (me + 1));
                for (int round = 0; round < 4 * size; round++) {
                    int count = 1 + random.nextInt(20);
                    boolean allOrNothing = random.nextInt(3) == 0;
                    ExtractionFilter filter = random.nextInt(4) == 0
                            ? ExtractionFilter.builder()
                                    .upstream("up-" + random.nextInt(4))
                                    .build()
                            : ExtractionFilter.ANY;
                    ExtractionRequest req = ExtractionRequest.builder(count)
                            .filter(filter)
                            .gatewayReserve(reserve)
                            .fulfillment(allOrNothing ? Fulfillment.ALL_OR_NOTHING : Fulfillment.PARTIAL)
                            .build();
                    switch (store().extract(req, now)) {
                        case ExtractionResult.Extracted e -> {
                            if (e.count() > count || (allOrNothing && e.count() != count)) {
                                problems.add(req + " returned " + e.count());
                            }
                            for (ExtractedProxy p : e.proxies()) {
                                Integer before = owner.putIfAbsent(p.id(), me);
                                if (before != null) {
                                    problems.add(p.id() + " went to threads " + before + " and " + me);
                                }
                                if (!filter.matches(p.proxy()) || !p.proxy().equals(byId.get(p.id()))) {
                                    problems.add(p.id() + " does not match " + filter);
                                }
                            }
                            extractedCount.addAndGet(e.count());
                            if (e.count() == 0 && !allOrNothing && filter.isAny()) {
                                return null; // the pool is down to the reserve
                            }
                        }
                        case ExtractionResult.Insufficient i -> {
                            if (!allOrNothing || i.available() >= count) {
                                problems.add(req + " was insufficient with " + i.available() + " available");
                            }
                        }
                    }
                }
                problems.add("thread " + me + " never saw the pool drained");
                return null;
            });
        }
        Callable<Void> watcher = () -> {
            while (!done.get()) {
                int total = totalAvailable(store());
                if (total < reserve) {
                    problems.add("pool fell to " + total + " below the reserve " + reserve);
                }
                Thread.yield();
            }
            return null;
        };

        race(tasks, watcher, done);

        assertNoProblems(problems);
        int remaining = totalAvailable(store());
        assertEquals(reserve, remaining, "a partial extraction of 0 means the pool is at the reserve");
        assertEquals(size, extractedCount.get() + remaining);
        assertEquals(extractedCount.get(), owner.size());
        for (StoredProxy left : listAll(store())) {
            assertFalse(owner.containsKey(left.id()), left.id() + " was extracted and is still stored");
        }
        for (String id : owner.keySet()) {
            assertTrue(store().isTombstoned(byId.get(id).key(), now), id + " has no tombstone");
        }
    }

    @Test
    default void republishingDuringExtractionNeverBringsAProxyBack() throws Exception {
        int size = republishPoolSize();
        Instant now = now();
        List<Proxy> pool = racePool(size, now);
        ConcurrentHashMap<String, Integer> owner = new ConcurrentHashMap<>();
        Queue<String> problems = new ConcurrentLinkedQueue<>();
        AtomicBoolean done = new AtomicBoolean();

        List<Callable<Void>> extractors = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int me = t;
            extractors.add(() -> {
                SplittableRandom random = new SplittableRandom(104_729L * (me + 1));
                for (int round = 0; round < 4 * size; round++) {
                    List<ExtractedProxy> got = ProxyFixtures.extracted(store().extract(
                                    ExtractionRequest.builder(1 + random.nextInt(20))
                                            .build(),
                                    now));
                    for (ExtractedProxy p : got) {
                        if (owner.putIfAbsent(p.id(), me) != null) {
                            problems.add(p.id() + " extracted twice");
                        }
                    }
                    if (got.isEmpty()) {
                        return null;
                    }
                }
                problems.add("extractor " + me + " never saw the pool drained");
                return null;
            });
        }
        Callable<Void> republisher = () -> {
            while (!done.get()) {
                for (int from = 0; from < size && !done.get(); from += 200) {
                    PublishResult r = store().upsert(pool.subList(from, Math.min(size, from + 200)), now);
                    if (r.added() != 0) {
                        problems.add("republish added " + r.added() + " extracted proxies back: " + r);
                    }
                }
            }
            return null;
        };

        race(extractors, republisher, done);

        assertNoProblems(problems);
        assertEquals(size, owner.size(), "every proxy was extracted exactly once");
        assertEquals(0, totalAvailable(store()));
        assertEquals(new PublishResult(0, 0, size, 0, 0), store().upsert(pool, now));
    }

    private static void assertNoProblems(Queue<String> problems) {
        List<String> all = List.copyOf(problems);
        assertTrue(
                all.isEmpty(),
                all.size() + " invariant violations, first ones: " + all.subList(0, Math.min(5, all.size())));
    }

    /** Runs {@code tasks} from one start signal beside {@code background}, which runs until they end. */
    private void race(List<Callable<Void>> tasks, Callable<Void> background, AtomicBoolean done) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size() + 1);
        CountDownLatch go = new CountDownLatch(1);
        try {
            Future<Void> bg = pool.submit(() -> {
                go.await();
                return background.call();
            });
            List<Future<Void>> futures = new ArrayList<>();
            for (Callable<Void> task : tasks) {
                futures.add(pool.submit(() -> {
                    go.await();
                    return task.call();
                }));
            }
            Ticker ticker = Clocks.monotonic();
            long deadline = ticker.read() + raceTimeout().toNanos();
            go.countDown();
            for (Future<Void> f : futures) {
                f.get(Math.max(1, deadline - ticker.read()), TimeUnit.NANOSECONDS);
            }
            done.set(true);
            bg.get(Math.max(1, deadline - ticker.read()), TimeUnit.NANOSECONDS);
        } finally {
            done.set(true);
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "race threads did not stop");
        }
    }
}
