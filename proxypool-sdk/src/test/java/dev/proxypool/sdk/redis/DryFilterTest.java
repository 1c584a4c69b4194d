package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Proxy;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/**
 * A filter on declared labels whose combination ran dry while the rest of its country did not (a
 * routing's "US residential" emptied): the extraction must prove that none is left. On a pool whose
 * every proxy is indexed under the caller's dimensions (the index tag, common.lua
 * {@code indexed_alike}) the combination's set, popped empty by the fast path, is the proof at once,
 * and its composite index range when the set still holds members that cannot be extracted (disabled
 * ones); before, the general script read the country's whole range (16–26 ms of Redis time at 100,000
 * proxies, benchmarks/RESULTS.md). A pool mixed with proxies indexed under other dimensions keeps the
 * exact proof over the single label's range and finds them, and becomes alike again once the purge
 * has checked that every proxy carries one tag. Real redis-server (private), commands counted by
 * {@code INFO commandstats}; {@link LayoutAudit} after each.
 */
@Tag("slow")
class DryFilterTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final int POOL = 4000;

    @RegisterExtension
    static final PrivateRedis server = new PrivateRedis();

    @Test
    void aDryCombinationIsProvedByItsEmptySetAtOnceAndByItsCompositeRangeAfterwards() {
        String prefix = "ppdry:alike:";
        try (RedisPoolStore store = connect(prefix, StoreSettings.DEFAULTS)) {
            load(store, 0, POOL);
            assertEquals(ProxyCodec.indexTag(StoreSettings.DEFAULTS), tag(prefix), "a pool filled by one store");
            Set<String> seen = new HashSet<>();
            int drained = drain(store, FourCountries.US_RESIDENTIAL, seen);
            assertEquals(POOL / 8, drained, "every US residential proxy handed out once");

            // at once, before any purge: the combination's set was popped empty by the fast path
            Map<String, Long> commands =
                    TestRedis.commandsOf(server.port(), () -> assertDry(store, FourCountries.US_RESIDENTIAL));
            assertEquals(
                    Map.of("spop", 2L, "scard", 2L, "hget", 2L, "zrangebyscore", 2L),
                    commands,
                    "an empty set, the tag and the lapsed holds, each call");

            // the rest of the country is there and still extracted
            ExtractionFilter datacenter = ExtractionFilter.builder()
                    .country("US")
                    .label("type", "datacenter")
                    .build();
            for (int i = 0; i < 10; i++) {
                var one = (ExtractionResult.Extracted) store.extract(
                        ExtractionRequest.builder(1).filter(datacenter).build(), NOW);
                String id = one.proxies().getFirst().proxy().id();
                assertTrue(seen.add(id), "handed out twice: " + id);
            }

            // a combination whose proxies are all disabled: its set holds them (an enable needs no
            // set key), its composite range does not: the range, seen whole, is the proof
            ExtractionFilter deResidential = ExtractionFilter.builder()
                    .country("DE")
                    .label("type", "residential")
                    .build();
            List<String> german = FourCountries.proxies(0, POOL, NOW).stream()
                    .filter(p -> p.labels().values().equals(Map.of("country", "DE", "type", "residential")))
                    .map(Proxy::id)
                    .toList();
            assertEquals(POOL / 8, german.size());
            german.forEach(id -> assertTrue(store.setDisabled(id, true), id));
            store.purgeExpired(NOW);
            commands = TestRedis.commandsOf(server.port(), () -> assertDry(store, deResidential));
            // each call: the fast path's 8 pops of disabled members, put back (bounded, whatever the
            // pool), then one window of the composite range, seen whole (and its wrap): no window of
            // the country's range, no wide read, no page by rank
            assertEquals(4L, commands.get("zrangebylex"), "the composite range's window, each call: " + commands);
            assertNull(commands.get("smismember"), "no wide read of the country's members: " + commands);
            assertNull(commands.get("zrange"), "no page of the country's 1,000 members read by rank: " + commands);
            assertEquals(16L, commands.get("spop"), "the fast path's 8 rounds, each call: " + commands);
            assertTrue(store.setDisabled(german.getFirst(), false));
            var back = (ExtractionResult.Extracted) store.extract(
                    ExtractionRequest.builder(1).filter(deResidential).build(), NOW);
            assertEquals(german.getFirst(), back.proxies().getFirst().proxy().id(), "enabled, found at once");
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));
        } finally {
            TestRedis.deleteKeys("127.0.0.1", server.port(), prefix);
        }
    }

    /** A partial count=1 extraction with {@code filter} gets none, and an allOrNothing one counts none. */
    private static void assertDry(RedisPoolStore store, ExtractionFilter filter) {
        ExtractionResult none =
                store.extract(ExtractionRequest.builder(1).filter(filter).build(), NOW);
        assertInstanceOf(ExtractionResult.Extracted.class, none);
        assertTrue(((ExtractionResult.Extracted) none).proxies().isEmpty(), "none left: " + none);
        ExtractionResult exact = store.extract(
                ExtractionRequest.builder(1).filter(filter).allOrNothing().build(), NOW);
        assertEquals(new ExtractionResult.Insufficient(0), exact, "an exact count of none");
    }

    @Test
    void aPoolMixedWithOtherDimensionsFindsEveryMatchAndIsAlikeAgainOnceRepublished() {
        String prefix = "ppdry:mixed:";
        StoreSettings countryOnly =
                StoreSettings.builder().indexDimensions(List.of("country")).build();
        try (RedisPoolStore store = connect(prefix, StoreSettings.DEFAULTS);
                RedisPoolStore older = connect(prefix, countryOnly)) {
            load(store, 0, POOL);
            // a process still configured with other dimensions publishes 8 proxies: no composite term
            load(older, POOL, POOL + 8);
            assertNull(tag(prefix), "mixed: not every proxy is indexed under one tag");
            store.purgeExpired(NOW);
            assertNull(tag(prefix), "the purge's check met the other dimensions' proxies");
            // it waits on the one it met: the next purges read that entry, not the pool again
            Map<String, Long> waiting = TestRedis.commandsOf(server.port(), () -> store.purgeExpired(NOW));
            assertNull(waiting.get("hscan"), "no rescan while the entry it met keeps its tag: " + waiting);
            assertNull(tag(prefix));

            Set<String> seen = new HashSet<>();
            // the US residential ones (n % 8 == 0) of both: the others' only through the single terms
            assertEquals(
                    POOL / 8 + 1, drain(store, FourCountries.US_RESIDENTIAL, seen), "every match, the older's too");
            ExtractionResult exact = store.extract(
                    ExtractionRequest.builder(1)
                            .filter(FourCountries.US_RESIDENTIAL)
                            .allOrNothing()
                            .build(),
                    NOW);
            assertEquals(new ExtractionResult.Insufficient(0), exact);

            // republished by this store, the older's proxies carry its tag: the purge marks the pool alike
            var again = store.upsert(FourCountries.proxies(POOL, POOL + 8, NOW), NOW);
            assertEquals(7, again.refreshed(), "the older's 7 left, refreshed: " + again);
            assertEquals(1, again.skippedTombstoned(), "the one extracted stays out: " + again);
            store.purgeExpired(NOW);
            assertEquals(ProxyCodec.indexTag(StoreSettings.DEFAULTS), tag(prefix), "alike again");
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));

            // and one publish under other dimensions makes it mixed at once
            load(older, POOL + 8, POOL + 9);
            assertNull(tag(prefix));
            assertFalse(LayoutAudit.problems("127.0.0.1", server.port(), prefix).stream()
                    .anyMatch(p -> p.contains("indexed alike")));
        } finally {
            TestRedis.deleteKeys("127.0.0.1", server.port(), prefix);
        }
    }

    /** Publishes {@link #proxies} {@code from..to-1}, all new. */
    private static void load(RedisPoolStore store, int from, int to) {
        assertEquals(
                to - from,
                store.upsert(FourCountries.proxies(from, to, NOW), NOW).added());
    }

    /** Extracts with {@code filter}, 100 at a time, until none is left; the number extracted, each new to {@code seen}. */
    private static int drain(RedisPoolStore store, ExtractionFilter filter, Set<String> seen) {
        int got = 0;
        for (int calls = 0; calls < 1000; calls++) {
            ExtractionResult r =
                    store.extract(ExtractionRequest.builder(100).filter(filter).build(), NOW);
            List<?> proxies = ((ExtractionResult.Extracted) r).proxies();
            if (proxies.isEmpty()) {
                return got;
            }
            for (var p : ((ExtractionResult.Extracted) r).proxies()) {
                assertTrue(
                        seen.add(p.proxy().id()),
                        "handed out twice: " + p.proxy().id());
            }
            got += proxies.size();
        }
        throw new AssertionError("the pool did not run dry in 1,000 calls");
    }

    /** The index tag the pool is marked alike under (T n field 'z'), or null when mixed. */
    private static String tag(String prefix) {
        try (RedisClient c =
                RedisClient.builder().hostAndPort("127.0.0.1", server.port()).build()) {
            return c.hget(new RedisKeys(prefix).poolTag() + "n", "z");
        }
    }

    /** A store on the private server under {@code prefix}. */
    private static RedisPoolStore connect(String prefix, StoreSettings settings) {
        return TestRedis.privateStore(server.port(), prefix, settings);
    }
}
