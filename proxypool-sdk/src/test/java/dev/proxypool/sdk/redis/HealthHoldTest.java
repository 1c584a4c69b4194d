package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.PageRequest;
import dev.proxypool.core.extract.PoolQuery;
import dev.proxypool.core.extract.ProxyState;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.extract.UpstreamCounts;
import dev.proxypool.core.model.Proxy;
import java.time.Duration;
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
 * Proxies held out of extraction by health ({@code PoolStore.markUnhealthy}: a worker sees them
 * cooling or probing) in the numbers an outage brings: a whole combination, a whole country, the
 * whole pool. A held proxy is out of the available set and of the index (common.lua {@code T o}), so
 * the extraction proves that none is left in a few commands; before, it read every held proxy of
 * the filter's range (or, unfiltered, of the pool) on every call: 89–99 ms of Redis time per call
 * at 100,000 proxies with one country filtered, 0.7 s unfiltered (benchmarks/RESULTS.md), while
 * clients retry hardest. Held proxies stay counted and listed, keep their state through a refresh,
 * a disable and an enable, leave on expiry, and come back when the hold ends or lapses. Real
 * redis-server (private), commands counted by {@code INFO commandstats}; {@link LayoutAudit} after
 * each step.
 */
@Tag("slow")
class HealthHoldTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final int POOL = 4000;

    @RegisterExtension
    static final PrivateRedis server = new PrivateRedis();

    @Test
    void aFilterOrAPoolWhollyHeldIsProvedEmptyInAFewCommands() {
        String prefix = "pphold:outage:";
        try (RedisPoolStore store = connect(prefix)) {
            List<Proxy> all = FourCountries.proxies(0, POOL, NOW);
            assertEquals(POOL, store.upsert(all, NOW).added());
            Map<String, UpstreamCounts> counts = store.countsByUpstream();

            // every US residential proxy held (an outage of the provider selling them)
            assertEquals(
                    POOL / 8,
                    store.markUnhealthy(ids(all, FourCountries.US_RESIDENTIAL), NOW.plus(Duration.ofMinutes(1))));
            Map<String, Long> commands =
                    TestRedis.commandsOf(server.port(), () -> assertDry(store, FourCountries.US_RESIDENTIAL));
            // each call: the fast path's 8 pops of held members (SPOP, SMOVE, SISMEMBER, HEXISTS, HGET
            // each: not taken, not retired in T y nor T g), put back, then extract.lua's windows of the
            // composite range, empty: 46 commands whatever the pool's size, no read of the 500 held proxies
            assertBounded(commands, 92);
            assertEquals(16L, commands.get("spop"), "the fast path's 8 rounds, each call: " + commands);
            assertNull(commands.get("hmget"), "no record read: " + commands);
            assertEquals(counts, store.countsByUpstream(), "held proxies stay counted available");
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));

            // a whole country held: the country's range (a single label) is empty too
            store.markUnhealthy(ids(all, FourCountries.DE), NOW.plus(Duration.ofMinutes(1)));
            commands = TestRedis.commandsOf(server.port(), () -> assertDry(store, FourCountries.DE));
            assertBounded(commands, 92);

            // the whole pool held (the workers' own network failed): no filter, no read of the pool
            store.markUnhealthy(ids(all, FourCountries.NONE), NOW.plus(Duration.ofMinutes(1)));
            commands = TestRedis.commandsOf(server.port(), () -> assertDry(store, FourCountries.NONE));
            assertBounded(commands, 12);
            assertEquals(4L, commands.get("spop"), "the fast path's pop and extract.lua's, each call: " + commands);
            assertEquals(counts, store.countsByUpstream());
            var page =
                    store.list(PoolQuery.ALL.withState(ProxyState.AVAILABLE), new PageRequest(PageRequest.FIRST, 1000));
            assertEquals(1000, page.proxies().size(), "held proxies stay listed, available");
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));

            // healthy again: one proxy, then all
            String first = ids(all, FourCountries.US_RESIDENTIAL).getFirst();
            store.markHealthy(List.of(first));
            assertEquals(
                    List.of(first), extracted(store, FourCountries.US_RESIDENTIAL, 5), "the one healthy again, alone");
            store.markHealthy(ids(all, FourCountries.NONE));
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < 20; i++) {
                for (String id : extracted(store, i % 2 == 0 ? FourCountries.DE : FourCountries.NONE, 1)) {
                    assertTrue(seen.add(id), "handed out twice: " + id);
                }
            }
            assertEquals(20, seen.size(), "every extraction served once the holds ended");
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));
        } finally {
            TestRedis.deleteKeys("127.0.0.1", server.port(), prefix);
        }
    }

    @Test
    void aLapsedHoldEndsAtTheNextExtractionOrPurge() {
        String prefix = "pphold:lapse:";
        try (RedisPoolStore store = connect(prefix)) {
            List<Proxy> all = FourCountries.proxies(0, POOL, NOW);
            store.upsert(all, NOW);
            List<String> held = ids(all, FourCountries.US_RESIDENTIAL);
            store.markUnhealthy(held, NOW.plus(Duration.ofMinutes(1))); // its worker died: never renewed
            assertEquals(List.of(), extracted(store, FourCountries.US_RESIDENTIAL, 1), "held until its end");

            Instant later = NOW.plus(Duration.ofMinutes(2));
            List<String> got = extracted(store, FourCountries.US_RESIDENTIAL, later, 1);
            assertEquals(1, got.size(), "the extraction ends lapsed holds before it looks");
            assertTrue(held.contains(got.getFirst()));
            store.purgeExpired(later);
            try (RedisClient c = RedisClient.builder()
                    .hostAndPort("127.0.0.1", server.port())
                    .build()) {
                RedisKeys keys = new RedisKeys(prefix);
                assertEquals(0L, c.scard(keys.poolTag() + "o"), "the purge ended the rest");
                assertEquals(0L, c.zcard(keys.poolTag() + "h"));
            }
            assertEquals(
                    POOL / 8 - 1,
                    extracted(store, FourCountries.US_RESIDENTIAL, later, 1000).size(),
                    "all extractable again");
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));
        } finally {
            TestRedis.deleteKeys("127.0.0.1", server.port(), prefix);
        }
    }

    @Test
    void aHeldProxyKeepsItsHoldThroughRefreshDisableAndEnableAndLeavesOnExpiry() {
        String prefix = "pphold:states:";
        try (RedisPoolStore store = connect(prefix)) {
            List<Proxy> all = FourCountries.proxies(0, POOL, NOW);
            store.upsert(all, NOW);
            Map<String, UpstreamCounts> counts = store.countsByUpstream();
            List<String> held = ids(all, FourCountries.US_RESIDENTIAL);
            store.markUnhealthy(held, NOW.plus(Duration.ofMinutes(10)));

            // published again (a collection round): still held, still counted once
            var again =
                    store.upsert(all.stream().filter(p -> held.contains(p.id())).toList(), NOW);
            assertEquals(held.size(), again.refreshed());
            assertEquals(counts, store.countsByUpstream());
            assertEquals(List.of(), extracted(store, FourCountries.US_RESIDENTIAL, 1), "a refresh does not end a hold");
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));

            // disabled and enabled again while held: held still
            String one = held.getFirst();
            assertTrue(store.setDisabled(one, true));
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));
            assertTrue(store.setDisabled(one, false));
            assertEquals(counts, store.countsByUpstream());
            assertEquals(List.of(), extracted(store, FourCountries.US_RESIDENTIAL, 1), "enabled, still held");
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));

            // removed while held
            assertEquals(1, store.remove(List.of(held.get(1))));
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));

            // every proxy expired (they expire within 1 h 4,000 s): the held ones leave like the others
            Instant expired = NOW.plus(Duration.ofHours(3));
            while (store.purgeExpired(expired) > 0) {
                // bounded batches
            }
            assertTrue(
                    store.countsByUpstream().values().stream().allMatch(c -> c.available() == 0),
                    "none counted: " + store.countsByUpstream());
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));
        } finally {
            TestRedis.deleteKeys("127.0.0.1", server.port(), prefix);
        }
    }

    /** Every Redis command the two calls ran, without a read of many members. */
    private static void assertBounded(Map<String, Long> commands, long most) {
        long total = commands.values().stream().mapToLong(Long::longValue).sum();
        assertTrue(total <= most, total + " commands, at most " + most + " expected: " + commands);
        for (String wide : List.of("zrange", "smismember", "sscan", "srandmember", "zmscore")) {
            assertNull(commands.get(wide), "no wide read (" + wide + "): " + commands);
        }
    }

    /** A partial count=1 extraction with {@code filter} gets none, and an allOrNothing one counts none. */
    private static void assertDry(RedisPoolStore store, ExtractionFilter filter) {
        assertEquals(List.of(), extracted(store, filter, 1), "none extractable");
        ExtractionResult exact = store.extract(
                ExtractionRequest.builder(1).filter(filter).allOrNothing().build(), NOW);
        assertEquals(new ExtractionResult.Insufficient(0), exact, "an exact count of none");
    }

    private static List<String> extracted(RedisPoolStore store, ExtractionFilter filter, int count) {
        return extracted(store, filter, NOW, count);
    }

    /** The ids a partial extraction of up to {@code count} with {@code filter} at {@code now} hands out. */
    private static List<String> extracted(RedisPoolStore store, ExtractionFilter filter, Instant now, int count) {
        ExtractionResult r =
                store.extract(ExtractionRequest.builder(count).filter(filter).build(), now);
        return assertInstanceOf(ExtractionResult.Extracted.class, r).proxies().stream()
                .map(p -> p.proxy().id())
                .toList();
    }

    /** The ids of {@code proxies} that {@code filter}'s labels match. */
    private static List<String> ids(List<Proxy> proxies, ExtractionFilter filter) {
        return proxies.stream()
                .filter(p -> p.labels()
                        .values()
                        .entrySet()
                        .containsAll(filter.labels().required().entrySet()))
                .map(Proxy::id)
                .toList();
    }

    private static RedisPoolStore connect(String prefix) {
        return TestRedis.privateStore(server.port(), prefix, StoreSettings.DEFAULTS);
    }
}
