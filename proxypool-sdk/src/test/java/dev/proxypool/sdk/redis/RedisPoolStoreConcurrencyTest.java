package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ExtractedProxy;
import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.Fulfillment;
import dev.proxypool.core.extract.ProxyFixtures;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.extract.UpstreamCounts;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * 16 threads x 500 extractions (count 1..20, partial and allOrNothing, filters from none to
 * two labels, TTL and health limits, a gateway reserve) over 10,000 proxies of one Redis store.
 * Proves across the real scripts: no proxy id handed out twice, every one admitted by its request,
 * the reserve never crossed (watched while running), extracted + remaining = initial, and the
 * Redis layout consistent afterwards. Then the same for count=1 requests only, which the store
 * coalesces (several requests, each with its own filter and now, served by one script call).
 */
@Tag("slow")
class RedisPoolStoreConcurrencyTest {

    private static final int POOL = 10_000;
    private static final int THREADS = 16;
    private static final int CALLS = 500;
    private static final int RESERVE = 500;
    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private RedisPoolStore store;

    @BeforeEach
    void open() {
        store = TestRedis.store(StoreSettings.DEFAULTS);
    }

    @AfterEach
    void close() {
        store.close();
        TestRedis.deleteKeys(TestRedis.HOST, TestRedis.PORT, store.keyPrefix());
    }

    /** Four countries, two types, four protocols, four upstreams; expiries 20 min..4 h; every other one checked. */
    private Map<String, Proxy> publishPool(Map<String, Instant> checkedAt) {
        String[] countries = {"US", "DE", "FR", "JP"};
        Protocol[] protocols = Protocol.values();
        Map<String, Proxy> byId = new HashMap<>();
        List<Proxy> batch = new ArrayList<>();
        for (int n = 0; n < POOL; n++) {
            Proxy p = ProxyFixtures.builder(n, protocols[(n / 8) % 4])
                    .upstream("up-" + (n / 3) % 4)
                    .labels(Labels.of(
                            "country", countries[n % 4], "type", (n / 4) % 2 == 0 ? "residential" : "datacenter"))
                    .expiresAt(NOW.plus(Duration.ofMinutes(20 + 20L * (n % 12))))
                    .build();
            byId.put(p.id(), p);
            batch.add(p);
        }
        assertEquals(POOL, store.upsert(batch, NOW).added());
        List<String> checked = new ArrayList<>();
        for (int n = 0; n < POOL; n += 1 + n % 2) { // about two in three
            Proxy p = batch.get(n);
            {
                checked.add(p.id());
                checkedAt.put(p.id(), NOW.minus(Duration.ofMinutes(30)));
            }
        }
        store.markChecked(checked, NOW.minus(Duration.ofMinutes(30)));
        return byId;
    }

    private static ExtractionRequest randomRequest(SplittableRandom random) {
        ExtractionFilter filter = switch (random.nextInt(5)) {
            case 0 -> ExtractionFilter.ANY;
            case 1 -> ExtractionFilter.builder().country("US").build();
            case 2 ->
                ExtractionFilter.builder()
                        .country(random.nextBoolean() ? "DE" : "JP")
                        .label("type", "residential")
                        .build();
            case 3 ->
                ExtractionFilter.builder()
                        .upstream("up-" + random.nextInt(4))
                        .protocol(Protocol.SOCKS5)
                        .build();
            default -> ExtractionFilter.builder().label("type", "datacenter").build();
        };
        return ExtractionRequest.builder(1 + random.nextInt(20))
                .fulfillment(random.nextInt(3) == 0 ? Fulfillment.ALL_OR_NOTHING : Fulfillment.PARTIAL)
                .filter(filter)
                .minRemainingTtl(random.nextInt(4) == 0 ? Duration.ofMinutes(90) : Duration.ZERO)
                .maxHealthAge(random.nextInt(5) == 0 ? Duration.ofHours(1) : Duration.ZERO)
                .gatewayReserve(RESERVE)
                .build();
    }

