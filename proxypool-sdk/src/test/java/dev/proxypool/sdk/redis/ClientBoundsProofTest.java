package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.ProxyFixtures;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/**
 * {@code minRemainingTtlSeconds} and {@code maxHealthAge} are the client's to choose: asked for more
 * time, or fresher checks, than any proxy has, an extraction must still prove the shortfall (exact
 * counts), and it read the filter's whole range, or without a filter the whole pool, on every call —
 * 0.6 s of Redis time per call at 100,000 proxies unfiltered (benchmarks/RESULTS.md), one client's
 * parameter stalling every other client. On a pool indexed alike every available proxy has its
 * expiry entry ({@code T xa}, +inf when it never expires), so the proxies with enough time left are
 * one range of it: empty, the call costs two commands; smaller than the filter's range, the proof
 * reads it instead. The latest health check written ({@code T n} field {@code lc}) bounds every
 * proxy's: older than the asked age, nothing qualifies. Real redis-server (private), commands counted
 * by {@code INFO commandstats}; {@link LayoutAudit} after.
 */
@Tag("slow")
class ClientBoundsProofTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    /** Large enough that a combination's range spans several pages of 1,000. */
    private static final int POOL = 20_000;
    /** Proxies that never expire, after the pool's numbers. */
    private static final int LASTING = 10;

    @RegisterExtension
    static final PrivateRedis server = new PrivateRedis();

    @Test
    void moreTimeThanAnyProxyHasIsProvedInAFewCommandsAndTheFewThatQualifyAreFound() {
        String prefix = "ppttl:proof:";
        try (RedisPoolStore store = TestRedis.privateStore(server.port(), prefix, StoreSettings.DEFAULTS)) {
            List<Proxy> pool = FourCountries.proxies(0, POOL, NOW);
            assertEquals(POOL, store.upsert(pool, NOW).added());

            // every proxy expires within 1 h + POOL s: 12 h is more than any has
            Duration twelveHours = Duration.ofHours(12);
            for (ExtractionFilter filter :
                    List.of(FourCountries.US_RESIDENTIAL, FourCountries.DE, FourCountries.NONE)) {
                Map<String, Long> commands =
                        TestRedis.commandsOf(server.port(), () -> assertDry(store, filter, twelveHours));
                long total =
                        commands.values().stream().mapToLong(Long::longValue).sum();
                // per call at most the fast path's 8 pops of candidates failing the TTL (SPOP, SREM, HGET,
                // SADD each, put back) and the general script's ZCOUNT of the expiry range: whatever the pool
                assertTrue(total <= 80, "a bounded number of commands for two calls: " + commands);
                assertEquals(2L, commands.get("zcount"), "the expiry range counted, each call: " + commands);
                for (String wide : List.of("zrange", "smismember", "sscan", "srandmember", "hmget")) {
                    assertNull(commands.get(wide), "no read of the pool (" + wide + "): " + commands);
                }
            }

            // the last 10 proxies have 1 h + 19,990 s or more left: one of them (19,992) is US residential
            Duration lastTen = Duration.ofHours(1).plusSeconds(POOL - 10);
            List<Proxy> qualifying = pool.subList(POOL - 10, POOL);
            List<String> usResidential = qualifying.stream()
                    .filter(p -> p.labels().values().equals(Map.of("country", "US", "type", "residential")))
                    .map(Proxy::id)
                    .toList();
            assertEquals(1, usResidential.size());
            Map<String, Long> commands = TestRedis.commandsOf(server.port(), () -> {
                assertEquals(usResidential, extracted(store, FourCountries.US_RESIDENTIAL, lastTen, 10));
                assertDry(store, FourCountries.US_RESIDENTIAL, lastTen);
            });
            // the expiry range (10 ids, one page) instead of the combination's 2,500 members (3 pages)
            assertTrue(commands.getOrDefault("zrange", 0L) <= 3, "one page per call at most: " + commands);
            assertEquals(
                    9,
                    extracted(store, FourCountries.NONE, lastTen, 100).size(),
                    "the other 9 qualify unfiltered, all found");

            // proxies that never expire qualify for any time: their entry is +inf
            List<Proxy> lasting = new ArrayList<>();
            for (int n = POOL; n < POOL + LASTING; n++) {
                lasting.add(FourCountries.proxy(n, null));
            }
            assertEquals(LASTING, store.upsert(lasting, NOW).added());
            Set<String> found = new HashSet<>(extracted(store, FourCountries.NONE, Duration.ofDays(3650), 100));
            assertEquals(lasting.stream().map(Proxy::id).collect(java.util.stream.Collectors.toSet()), found);
            assertDry(store, FourCountries.NONE, Duration.ofDays(3650));
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));
        } finally {
            TestRedis.deleteKeys("127.0.0.1", server.port(), prefix);
        }
    }

    @Test
    void aPoolNotIndexedAlikeKeepsTheExactProofOverTheFiltersRange() {
        String prefix = "ppttl:mixed:";
        try (RedisPoolStore store = TestRedis.privateStore(server.port(), prefix, StoreSettings.DEFAULTS)) {
            List<Proxy> pool = FourCountries.proxies(0, 2000, NOW);
            store.upsert(pool, NOW);
            try (RedisClient c = RedisClient.builder()
                    .hostAndPort("127.0.0.1", server.port())
                    .build()) {
                // as after an upgrade: not known to be alike, some proxy may lack its +inf entry
                assertEquals(1, c.hdel(new RedisKeys(prefix).poolTag() + "n", "z"));
            }
            Duration lastTwo = Duration.ofHours(1).plusSeconds(2000 - 2);
            Map<String, Long> commands = TestRedis.commandsOf(
                    server.port(),
                    () -> assertEquals(
                            2,
                            extracted(store, FourCountries.NONE, lastTwo, 10).size(),
                            "both found by reading the pool"));
            assertTrue(commands.containsKey("sscan") || commands.containsKey("srandmember"), "" + commands);
            assertDry(store, FourCountries.NONE, lastTwo);
        } finally {
            TestRedis.deleteKeys("127.0.0.1", server.port(), prefix);
        }
    }

    @Test
    void fresherChecksThanAnyProxyHasAreProvedInAFewCommands() {
        String prefix = "ppttl:checks:";
        try (RedisPoolStore store = TestRedis.privateStore(server.port(), prefix, StoreSettings.DEFAULTS)) {
            List<Proxy> pool = FourCountries.proxies(0, POOL, NOW);
            store.upsert(pool, NOW);
            Duration minute = Duration.ofMinutes(1);
            // never checked: nothing qualifies
            Map<String, Long> commands =
                    TestRedis.commandsOf(server.port(), () -> assertChecksDry(store, FourCountries.NONE, minute));
            assertBounded(commands);
            // every proxy checked 10 minutes ago: too old for a minute
            store.markChecked(pool.stream().map(Proxy::id).toList(), NOW.minus(Duration.ofMinutes(10)));
            for (ExtractionFilter filter :
                    List.of(FourCountries.US_RESIDENTIAL, FourCountries.DE, FourCountries.NONE)) {
                assertBounded(TestRedis.commandsOf(server.port(), () -> assertChecksDry(store, filter, minute)));
            }
            // two checked just now are found
            List<String> fresh = List.of(pool.get(0).id(), pool.get(1).id());
            store.markChecked(fresh, NOW);
            ExtractionResult r = store.extract(
                    ExtractionRequest.builder(5).maxHealthAge(minute).build(), NOW);
            assertEquals(
                    new HashSet<>(fresh),
                    new HashSet<>(assertInstanceOf(ExtractionResult.Extracted.class, r).proxies().stream()
                            .map(p -> p.proxy().id())
                            .toList()));
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));
        } finally {
            TestRedis.deleteKeys("127.0.0.1", server.port(), prefix);
        }
    }

    @Test
    void aLabelValueNoProxyHasBesideACountryIsProvedByItsEmptyRange() {
        String prefix = "ppttl:labels:";
        try (RedisPoolStore store = TestRedis.privateStore(server.port(), prefix, StoreSettings.DEFAULTS)) {
            List<Proxy> pool = new ArrayList<>(FourCountries.proxies(0, POOL, NOW));
            // 3 US proxies of a tier (a label outside store.index.dimensions, its key after "country": the
            // term a choice by kind alone would not take), and that tier nowhere else
            for (int n = POOL; n < POOL + 12; n += 4) {
                pool.add(ProxyFixtures.builder(n)
                        .labels(Labels.of("country", "US", "type", "datacenter", "tier", "gold"))
                        .build());
            }
            store.upsert(pool, NOW);
            ExtractionFilter usGold = ExtractionFilter.builder()
                    .country("US")
                    .label("tier", "gold")
                    .build();
            ExtractionFilter usPlatinum = ExtractionFilter.builder()
                    .country("US")
                    .label("tier", "platinum")
                    .build();
            Map<String, Long> commands = TestRedis.commandsOf(server.port(), () -> {
                assertEquals(3, extracted(store, usGold, Duration.ZERO, 10).size(), "the tier's 3, by its range");
                assertDry(store, usGold, Duration.ZERO);
                assertDry(store, usPlatinum, Duration.ZERO);
            });
            // the country's 5,000 members are never read: the tier's range (3, then none) is the smaller
            assertNull(commands.get("smismember"), "no wide read of the country: " + commands);
            assertTrue(commands.getOrDefault("zrange", 0L) <= 2, "no page of the country: " + commands);
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));
        } finally {
            TestRedis.deleteKeys("127.0.0.1", server.port(), prefix);
        }
    }

    /** A few commands for two calls (maxHealthAge takes the general script alone), none reading the pool. */
    private static void assertBounded(Map<String, Long> commands) {
        long total = commands.values().stream().mapToLong(Long::longValue).sum();
        assertTrue(total <= 12, "a few commands for two calls, whatever the pool: " + commands);
        for (String wide : List.of("zrange", "smismember", "sscan", "srandmember", "hmget", "zrangebylex")) {
            assertNull(commands.get(wide), "no read of the pool (" + wide + "): " + commands);
        }
    }

    /** A partial extraction with {@code filter} and {@code maxAge} gets none, and an allOrNothing one counts none. */
    private static void assertChecksDry(RedisPoolStore store, ExtractionFilter filter, Duration maxAge) {
        ExtractionResult none = store.extract(
                ExtractionRequest.builder(1).filter(filter).maxHealthAge(maxAge).build(), NOW);
        assertEquals(
                List.of(),
                assertInstanceOf(ExtractionResult.Extracted.class, none).proxies());
        ExtractionResult exact = store.extract(
                ExtractionRequest.builder(1)
                        .filter(filter)
                        .maxHealthAge(maxAge)
                        .allOrNothing()
                        .build(),
                NOW);
        assertEquals(new ExtractionResult.Insufficient(0), exact, "an exact count of none");
    }

    /** A partial extraction with {@code filter} and {@code minTtl} gets none, and an allOrNothing one counts none. */
    private static void assertDry(RedisPoolStore store, ExtractionFilter filter, Duration minTtl) {
        assertEquals(List.of(), extracted(store, filter, minTtl, 1), "none with that much time left");
        ExtractionResult exact = store.extract(
                ExtractionRequest.builder(1)
                        .filter(filter)
                        .minRemainingTtl(minTtl)
                        .allOrNothing()
                        .build(),
                NOW);
        assertEquals(new ExtractionResult.Insufficient(0), exact, "an exact count of none");
    }

    /** The ids a partial extraction of up to {@code count} hands out. */
    private static List<String> extracted(RedisPoolStore store, ExtractionFilter filter, Duration minTtl, int count) {
        ExtractionResult r = store.extract(
                ExtractionRequest.builder(count)
                        .filter(filter)
                        .minRemainingTtl(minTtl)
                        .build(),
                NOW);
        return assertInstanceOf(ExtractionResult.Extracted.class, r).proxies().stream()
                .map(p -> p.proxy().id())
                .toList();
    }
}
