package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.ProxyFixtures;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Protocol.Command;
import redis.clients.jedis.RedisClient;

/**
 * The number of Redis commands one count=1 extraction runs inside extract.lua in the common case,
 * all answered by its fast path (extract_fast.lua, before the script's local functions exist; the
 * reply is code 3 with the records) (docs/design.md#extraction; issue #32: 4 without a
 * filter, 5 with a 2-label filter of the declared dimensions, whose set (T e:term) holds only
 * matches): counted by Redis itself, {@code CONFIG
 * RESETSTAT} then {@code INFO commandstats} around one {@code FCALL} (the store's pool library, RedisLibrary), on a private redis-server
 * (the shared one on 6379 serves other tests meanwhile). Each count runs after a purge, so no set
 * holds a stale member (one the fast path would pop, drop and pop again for). The pool: 4,000
 * proxies, all expiring (an expiring proxy used to cost one more command), country 1 of 4 and type
 * following the country. The commands: the pick (SPOP of the available set, or SPOP of the
 * filter's set), HGET of what the fast path needs ready to use (T f: the record
 * with it, no stored value is parsed in Lua), the retirement (filtered: taken and retired in one, SMOVE
 * from the available set to the retired set T y, whose tombstone end is the proxy's expiry; unfiltered:
 * SADD T y after the SPOP; a proxy without expiry: HSET of its tombstone end instead), HINCRBY of the counter. No index is written: the extracted
 * id's index members and other set memberships wait for the purge. No health hold is tested: a held proxy is out of the available set
 * (common.lua T o). Four count=1 requests that the store's coalescer serves with one call: 3 commands
 * each and 1 together (13 for 4 extractions).
 */