    @Test
    void sixteenThreadsNeverShareAProxyNorCrossTheReserve() throws Exception {
        Map<String, Instant> checkedAt = new HashMap<>();
        Map<String, Proxy> byId = publishPool(checkedAt);
        ConcurrentHashMap<String, Integer> owner = new ConcurrentHashMap<>();
        int extracted = hammer(byId, checkedAt, owner, CALLS, RedisPoolStoreConcurrencyTest::randomRequest, me -> NOW);
        int remaining = accounted(byId, owner, extracted);
        // drain what is left down to exactly the reserve
        int more;
        do {
            more = ProxyFixtures.extracted(store.extract(
                            ExtractionRequest.builder(1000)
                                    .gatewayReserve(RESERVE)
                                    .build(),
                            NOW))
                    .size();
            remaining -= more;
        } while (more > 0);
        assertEquals(RESERVE, remaining);
        assertEquals(List.of(), LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, store.keyPrefix()));
    }

    @Test
    void countOneExtractionsOfSixteenThreadsAreCoalescedAndNeverShared() throws Exception {
        // the Distribution API's common call, count=1, from 16 threads whose clocks differ by a few ms:
        // the store serves the requests that arrive together with one script call (RedisPoolStore's
        // coalescer), each with its own filter, TTL and now; 16 x 640 calls ask for more than the pool
        // holds above the reserve, so the last ones meet the reserve and the empty sets
        Map<String, Instant> checkedAt = new HashMap<>();
        Map<String, Proxy> byId = publishPool(checkedAt);
        ConcurrentHashMap<String, Integer> owner = new ConcurrentHashMap<>();
        long callsBefore = store.oneEach().calls();
        long requestsBefore = store.oneEach().requests();
        int extracted = hammer(
                byId,
                checkedAt,
                owner,
                640,
                random -> ExtractionRequest.builder(1)
                        .fulfillment(random.nextBoolean() ? Fulfillment.ALL_OR_NOTHING : Fulfillment.PARTIAL)
                        .filter(randomRequest(random).filter())
                        .minRemainingTtl(random.nextInt(4) == 0 ? Duration.ofMinutes(90) : Duration.ZERO)
                        .gatewayReserve(RESERVE)
                        .build(),
                me -> NOW.plusMillis(me));
        long calls = store.oneEach().calls() - callsBefore;
        long requests = store.oneEach().requests() - requestsBefore;
        assertTrue(requests > 16 * 500, "count=1 requests on the fast path: " + requests);
        assertTrue(calls < requests, "coalesced: " + requests + " requests in " + calls + " calls");
        accounted(byId, owner, extracted);
        assertEquals(List.of(), LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, store.keyPrefix()));
    }

    /**
     * Asserts that the {@code extracted} proxies (their owners in {@code owner}) and the ones still
     * available make the pool, that the reserve held and that every extracted one is tombstoned;
     * returns how many are available.
     */
    private int accounted(Map<String, Proxy> byId, Map<String, Integer> owner, int extracted) {
        int remaining =
                store.available("up-0") + store.available("up-1") + store.available("up-2") + store.available("up-3");
        assertEquals(POOL, extracted + remaining, "extracted + remaining = initial");
        assertEquals(extracted, owner.size());
        assertTrue(remaining >= RESERVE, "remaining " + remaining);
        for (String id : owner.keySet()) {
            assertTrue(store.isTombstoned(byId.get(id).key(), NOW), id + " has no tombstone");
        }
        return remaining;
    }

    /**
     * {@value #THREADS} threads, each {@code calls} extractions of {@code requests} at its
     * {@code nowOf(thread)}, while a watcher checks the reserve; asserts that
     * nothing went to two threads, every proxy was admitted by its request and every answer kept its
     * fulfillment; returns the proxies extracted (their owners in {@code owner}).
     */
    private int hammer(
            Map<String, Proxy> byId,
            Map<String, Instant> checkedAt,
            ConcurrentHashMap<String, Integer> owner,
            int calls,
            Function<SplittableRandom, ExtractionRequest> requests,
            IntFunction<Instant> nowOf)
            throws Exception {
        Queue<String> problems = new ConcurrentLinkedQueue<>();
        AtomicInteger extracted = new AtomicInteger();
        AtomicBoolean done = new AtomicBoolean();
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int me = t;
                workers.add(pool.submit(() -> {
                    go.await();
                    SplittableRandom random = new SplittableRandom(31L * (me + 1));
                    Instant now = nowOf.apply(me);
                    for (int call = 0; call < calls; call++) {
                        ExtractionRequest req = requests.apply(random);
                        switch (store.extract(req, now)) {
                            case ExtractionResult.Extracted e -> {
                                if (e.count() > req.count()
                                        || (req.fulfillment() == Fulfillment.ALL_OR_NOTHING
                                                && e.count() != req.count())) {
                                    problems.add(req + " returned " + e.count());
                                }
                                for (ExtractedProxy p : e.proxies()) {
                                    Integer before = owner.putIfAbsent(p.id(), me);
                                    if (before != null) {
                                        problems.add(p.id() + " went to threads " + before + " and " + me);
                                    }
                                    if (!p.proxy().equals(byId.get(p.id()))
                                            || !req.admits(p.proxy(), checkedAt.get(p.id()), now)) {
                                        problems.add(p.id() + " is not admitted by " + req);
                                    }
                                }
                                extracted.addAndGet(e.count());
                            }
                            case ExtractionResult.Insufficient i -> {
                                if (req.fulfillment() != Fulfillment.ALL_OR_NOTHING || i.available() >= req.count()) {
                                    problems.add(req + " insufficient with " + i.available());
                                }
                            }
                        }
                    }
                    return null;
                }));
            }
            Future<?> watcher = pool.submit(() -> {
                go.await();
                while (!done.get()) {
                    int total = 0;
                    for (UpstreamCounts c : store.countsByUpstream().values()) {
                        total += c.available();
                    }
                    if (total < RESERVE) {
                        problems.add("pool fell to " + total + " below the reserve");
                    }
                }
                return null;
            });
            go.countDown();
            for (Future<?> w : workers) {
                w.get(60, TimeUnit.SECONDS);
            }
            done.set(true);
            watcher.get(10, TimeUnit.SECONDS);
        } finally {
            done.set(true);
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
        assertTrue(
                problems.isEmpty(),
                problems.size() + " violations, first: "
                        + problems.stream().limit(5).toList());
        return extracted.get();
    }
}
