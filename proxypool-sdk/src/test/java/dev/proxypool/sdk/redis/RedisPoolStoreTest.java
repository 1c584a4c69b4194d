package dev.proxypool.sdk.redis;

import static dev.proxypool.core.extract.ProxyFixtures.extractedIds;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.PageRequest;
import dev.proxypool.core.extract.PoolQuery;
import dev.proxypool.core.extract.ProxyFixtures;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.extract.StoredProxy;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.testkit.PrivateRedisServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.util.JedisClusterCRC16;

/** What the Redis store adds to the contract: its key layout, precision, isolation and failure mapping. */
class RedisPoolStoreTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private final List<RedisPoolStore> opened = new ArrayList<>();

    private RedisPoolStore open() {
        RedisPoolStore s = TestRedis.store(StoreSettings.DEFAULTS);
        opened.add(s);
        return s;
    }

    @AfterEach
    void cleanUp() {
        for (RedisPoolStore s : opened) {
            s.close();
            TestRedis.deleteKeys(TestRedis.HOST, TestRedis.PORT, s.keyPrefix());
        }
    }

    @Test
    void everyKeySharesTheHashTagOfThePrefixAndHoldsNoSecret() {
        RedisPoolStore s = open();
        Proxy p = ProxyFixtures.rich(1);
        Proxy other = ProxyFixtures.builder(2)
                .labels(Labels.of("type", "dc"))
                .expiresAt(NOW.plus(Duration.ofHours(2)))
                .build();
        s.upsert(List.of(p, other), NOW);
        extractedIds(s.extract(
                ExtractionRequest.builder(1)
                        .filter(ExtractionFilter.builder().country("US").build())
                        .build(),
                NOW));
        String tag = "{" + s.keyPrefix() + "0}:";
        try (RedisClient c = RedisClient.builder()
                .hostAndPort(TestRedis.HOST, TestRedis.PORT)
                .build()) {
            assertEquals(List.of(), LayoutAudit.scan(c, s.keyPrefix() + "*"), "nothing under the bare prefix");
            TreeSet<String> names = new TreeSet<>();
            TreeSet<String> sets = new TreeSet<>();
            for (String key : LayoutAudit.scan(c, "{" + s.keyPrefix() + "*")) {
                assertTrue(key.startsWith(tag), key);
                if (key.startsWith(tag + "e:")) {
                    sets.add(key.substring(tag.length() + 2));
                } else {
                    names.add(key.substring(tag.length()));
                }
            }
            assertEquals(
                    // y: the expiring proxy the fast path took from its country's set (g: one without
                    // expiry, or one the general script took); t: once a purge collects the retired id
                    Set.of("a", "f", "i", "k", "n", "r", "s", "xa", "y"),
                    names,
                    "a fixed set of keys, whatever the labels");
            TreeSet<String> terms = new TreeSet<>(ProxyCodec.setTerms(p, StoreSettings.DEFAULTS));
            terms.addAll(ProxyCodec.setTerms(other, StoreSettings.DEFAULTS));
            // the extraction popped p, the only member, from the country=US set: an empty set is no key
            terms.remove(ProxyCodec.term(ProxyCodec.labelItem("country", "US")));
            assertEquals(
                    terms,
                    sets,
                    "besides, one set per set term (upstream, protocol, declared labels and combinations)");
            String stored = c.hget(tag + "r", other.id());
            assertTrue(
                    stored.startsWith(ProxyCodec.utf8Length("http/10.0.0.2/8000/") + ":http/10.0.0.2/8000/"), stored);
            assertTrue(
                    c.sismember(tag + "y", p.id()),
                    "the extracted proxy is retired (taken from its set by the fast path: T y)");
            assertEquals(null, c.hget(tag + "g", p.id()), "its tombstone end is its expiry: none written");
            assertTrue(s.isTombstoned(p.key(), p.expiresAt().minusMillis(1)), "tombstoned until its expiry");
            assertEquals(null, s.get(p.id()).orElse(null), "the extracted proxy is no longer stored");
        }
        s.purgeExpired(NOW);
        try (RedisClient c = RedisClient.builder()
                .hostAndPort(TestRedis.HOST, TestRedis.PORT)
                .build()) {
            assertEquals(null, c.hget(tag + "r", p.id()), "the collected proxy left the records");
            assertTrue(
                    c.zscore(tag + "t", RedisKeys.physical(p.key()))
                            > NOW.plus(Duration.ofHours(6)).toEpochMilli(),
                    "the tombstone lasts at least until the proxy's expiry");
            assertEquals("socks5/192.0.2.1/1081/vendor-a", RedisKeys.physical(p.key()), "the reference, no secret");
        }
        RedisKeys keys = new RedisKeys(s.keyPrefix());
        Set<Integer> poolSlots = new java.util.HashSet<>();
        keys.pool().forEach(k -> poolSlots.add(JedisClusterCRC16.getSlot(k)));
        Set<Integer> idempotencySlots = new java.util.HashSet<>();
        keys.idempotency().forEach(k -> idempotencySlots.add(JedisClusterCRC16.getSlot(k)));
        assertEquals(
                Set.of(JedisClusterCRC16.getSlot(s.keyPrefix() + "0")), poolSlots, "one slot: the tag {<prefix>0}");
        assertEquals(
                Set.of(JedisClusterCRC16.getSlot(s.keyPrefix() + "i")),
                idempotencySlots,
                "one slot: the tag {<prefix>i}");
    }

    @Test
    void dataOfThePreviousLayoutIsRefusedAtStartNamingThePrefix() {
        for (String oldKey : List.of("ids", "t:http/10.0.0.9/80/", "iseq")) {
            String prefix = TestRedis.randomPrefix();
            try (RedisClient c = RedisClient.builder()
                    .hostAndPort(TestRedis.HOST, TestRedis.PORT)
                    .build()) {
                c.set(prefix + "snapshot:full", "x"); // other users of the prefix are no reason to refuse
                assertEquals(List.of(), connectAndClose(prefix));
                c.set(prefix + oldKey, "1");
                PreviousLayoutException e = assertThrows(
                        PreviousLayoutException.class,
                        () -> RedisPoolStore.connect(TestRedis.config(prefix), StoreSettings.DEFAULTS));
                assertTrue(
                        e.getMessage().contains("store.keyPrefix '" + prefix + "'")
                                && e.getMessage().contains("key '" + prefix + oldKey + "'")
                                && e.getMessage().contains("configure a new store.keyPrefix"),
                        e.getMessage());
                assertEquals("1", c.get(prefix + oldKey), "nothing of the old data is touched");
            } finally {
                TestRedis.deleteKeys(TestRedis.HOST, TestRedis.PORT, prefix);
            }
        }
    }

    private static List<String> connectAndClose(String prefix) {
        try (RedisPoolStore s = RedisPoolStore.connect(TestRedis.config(prefix), StoreSettings.DEFAULTS)) {
            return List.copyOf(s.countsByUpstream().keySet());
        }
    }

    @Test
    void subMillisecondInstantsRoundTripAndTombstonesRoundUp() {
        RedisPoolStore s = open();
        Instant expiry = NOW.plus(Duration.ofHours(1)).plusNanos(1_500_000); // 1.5 ms past the hour
        Proxy p = ProxyFixtures.builder(1).expiresAt(expiry).build();
        s.upsert(List.of(p), NOW);
        Instant checked = NOW.minusNanos(123_456);
        s.markChecked(p.id(), checked);
        assertEquals(
                Optional.of(new StoredProxy(p, dev.proxypool.core.extract.ProxyState.AVAILABLE, Optional.of(checked))),
                s.get(p.id()));

        assertEquals(
                p,
                ProxyFixtures.extracted(s.extract(ExtractionRequest.builder(1).build(), NOW))
                        .getFirst()
                        .proxy());
        assertTrue(s.isTombstoned(p.key(), expiry.minusNanos(1)));
        assertTrue(s.isTombstoned(p.key(), expiry), "rounded up to the next millisecond: the safe side");
        assertFalse(s.isTombstoned(p.key(), expiry.plusMillis(1)));
    }

    @Test
    void labelsWithSeparatorCharactersAreIndexedExactly() {
        // index members are "<term>|<id>": without the term's length prefix, k=v's range would
        // include k=v|x's members, and "}" (the range's upper bound) must not cut one off
        RedisPoolStore s = open();
        List<Labels> labels = List.of(
                Labels.of("a:b", "c=d"),
                Labels.of("a", "b:c=d"),
                Labels.of("st\u00e4dt", "M\u00fcnchen"),
                Labels.of("k", "v"),
                Labels.of("k", "v|x"),
                Labels.of("k", "v}"),
                Labels.of("k", "vv"));
        List<Proxy> proxies = new ArrayList<>();
        for (int n = 0; n < labels.size(); n++) {
            proxies.add(ProxyFixtures.builder(n + 1).labels(labels.get(n)).build());
        }
        s.upsert(proxies, NOW);
        for (Proxy p : proxies) {
            Map.Entry<String, String> label =
                    p.labels().values().entrySet().iterator().next();
            ExtractionFilter filter = ExtractionFilter.builder()
                    .label(label.getKey(), label.getValue())
                    .build();
            assertEquals(
                    1,
                    s.list(PoolQuery.of(filter), PageRequest.first(10))
                            .proxies()
                            .size(),
                    label.toString());
            assertEquals(
                    Set.of(p.id()),
                    extractedIds(s.extract(
                            ExtractionRequest.builder(10).filter(filter).build(), NOW)),
                    label.toString());
        }
        assertEquals(List.of(), LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, s.keyPrefix()));
    }

    @Test
    void extractedProxiesLeaveTheIndexLazilyAndNeverMatchThroughIt() {
        // an extraction leaves its index members to the purge (T g): readers must skip them, and a
        // proxy stored again under the same id must not match its former labels
        RedisPoolStore s = open();
        Proxy old = ProxyFixtures.builder(1)
                .labels(Labels.of("k", "old"))
                .expiresAt(NOW.plus(Duration.ofHours(1)))
                .build();
        List<Proxy> crowd = new ArrayList<>();
        for (int n = 2; n <= 40; n++) {
            crowd.add(ProxyFixtures.builder(n).labels(Labels.of("k", "crowd")).build());
        }
        s.upsert(List.of(old), NOW);
        s.upsert(crowd, NOW);
        ExtractionFilter crowdFilter =
                ExtractionFilter.builder().label("k", "crowd").build();
        assertEquals(
                38,
                ProxyFixtures.extracted(s.extract(
                                ExtractionRequest.builder(38)
                                        .filter(crowdFilter)
                                        .build(),
                                NOW))
                        .size());
        assertEquals(
                List.of(old),
                ProxyFixtures.extracted(s.extract(
                                ExtractionRequest.builder(1)
                                        .filter(ExtractionFilter.builder()
                                                .label("k", "old")
                                                .build())
                                        .build(),
                                NOW))
                        .stream()
                        .map(e -> e.proxy())
                        .toList());
        assertEquals(
                new ExtractionResult.Insufficient(1),
                s.extract(
                        ExtractionRequest.builder(2)
                                .filter(crowdFilter)
                                .allOrNothing()
                                .build(),
                        NOW),
                "38 extracted members still in the range, 1 proxy left");
        assertEquals(List.of(), LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, s.keyPrefix()));

        Instant later = NOW.plus(Duration.ofHours(2)); // the tombstone of `old` has ended
        Proxy again = ProxyFixtures.builder(1)
                .labels(Labels.of("k", "new"))
                .expiresAt(later.plus(Duration.ofHours(1)))
                .build();
        assertEquals(old.id(), again.id());
        assertEquals(1, s.upsert(List.of(again), later).added());
        assertEquals(
                List.of(),
                ProxyFixtures.extracted(s.extract(
                        ExtractionRequest.builder(1)
                                .filter(ExtractionFilter.builder()
                                        .label("k", "old")
                                        .build())
                                .build(),
                        later)),
                "no stale label match");
        assertEquals(List.of(), LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, s.keyPrefix()));
        s.purgeExpired(later);
        try (RedisClient c = RedisClient.builder()
                .hostAndPort(TestRedis.HOST, TestRedis.PORT)
                .build()) {
            String tag = new RedisKeys(s.keyPrefix()).poolTag();
            assertEquals(0, c.hlen(tag + "g"), "the purge finished every cleanup");
            assertEquals(
                    2 * 3, c.zcard(tag + "i"), "index members of the 2 stored proxies only (u, p, one label each)");
        }
        assertEquals(List.of(), LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, s.keyPrefix()));
    }

    @Test
    void staleSetMembersAreSkippedNoProxyIsHandedOutTwiceAndThePurgeEmptiesTheSets() {
        // unfiltered extractions leave their ids in their sets (lazy cleanup); filtered extractions
        // through every kind of set (composite, one label, upstream, protocol) pop and drop them
        RedisPoolStore s = open();
        String[] countries = {"US", "DE"};
        String[] types = {"a", "b"};
        List<Proxy> pool = new ArrayList<>();
        for (int n = 0; n < 400; n++) {
            pool.add(ProxyFixtures.builder(n)
                    .upstream("up-" + n % 3)
                    .labels(Labels.of("country", countries[n % 2], "type", types[(n / 2) % 2]))
                    .expiresAt(NOW.plus(Duration.ofHours(1)))
                    .build());
        }
        assertEquals(400, s.upsert(pool, NOW).added());
        Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < 150; i++) {
            for (String id : extractedIds(s.extract(ExtractionRequest.builder(1).build(), NOW))) {
                assertTrue(seen.add(id), "handed out twice: " + id);
            }
        }
        assertEquals(List.of(), LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, s.keyPrefix()));
        List<ExtractionFilter> filters = new ArrayList<>();
        for (String c : countries) {
            for (String t : types) {
                filters.add(
                        ExtractionFilter.builder().country(c).label("type", t).build());
            }
            filters.add(ExtractionFilter.builder().country(c).build());
        }
        filters.add(ExtractionFilter.builder().upstream("up-1").build());
        filters.add(ExtractionFilter.builder().protocol(pool.get(0).protocol()).build());
        filters.add(ExtractionFilter.builder().build());
        for (ExtractionFilter f : filters) {
            while (true) {
                ExtractionResult r =
                        s.extract(ExtractionRequest.builder(3).filter(f).build(), NOW);
                List<Proxy> got =
                        ProxyFixtures.extracted(r).stream().map(e -> e.proxy()).toList();
                for (Proxy p : got) {
                    assertTrue(seen.add(p.id()), "handed out twice: " + p.id());
                    assertTrue(f.upstream().map(u -> u.equals(p.upstream())).orElse(true), f + " " + p);
                    f.labels()
                            .required()
                            .forEach((k, v) -> assertEquals(v, p.labels().get(k), f + " " + p));
                }
                if (got.size() < 3) {
                    break;
                }
            }
            assertEquals(List.of(), LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, s.keyPrefix()));
        }
        assertEquals(400, seen.size(), "every proxy handed out once");
        s.purgeExpired(NOW);
        assertEquals(List.of(), LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, s.keyPrefix()));
        try (RedisClient c = RedisClient.builder()
                .hostAndPort(TestRedis.HOST, TestRedis.PORT)
                .build()) {
            String tag = new RedisKeys(s.keyPrefix()).poolTag();
            assertEquals(
                    List.of(),
                    LayoutAudit.scan(c, tag.replace("{", "\\{").replace("}", "\\}") + "e:*"),
                    "every set emptied");
            assertEquals(0, c.hlen(tag + "m"), "no set cleanup pending");
        }
    }

    @Test
    void disabledProxiesStayInTheirSetsSoEnablingThemNeedsNoSetKey() {
        // the fast path pops a disabled member, finds it out of the available set and not retired,
        // and puts it back: after setDisabled(false), which names no set, the filter finds it again
        RedisPoolStore s = open();
        List<Proxy> pool = new ArrayList<>();
        for (int n = 0; n < 10; n++) {
            pool.add(ProxyFixtures.builder(n).labels(Labels.of("country", "US")).build());
        }
        s.upsert(pool, NOW);
        for (int n = 1; n < 10; n++) {
            assertTrue(s.setDisabled(pool.get(n).id(), true));
        }
        ExtractionFilter us = ExtractionFilter.builder().country("US").build();
        assertEquals(
                Set.of(pool.get(0).id()),
                extractedIds(s.extract(ExtractionRequest.builder(1).filter(us).build(), NOW)));
        assertEquals(
                new ExtractionResult.Insufficient(0),
                s.extract(ExtractionRequest.builder(1).filter(us).allOrNothing().build(), NOW),
                "the 9 disabled members were popped and put back, none extracted");
        assertEquals(List.of(), LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, s.keyPrefix()));
        for (int n = 1; n < 10; n++) {
            assertTrue(s.setDisabled(pool.get(n).id(), false));
        }
        Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < 9; i++) {
            Set<String> got = extractedIds(
                    s.extract(ExtractionRequest.builder(1).filter(us).build(), NOW));
            assertEquals(1, got.size(), "extraction " + i + " finds an enabled proxy");
            assertTrue(seen.addAll(got), "handed out twice: " + got);
        }
        assertEquals(9, seen.size());
        assertEquals(List.of(), LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, s.keyPrefix()));
    }

    @Test
    void changingTheDimensionsReindexesAProxyAtItsNextPublishWithoutLosingOne() {
        RedisPoolStore before = open();
        List<Proxy> pool = new ArrayList<>();
        for (int n = 0; n < 40; n++) {
            pool.add(ProxyFixtures.builder(n)
                    .labels(Labels.of("country", n % 2 == 0 ? "US" : "DE", "type", n % 4 < 2 ? "a" : "b"))
                    .build());
        }
        before.upsert(pool, NOW);
        // the same pool, another process configured with store.index.dimensions: [type]
        List<String> dims = List.of("type");
        RedisPoolStore after = RedisPoolStore.connect(
                TestRedis.config(before.keyPrefix()),
                StoreSettings.builder().indexDimensions(dims).build());
        opened.add(after);
        assertEquals(40, after.upsert(pool, NOW).refreshed());
        after.purgeExpired(NOW); // the country and country x type sets' members: cleaned
        assertEquals(List.of(), LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, after.keyPrefix(), dims));
        assertSetsAreThoseOf(
                after,
                pool,
                StoreSettings.builder().indexDimensions(dims).build(),
                "the sets of the new dimensions only");
        // a type filter is a set now, country x type no longer: both still find every match once
        Set<String> seen = new java.util.HashSet<>();
        for (ExtractionFilter f : List.of(
                ExtractionFilter.builder().country("US").label("type", "a").build(),
                ExtractionFilter.builder().label("type", "a").build(),
                ExtractionFilter.builder().label("type", "b").build())) {
            for (String id : extractedIds(
                    after.extract(ExtractionRequest.builder(40).filter(f).build(), NOW))) {
                assertTrue(seen.add(id), "handed out twice: " + id);
            }
        }
        assertEquals(40, seen.size(), "none lost");
    }

    @Test
    void turningTheProtocolSetsOffDropsThemAtTheNextPublishWithoutLosingAProxy() {
        RedisPoolStore before = open();
        List<Proxy> pool = new ArrayList<>();
        for (int n = 0; n < 40; n++) {
            pool.add(ProxyFixtures.builder(n, n % 2 == 0 ? Protocol.SOCKS5 : Protocol.HTTP)
                    .labels(Labels.of("country", n % 4 < 2 ? "US" : "DE", "type", "dc"))
                    .build());
        }
        before.upsert(pool, NOW);
        // the same pool, another process configured with store.index.protocol: false
        StoreSettings plain = StoreSettings.builder().indexProtocol(false).build();
        RedisPoolStore after = RedisPoolStore.connect(TestRedis.config(before.keyPrefix()), plain);
        opened.add(after);
        assertEquals(40, after.upsert(pool, NOW).refreshed());
        after.purgeExpired(NOW); // the sets of the labels with a protocol: emptied, so gone
        assertSetsAreThoseOf(after, pool, plain, "no set of labels with a protocol is left");
        assertEquals(List.of(), LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, after.keyPrefix()));
        // labels with a protocol: the labels' set popped, the protocol tested; every match found once
        Set<String> seen = new java.util.HashSet<>();
        for (String country : List.of("US", "DE")) {
            for (Protocol protocol : List.of(Protocol.SOCKS5, Protocol.HTTP)) {
                ExtractionRequest one = ExtractionRequest.builder(1)
                        .filter(ExtractionFilter.builder()
                                .country(country)
                                .label("type", "dc")
                                .protocol(protocol)
                                .build())
                        .build();
                for (int i = 0; i < 10; i++) {
                    Set<String> got = extractedIds(after.extract(one, NOW));
                    assertEquals(1, got.size(), country + " " + protocol + " " + i);
                    assertTrue(seen.addAll(got), "handed out twice: " + got);
                }
                assertEquals(Set.of(), extractedIds(after.extract(one, NOW)), country + " " + protocol + " drained");
            }
        }
        assertEquals(40, seen.size(), "none lost");
    }

    @Test
    void turningTheUpstreamSetsOnIndexesAProxyAtItsNextPublishAndFindsTheRestMeanwhile() {
        RedisPoolStore before = open();
        List<Proxy> pool = new ArrayList<>();
        for (int n = 0; n < 40; n++) {
            pool.add(ProxyFixtures.builder(n)
                    .upstream(n % 2 == 0 ? "vendor-a" : "vendor-b")
                    .labels(Labels.of("country", n % 4 < 2 ? "US" : "DE", "type", "dc"))
                    .build());
        }
        before.upsert(pool, NOW);
        // the same pool, another process configured with store.index.upstream: true
        StoreSettings withUpstream = StoreSettings.builder().indexUpstream(true).build();
        RedisPoolStore after = RedisPoolStore.connect(TestRedis.config(before.keyPrefix()), withUpstream);
        opened.add(after);
        Set<String> seen = new java.util.HashSet<>();
        Map<String, Proxy> byId = new java.util.HashMap<>();
        pool.forEach(p -> byId.put(p.id(), p));
        // before any publish of the new version: no upstream set has a member yet, the general script
        // finds vendor-a's US proxies (one of each upstream and country taken here)
        for (String upstream : List.of("vendor-a", "vendor-b")) {
            for (String country : List.of("US", "DE")) {
                Set<String> got = extractedIds(after.extract(oneOf(upstream, country), NOW));
                assertEquals(1, got.size(), upstream + " " + country + " before the publish");
                assertTrue(seen.addAll(got), "handed out twice: " + got);
            }
        }
        assertEquals(36, after.upsert(pool, NOW).refreshed(), "the 4 extracted ones stay tombstoned");
        after.purgeExpired(NOW);
        List<Proxy> left = pool.stream().filter(p -> !seen.contains(p.id())).toList();
        assertSetsAreThoseOf(after, left, withUpstream, "the upstream's combinations joined at the publish");
        assertEquals(List.of(), LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, after.keyPrefix()));
        for (String upstream : List.of("vendor-a", "vendor-b")) {
            for (String country : List.of("US", "DE")) {
                for (int i = 0; i < 9; i++) {
                    Set<String> got = extractedIds(after.extract(oneOf(upstream, country), NOW));
                    assertEquals(1, got.size(), upstream + " " + country + " " + i);
                    Proxy p = byId.get(got.iterator().next());
                    assertEquals(upstream, p.upstream());
                    assertEquals(country, p.labels().get("country"));
                    assertTrue(seen.addAll(got), "handed out twice: " + got);
                }
                assertEquals(Set.of(), extractedIds(after.extract(oneOf(upstream, country), NOW)), "drained");
            }
        }
        assertEquals(40, seen.size(), "none lost");
    }

    /** One proxy of {@code upstream} in {@code country}, of type dc. */
    private static ExtractionRequest oneOf(String upstream, String country) {
        return ExtractionRequest.builder(1)
                .filter(ExtractionFilter.builder()
                        .upstream(upstream)
                        .country(country)
                        .label("type", "dc")
                        .build())
                .build();
    }

    /** The pool of {@code store} has exactly the sets of the set terms of {@code pool} under {@code index}. */
    private static void assertSetsAreThoseOf(RedisPoolStore store, List<Proxy> pool, StoreSettings index, String why) {
        try (RedisClient c = RedisClient.builder()
                .hostAndPort(TestRedis.HOST, TestRedis.PORT)
                .build()) {
            String tag = new RedisKeys(store.keyPrefix()).poolTag();
            Set<String> sets = new TreeSet<>();
            for (String key : LayoutAudit.scan(c, tag.replace("{", "\\{").replace("}", "\\}") + "e:*")) {
                sets.add(key.substring(tag.length() + 2));
            }
            TreeSet<String> want = new TreeSet<>();
            for (Proxy p : pool) {
                want.addAll(ProxyCodec.setTerms(p, index));
            }
            assertEquals(want, sets, why);
        }
    }

    @Test
    void proxiesPublishedBeforeTheProtocolSetsAreStillFoundOnceEach() {
        // a pool where half the US socks5 proxies were published by a version without the sets of the
        // labels with a protocol (taken out of that set here: the state such a proxy is in until its
        // next publish), beside US http ones: country=US&protocol=socks5 pops the set while it has
        // members, then the general script finds the rest
        RedisPoolStore s = open();
        List<Proxy> pool = new ArrayList<>();
        for (int n = 0; n < 40; n++) {
            pool.add(ProxyFixtures.builder(n, n < 20 ? Protocol.SOCKS5 : Protocol.HTTP)
                    .labels(Labels.of("country", "US"))
                    .build());
        }
        s.upsert(pool, NOW);
        String set = new RedisKeys(s.keyPrefix())
                .set(ProxyCodec.term(ProxyCodec.compositeItem(null, "socks5", new TreeMap<>(Map.of("country", "US")))));
        try (RedisClient c = RedisClient.builder()
                .hostAndPort(TestRedis.HOST, TestRedis.PORT)
                .build()) {
            assertEquals(20, c.scard(set), "the US socks5 proxies, and only those");
            for (int n = 0; n < 10; n++) {
                assertEquals(1, c.srem(set, pool.get(n).id()));
            }
            // and, published by an older version, they carry no index tag: the pool is not marked
            // indexed alike, so an empty set proves nothing (common.lua indexed_alike)
            assertEquals(1, c.hdel(new RedisKeys(s.keyPrefix()).poolTag() + "n", "z"));
        }
        ExtractionRequest usSocks5 = ExtractionRequest.builder(1)
                .filter(ExtractionFilter.builder()
                        .country("US")
                        .protocol(Protocol.SOCKS5)
                        .build())
                .build();
        Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < 20; i++) {
            Set<String> got = extractedIds(s.extract(usSocks5, NOW));
            assertEquals(1, got.size(), "extraction " + i);
            assertTrue(seen.addAll(got), "handed out twice: " + got);
        }
        Set<String> socks = new java.util.HashSet<>();
        pool.subList(0, 20).forEach(p -> socks.add(p.id()));
        assertEquals(socks, seen, "every US socks5 proxy once, no http one");
        assertEquals(Set.of(), extractedIds(s.extract(usSocks5, NOW)));
        assertEquals(20, s.available(ProxyFixtures.UPSTREAM), "the http ones");
    }

    @Test
    void theGeneralScriptsCallsAreCountedForTheFiltersNoSetAnswers() {
        RedisPoolStore s = open();
        List<Proxy> pool = new ArrayList<>();
        for (int n = 0; n < 20; n++) {
            pool.add(ProxyFixtures.builder(n)
                    .labels(Labels.of("country", "US", "type", "dc", "isp", n % 2 == 0 ? "x" : "y"))
                    .build());
        }
        s.upsert(pool, NOW);
        assertEquals(0, s.generalExtractionCalls());
        ExtractionRequest declared = ExtractionRequest.builder(1)
                .filter(ExtractionFilter.builder()
                        .country("US")
                        .label("type", "dc")
                        .build())
                .build();
        for (int i = 0; i < 5; i++) {
            assertEquals(1, extractedIds(s.extract(declared, NOW)).size());
        }
        assertEquals(0, s.generalExtractionCalls(), "declared labels: their set, the fast path");
        ExtractionRequest isp = ExtractionRequest.builder(1)
                .filter(ExtractionFilter.builder().label("isp", "x").build())
                .build();
        for (int i = 0; i < 3; i++) {
            assertEquals(1, extractedIds(s.extract(isp, NOW)).size());
        }
        assertEquals(3, s.generalExtractionCalls(), "a label outside the declared dimensions: the general script");
    }

    @Test
    void storesWithDifferentPrefixesDoNotSeeEachOther() {
        RedisPoolStore a = open();
        RedisPoolStore b = open();
        a.upsert(List.of(ProxyFixtures.proxy(1)), NOW);
        assertEquals(Map.of(), b.countsByUpstream());
        assertEquals(
                List.of(),
                ProxyFixtures.extracted(b.extract(ExtractionRequest.builder(1).build(), NOW)));
        assertEquals(1, a.available(ProxyFixtures.UPSTREAM));
        assertEquals(1, b.upsert(List.of(ProxyFixtures.proxy(1)), NOW).added(), "the same proxy, another pool");
    }

    @Test
    void extractionPurgesExpiredProxiesOnItsWayAndCountsTheRestExactly() {
        RedisPoolStore s = open();
        List<Proxy> shortLived = new ArrayList<>();
        for (int n = 0; n < 250; n++) { // more than one extraction's purge bound
            shortLived.add(ProxyFixtures.builder(n)
                    .expiresAt(NOW.plus(Duration.ofMinutes(1)))
                    .build());
        }
        s.upsert(shortLived, NOW);
        s.upsert(List.of(ProxyFixtures.proxy(1000), ProxyFixtures.proxy(1001)), NOW);
        Instant later = NOW.plus(Duration.ofMinutes(2));
        // 2 alive: reserve 1 leaves exactly 1, although 150 expired ones are still stored after the call
        assertEquals(
                1,
                ProxyFixtures.extracted(s.extract(
                                ExtractionRequest.builder(5).gatewayReserve(1).build(), later))
                        .size());
        assertEquals(150 + 1, s.available(ProxyFixtures.UPSTREAM), "inspection counts as stored until purged");
        assertEquals(150, s.purgeExpired(later));
        assertEquals(List.of(), LayoutAudit.problems(TestRedis.HOST, TestRedis.PORT, s.keyPrefix()));
    }

    @Test
    void unreachableRedisIsStoreUnavailableAtConnect() {
        int port = PrivateRedisServer.freePort();
        RedisStoreConfig config = new RedisStoreConfig(
                "127.0.0.1", port, "", "", 0, "x:", Duration.ofMillis(500), Duration.ofMillis(500), 2);
        StoreUnavailableException e = assertThrows(
                StoreUnavailableException.class, () -> RedisPoolStore.connect(config, StoreSettings.DEFAULTS));
        assertTrue(e.getMessage().startsWith("Redis at 127.0.0.1:" + port + " is unavailable"), e.getMessage());
    }
}