@Tag("slow")
class ExtractionCommandCountTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final String[] COUNTRIES = {"US", "DE", "FR", "JP"};
    private static final int POOL = 4000;

    @RegisterExtension
    static final PrivateRedis server = new PrivateRedis();

    private static RedisPoolStore store;
    private static RedisKeys keys;
    /** Every proxy loaded, by n. */
    private static final List<Proxy> ALL = new ArrayList<>();

    @BeforeAll
    static void load() {
        String prefix = "ppcount:";
        store = connect(prefix, StoreSettings.DEFAULTS);
        keys = new RedisKeys(prefix);
        List<Proxy> proxies = new ArrayList<>();
        for (int n = 0; n < POOL; n++) {
            proxies.add(ProxyFixtures.builder(n)
                    .labels(Labels.of("country", COUNTRIES[n % 4], "type", n % 2 == 0 ? "residential" : "datacenter"))
                    .expiresAt(NOW.plus(Duration.ofHours(1)).plusSeconds(n))
                    .build());
            ALL.add(proxies.getLast());
            if (proxies.size() == 500) {
                assertEquals(500, store.upsert(proxies, NOW).added());
                proxies.clear();
            }
        }
    }

    /** A store on the private server under {@code prefix}. */
    private static RedisPoolStore connect(String prefix, StoreSettings settings) {
        return TestRedis.privateStore(server.port(), prefix, settings);
    }

    @AfterAll
    static void stop() {
        if (store != null) {
            store.close();
        }
    }

    @Test
    void countOneWithoutFilterRunsFourCommands() {
        Set<String> ids = new HashSet<>();
        for (int i = 1; i <= 20; i++) {
            Map<String, Long> commands =
                    commandsOfOneExtraction(ExtractionRequest.builder(1).build(), ids);
            assertEquals(
                    Map.of("spop", 1L, "hget", 1L, "hincrby", 1L, "sadd", 1L),
                    commands,
                    "commands of a count=1 extraction without a filter");
        }
    }

    @Test
    void countOneWithTwoLabelFilterRunsFourCommands() {
        Set<String> ids = new HashSet<>();
        for (int i = 1; i <= 20; i++) {
            String country = COUNTRIES[i % 4];
            ExtractionRequest request = ExtractionRequest.builder(1)
                    .filter(ExtractionFilter.builder()
                            .country(country)
                            .label("type", i % 2 == 0 ? "residential" : "datacenter")
                            .build())
                    .build();
            Map<String, Long> commands = commandsOfOneExtraction(request, ids);
            assertEquals(TWO_LABEL_COMMANDS, commands, "commands of a count=1 extraction with a 2-label filter");
        }
    }

    @Test
    void fourCoalescedRequestsRunThreeCommandsEachAndOneTogether() {
        // what RedisPoolStore's coalescer sends when four count=1 requests arrive together: one call,
        // each request its pop, take-and-retire (SMOVE) and fast item (its record with it), then one
        // HINCRBY per counter field (one upstream here): 13 commands for four extractions instead of
        // 16 in four calls
        Set<String> ids = new HashSet<>();
        for (int round = 0; round < 10; round++) {
            List<RedisPoolStore.FastOne> batch = new ArrayList<>();
            for (int country = 0; country < 4; country++) {
                batch.add(RedisPoolStore.fastOne(keys, twoLabel(country), NOW, StoreSettings.DEFAULTS, "0", 0)
                        .orElseThrow());
            }
            RedisPoolStore.FastCall call = RedisPoolStore.fastCallOf(keys, batch);
            store.purgeExpired(NOW); // the sets' stale members (ids extracted before) collected
            try (RedisClient c = RedisClient.builder()
                    .hostAndPort("127.0.0.1", server.port())
                    .build()) {
                c.sendCommand(Command.CONFIG, "RESETSTAT");
                List<?> reply = (List<?>) callFast(c, call);
                Map<String, Long> commands = commandStats(c.info("commandstats"));
                assertEquals(5, reply.size(), "one answer per request: " + reply);
                assertEquals(3L, reply.get(0));
                List<Object> answers = RedisPoolStore.answersOf(reply, 4);
                for (int country = 0; country < 4; country++) {
                    Proxy p = ProxyCodec.decode(RedisReplies.string(answers.get(country)));
                    assertEquals(COUNTRIES[country], p.labels().get("country"), "request " + country + "'s own filter");
                    assertTrue(ids.add(p.id()), "extracted twice: " + p.id());
                    assertTrue(store.isTombstoned(p.key(), NOW), "retired: " + p.id());
                }
                assertEquals(
                        Map.of("spop", 4L, "smove", 4L, "hget", 4L, "hincrby", 1L),
                        commands,
                        "commands of four coalesced count=1 extractions with 2-label filters");
            }
        }
        assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), store.keyPrefix()));
    }

    /** SPOP of the set, SMOVE from the available set to the retired one (T y), HGET of T f, HINCRBY. */
    private static final Map<String, Long> TWO_LABEL_COMMANDS =
            Map.of("spop", 1L, "smove", 1L, "hget", 1L, "hincrby", 1L);

    private static ExtractionRequest twoLabel(int country) {
        return ExtractionRequest.builder(1).filter(twoLabels(country).build()).build();
    }

    /** Country {@code country} of {@link #COUNTRIES} and the type its proxies have. */
    private static ExtractionFilter.Builder twoLabels(int country) {
        return ExtractionFilter.builder()
                .country(COUNTRIES[country])
                .label("type", country % 2 == 0 ? "residential" : "datacenter");
    }

    @Test
    void healthHoldsOnTheShardKeepTheFastPath() {
        // a pool in service always has proxies held by some worker (cooling, probing): every DE proxy
        // and a quarter of the FR ones here (a quarter: 8 held candidates in a row, after which the
        // fast path hands over to the general script, are then one call in 65,536; with half, one
        // in 256 failed this test). A held proxy is out of the available set (T o): a pop of its set
        // finds it not taken, not retired, and puts it back; no hold is tested
        List<String> held = new ArrayList<>();
        Set<String> heldFr = new HashSet<>();
        for (int n = 0; n < POOL; n++) {
            if (n % 4 == 1 || n % 16 == 2) {
                held.add(ALL.get(n).id());
                if (n % 4 == 2) {
                    heldFr.add(ALL.get(n).id());
                }
            }
        }
        try (RedisClient c =
                RedisClient.builder().hostAndPort("127.0.0.1", server.port()).build()) {
            heldFr.removeIf(id -> !c.sismember(keys.poolTag() + "a", id)); // extracted by another test
        }
        try {
            // all stored but the few the other tests may have extracted already
            assertTrue(store.markUnhealthy(held, NOW.plus(Duration.ofMinutes(10))) > held.size() - 100);
            Set<String> ids = new HashSet<>();
            for (int i = 0; i < 20; i++) { // US: none held, the same 4 commands as without holds
                assertEquals(TWO_LABEL_COMMANDS, commandsOfOneExtraction(twoLabel(0), ids), "US, no hold met");
            }
            for (int i = 0; i < 20; i++) { // FR: a quarter held, skipped (and put back) on the fast path
                Map<String, Long> commands = commandsOfOneExtraction(twoLabel(2), ids);
                long skipped = commands.get("spop") - 1;
                assertTrue(skipped >= 0 && skipped < 8, "FR: " + commands);
                assertEquals(1L + skipped, commands.get("smove"), "taken first, then tested: " + commands);
                assertEquals(
                        skipped,
                        commands.getOrDefault("sismember", 0L),
                        "a held one is not taken and not retired by the fast path: " + commands);
                assertEquals(skipped, commands.getOrDefault("hexists", 0L), "nor by another path: " + commands);
                assertEquals(1L + skipped, commands.get("hget"), "and its fast item read: " + commands);
                assertEquals(
                        skipped > 0 ? 1L : 0L,
                        commands.getOrDefault("sadd", 0L),
                        "all of them back in the set at once, the available set untouched: " + commands);
                assertEquals(null, commands.get("zscore"), "no hold tested: " + commands);
            }
            for (int i = 0; i < 20; i++) { // unfiltered: a quarter held
                assertTrue(unfilteredFastServed(ids), "answered by the fast path");
            }
            Set<String> handed = new HashSet<>(ids);
            handed.retainAll(held);
            assertEquals(Set.of(), handed, "no held proxy handed out");
            assertTrue(
                    ids.stream()
                            .anyMatch(id -> ALL.stream()
                                    .anyMatch(p -> p.id().equals(id)
                                            && "FR".equals(p.labels().get("country")))),
                    "FR proxies not held were found");
            try (RedisClient c = RedisClient.builder()
                    .hostAndPort("127.0.0.1", server.port())
                    .build()) {
                String frSet = fastCallOf(twoLabel(2)).keys().get(6);
                for (String id : heldFr) {
                    assertFalse(c.sismember(keys.poolTag() + "a", id), "a held proxy is not extractable: " + id);
                    assertTrue(c.sismember(keys.poolTag() + "o", id), "but held out, still available: " + id);
                    assertTrue(c.sismember(frSet, id), "and a member of its set: " + id);
                }
            }
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), store.keyPrefix()));
        } finally {
            store.markHealthy(held);
        }
    }

    @Test
    void aGatewayReserveFarBelowThePoolKeepsTheFastPath() {
        // distribution.gatewayReserve set, as a pool serving both the gateway and the API has it: the
        // fast path counts the pool (SCARD of the available set, less a ZCOUNT of expired entries)
        // and goes on while the pool stays provably above the reserve; at the reserve it answers {0}
        // before popping anything, and extract.lua decides
        Map<String, Long> withReserve = new TreeMap<>(TWO_LABEL_COMMANDS);
        withReserve.put("scard", 1L);
        withReserve.put("zcount", 1L);
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            ExtractionRequest r = ExtractionRequest.builder(1)
                    .filter(twoLabel(i % 4).filter())
                    .gatewayReserve(100)
                    .build();
            assertEquals(withReserve, commandsOfOneExtraction(r, ids), "a reserve of 100");
        }
        try (RedisClient c =
                RedisClient.builder().hostAndPort("127.0.0.1", server.port()).build()) {
            long available = c.scard(keys.poolTag() + "a");
            for (long reserve : new long[] {available, available + 5}) {
                RedisPoolStore.FastCall fast = fastCallOf(ExtractionRequest.builder(1)
                        .filter(twoLabel(0).filter())
                        .gatewayReserve((int) reserve)
                        .build());
                assertNull(callFast(c, fast), "the reserve would not hold: nothing popped");
            }
            assertEquals(available, c.scard(keys.poolTag() + "a"), "nothing taken");
            ExtractionResult r = store.extract(
                    ExtractionRequest.builder(1)
                            .filter(twoLabel(0).filter())
                            .gatewayReserve((int) available - 1)
                            .build(),
                    NOW);
            assertTrue(r instanceof ExtractionResult.Extracted e && e.count() == 1, "one above the reserve: " + r);
            assertEquals(available - 1, c.scard(keys.poolTag() + "a"));
        }
    }

    @Test
    void aProtocolWithTheLabelsPopsTheirCombinationsSet() {
        // a client that needs one protocol, in one country and type: the set of that combination with
        // the protocol holds only matches, so a match costs what the labels alone cost; every proxy
        // here is http, so there is no socks5 one to pop
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            ExtractionRequest http = ExtractionRequest.builder(1)
                    .filter(twoLabels(i % 4).protocol(Protocol.HTTP).build())
                    .build();
            assertEquals(TWO_LABEL_COMMANDS, commandsOfOneExtraction(http, ids), "http, US/DE/FR/JP and their type");
            ExtractionRequest httpInCountry = ExtractionRequest.builder(1)
                    .filter(ExtractionFilter.builder()
                            .country(COUNTRIES[i % 4])
                            .protocol(Protocol.HTTP)
                            .build())
                    .build();
            assertEquals(TWO_LABEL_COMMANDS, commandsOfOneExtraction(httpInCountry, ids), "http in one country");
        }
        try (RedisClient c =
                RedisClient.builder().hostAndPort("127.0.0.1", server.port()).build()) {
            ExtractionRequest socks = ExtractionRequest.builder(1)
                    .filter(twoLabels(0).protocol(Protocol.SOCKS5).build())
                    .build();
            RedisPoolStore.FastCall fast = fastCallOf(socks);
            c.sendCommand(Command.CONFIG, "RESETSTAT");
            assertNull(callFast(c, fast), "no socks5 proxy: its set is empty, extract.lua decides");
            assertEquals(Map.of("spop", 1L), commandStats(c.info("commandstats")), "one pop of an empty set");
            assertEquals(new ExtractionResult.Extracted(List.of()), store.extract(socks, NOW));
        }
        assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), store.keyPrefix()));
    }

    @Test
    void withTheUpstreamCombinationsAnUpstreamWithTheLabelsPopsTheirCombinationsSet() {
        // store.index.upstream: true: one upstream's proxies of a country and type (or of a protocol)
        // are a set of their own, so a match costs what the labels alone cost, however few of the
        // labels' proxies the upstream has; a pool of its own on the same server
        StoreSettings settings = StoreSettings.builder().indexUpstream(true).build();
        String prefix = "ppcountup:";
        RedisKeys pool = new RedisKeys(prefix);
        try (RedisPoolStore up = connect(prefix, settings);
                RedisClient c = RedisClient.builder()
                        .hostAndPort("127.0.0.1", server.port())
                        .build()) {
            List<Proxy> proxies = new ArrayList<>();
            for (int n = 0; n < 400; n++) {
                proxies.add(ProxyFixtures.builder(n)
                        .upstream(n % 8 == 0 ? "vendor-a" : "vendor-b") // vendor-a: 1 in 8
                        .labels(Labels.of(
                                "country",
                                COUNTRIES[n / 8 % 4],
                                "type",
                                n / 32 % 2 == 0 ? "residential" : "datacenter"))
                        .expiresAt(NOW.plus(Duration.ofHours(1)).plusSeconds(n))
                        .build());
            }
            assertEquals(400, up.upsert(proxies, NOW).added());
            Set<String> ids = new HashSet<>();
            for (int i = 0; i < 8; i++) {
                ExtractionRequest request = ExtractionRequest.builder(1)
                        .filter(ExtractionFilter.builder()
                                .upstream("vendor-a")
                                .country(COUNTRIES[i % 4])
                                .label("type", i / 4 == 0 ? "residential" : "datacenter")
                                .build())
                        .build();
                assertEquals(
                        TWO_LABEL_COMMANDS,
                        commandsOfOneExtraction(up, pool, settings, request, ids),
                        "vendor-a's proxies of one country and type: their own set");
                ExtractionRequest withProtocol = ExtractionRequest.builder(1)
                        .filter(ExtractionFilter.builder()
                                .upstream("vendor-a")
                                .protocol(Protocol.HTTP)
                                .build())
                        .build();
                assertEquals(
                        TWO_LABEL_COMMANDS,
                        commandsOfOneExtraction(up, pool, settings, withProtocol, ids),
                        "vendor-a's http proxies: their own set");
            }
            Set<String> vendorA = new HashSet<>();
            proxies.stream().filter(p -> p.upstream().equals("vendor-a")).forEach(p -> vendorA.add(p.id()));
            assertEquals(16, ids.size());
            assertTrue(vendorA.containsAll(ids), "every one of vendor-a: " + ids);
            RedisPoolStore.FastCall none = fastCallOf(
                    pool,
                    settings,
                    ExtractionRequest.builder(1)
                            .filter(twoLabels(0).upstream("no-such-upstream").build())
                            .build());
            c.sendCommand(Command.CONFIG, "RESETSTAT");
            assertNull(
                    callFast(c, none),
                    "no proxy of that upstream: its combination's set is empty, extract.lua decides");
            assertEquals(Map.of("spop", 1L), commandStats(c.info("commandstats")), "one pop of an empty set");
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));
            for (String key : c.keys("{" + prefix + "*")) { // this pool's keys only: the class's pool stays
                c.del(key);
            }
        }
    }

    @Test
    void aProxyWithoutExpiryHasItsTombstoneEndWrittenToo() {
        // the SMOVE into T y retires a proxy whose tombstone ends at its expiry; one without expiry
        // needs the end of its retention written (one HSET more), so its tombstone stays exact
        String prefix = "ppcountnoexp:";
        RedisKeys pool = new RedisKeys(prefix);
        try (RedisPoolStore noExpiry = connect(prefix, StoreSettings.DEFAULTS);
                RedisClient c = RedisClient.builder()
                        .hostAndPort("127.0.0.1", server.port())
                        .build()) {
            List<Proxy> proxies = new ArrayList<>();
            for (int n = 0; n < 40; n++) {
                proxies.add(ProxyFixtures.builder(n)
                        .labels(Labels.of(
                                "country", COUNTRIES[n % 4], "type", n % 2 == 0 ? "residential" : "datacenter"))
                        .build());
            }
            assertEquals(40, noExpiry.upsert(proxies, NOW).added());
            Set<String> ids = new HashSet<>();
            for (int i = 0; i < 8; i++) {
                assertEquals(
                        Map.of("spop", 1L, "smove", 1L, "hget", 1L, "hset", 1L, "hincrby", 1L),
                        commandsOfOneExtraction(noExpiry, pool, StoreSettings.DEFAULTS, twoLabel(i % 4), ids),
                        "a proxy without expiry, 2 labels");
            }
            noExpiry.purgeExpired(NOW); // collected: each tombstone moves to T t with its end
            for (Proxy p : proxies) {
                if (ids.contains(p.id())) {
                    assertEquals(
                            (double) NOW.plus(StoreSettings.DEFAULTS.tombstoneRetentionForNoExpiry())
                                    .toEpochMilli(),
                            c.zscore(pool.poolTag() + "t", RedisKeys.physical(p.key())),
                            "its tombstone end: retention from its extraction");
                }
            }
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix));
            for (String key : c.keys("{" + prefix + "*")) { // this pool's keys only: the class's pool stays
                c.del(key);
            }
        }
    }

    @Test
    void anUpstreamWithTheLabelsIsTestedOnEachCandidate() {
        // without store.index.upstream (the default) no set combines an upstream with labels: the
        // labels' set is popped and the upstream tested on each candidate's T f item, read before the
        // candidate is taken
        try (RedisClient c =
                RedisClient.builder().hostAndPort("127.0.0.1", server.port()).build()) {
            store.purgeExpired(NOW); // the set's stale members (ids other tests extracted) collected
            long available = c.scard(keys.poolTag() + "a");
            ExtractionRequest elsewhere = ExtractionRequest.builder(1)
                    .filter(twoLabels(0).upstream("no-such-upstream").build())
                    .build();
            RedisPoolStore.FastCall fast = fastCallOf(elsewhere);
            long members = c.scard(fast.keys().get(6));
            c.sendCommand(Command.CONFIG, "RESETSTAT");
            assertNull(callFast(c, fast), "no proxy of that upstream: 8 candidates skipped, then extract.lua decides");
            // one lacking the upstream costs its SPOP and HGET only, T a untouched; the 8 go back in one SADD
            assertEquals(
                    Map.of("spop", 8L, "hget", 8L, "sadd", 1L),
                    commandStats(c.info("commandstats")),
                    "8 candidates lacking the upstream");
            assertEquals(available, c.scard(keys.poolTag() + "a"), "every skipped candidate available again");
            assertEquals(members, c.scard(fast.keys().get(6)), "and a member of its set again");
            assertEquals(new ExtractionResult.Extracted(List.of()), store.extract(elsewhere, NOW));
        }
        assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), store.keyPrefix()));
    }

    private static RedisPoolStore.FastCall fastCallOf(ExtractionRequest request) {
        return fastCallOf(keys, StoreSettings.DEFAULTS, request);
    }

    private static RedisPoolStore.FastCall fastCallOf(
            RedisKeys pool, StoreSettings settings, ExtractionRequest request) {
        return RedisPoolStore.fastCall(pool, request, NOW, settings, 1, "0", request.gatewayReserve())
                .orElseThrow();
    }

    /**
     * One unfiltered count=1 call of the fast function: whether it served the request; the id it
     * extracted goes into {@code ids}.
     */
    private static boolean unfilteredFastServed(Set<String> ids) {
        RedisPoolStore.FastCall fast = fastCallOf(ExtractionRequest.builder(1).build());
        try (RedisClient c =
                RedisClient.builder().hostAndPort("127.0.0.1", server.port()).build()) {
            Object reply = callFast(c, fast); // one request: its record, bare, or nil
            if (reply != null) {
                assertTrue(ids.add(ProxyCodec.decode(RedisReplies.string(reply)).id()), "extracted twice");
            }
            return reply != null;
        }
    }

    /**
     * Runs extract_fast.lua once for {@code request} as the store calls it ({@code fastCall});
     * asserts it extracted one proxy never extracted before (added to {@code ids}); returns the
     * commands it ran by name.
     */
    private static Map<String, Long> commandsOfOneExtraction(ExtractionRequest request, Set<String> ids) {
        return commandsOfOneExtraction(store, keys, StoreSettings.DEFAULTS, request, ids);
    }

    /** As {@link #commandsOfOneExtraction(ExtractionRequest, Set)} on the pool of {@code on}. */
    private static Map<String, Long> commandsOfOneExtraction(
            RedisPoolStore on, RedisKeys pool, StoreSettings settings, ExtractionRequest request, Set<String> ids) {
        RedisPoolStore.FastCall fast = fastCallOf(pool, settings, request);
        on.purgeExpired(NOW); // the sets' stale members (ids extracted before) collected
        try (RedisClient c =
                RedisClient.builder().hostAndPort("127.0.0.1", server.port()).build()) {
            c.sendCommand(Command.CONFIG, "RESETSTAT");
            // as the store runs it: the function of the pool library (FCALL)
            Object reply = callFast(c, fast);
            Map<String, Long> commands = commandStats(c.info("commandstats"));
            // one request: answered by the fast path (extract_fast.lua) with its record, bare (no table)
            assertNotNull(reply, "one proxy extracted");
            String id = ProxyCodec.decode(RedisReplies.string(reply)).id();
            assertTrue(ids.add(id), "extracted twice: " + id);
            return commands;
        }
    }

    /**
     * The commands of one {@code FCALL} by name, from {@code INFO commandstats} after a
     * {@code CONFIG RESETSTAT}: asserts the one call and leaves out the RESETSTAT and the INFO.
     */
    /** Calls the fast function as the store does, its keys and arguments those of {@code call}. */
    private static Object callFast(RedisClient c, RedisPoolStore.FastCall call) {
        return c.fcall(RedisPoolStore.LIBRARY.function(RedisPoolStore.EXTRACT_FAST), call.keys(), call.args());
    }

    private static Map<String, Long> commandStats(String stats) {
        Map<String, Long> commands = TestRedis.commandCalls(stats);
        assertEquals(1L, commands.remove("fcall"), "one function call: " + commands);
        // the RESETSTAT before it ("config|resetstat") and the INFO itself, when counted
        commands.keySet().removeIf(name -> name.startsWith("config") || name.equals("info"));
        return commands;
    }

    @Test
    void aFastPathCandidateFailingItsTestFallsThroughWithNothingChanged() {
        // only the proxies with the latest expiries (n >= 3,960: 40 of 4,000, 10 per country) have the
        // remaining TTL asked: the fast path's random pick almost always fails it, puts it back, and the
        // general script finds a proxy that passes; exactly one proxy leaves the pool per call
        Duration minTtl = Duration.ofHours(1).plusSeconds(3960);
        try (RedisClient c =
                RedisClient.builder().hostAndPort("127.0.0.1", server.port()).build()) {
            for (int i = 0; i < 5; i++) {
                String country = COUNTRIES[i % 4];
                long before = c.scard(keys.poolTag() + "a");
                ExtractionResult r = store.extract(
                        ExtractionRequest.builder(1)
                                .filter(ExtractionFilter.builder()
                                        .country(country)
                                        .label("type", i % 2 == 0 ? "residential" : "datacenter")
                                        .build())
                                .minRemainingTtl(minTtl)
                                .build(),
                        NOW);
                assertTrue(r instanceof ExtractionResult.Extracted e && e.count() == 1, "one proxy: " + r);
                Proxy p = ((ExtractionResult.Extracted) r).proxies().get(0).proxy();
                assertTrue(!p.expiresAt().isBefore(NOW.plus(minTtl)), "the TTL holds: " + p.expiresAt());
                assertEquals(country, p.labels().get("country"));
                assertEquals(before - 1, c.scard(keys.poolTag() + "a"), "one proxy left the available set");
            }
        }
        // the candidates popped from the sets and put back (their TTL failed) are members still
        assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), store.keyPrefix()));
    }

    private static long total(Map<String, Long> commands) {
        return commands.values().stream().mapToLong(Long::longValue).sum();
    }

    @Test
    void extractionsLeaveACollectablePool() {
        // the lazily retired ids of the tests above are collected by a purge and the layout stays consistent
        ExtractionResult r = store.extract(ExtractionRequest.builder(3).build(), NOW);
        assertTrue(r instanceof ExtractionResult.Extracted e && e.count() == 3, "extracted 3: " + r);
        assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), store.keyPrefix()), "before purge");
        store.purgeExpired(NOW);
        assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), store.keyPrefix()));
        try (RedisClient c =
                RedisClient.builder().hostAndPort("127.0.0.1", server.port()).build()) {
            assertEquals(0L, c.hlen(keys.poolTag() + "g"), "every retired id collected");
            assertEquals(0L, c.scard(keys.poolTag() + "y"), "those the fast path retired too");
        }
    }
}
