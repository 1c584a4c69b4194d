package dev.proxypool.core.extract;

import static dev.proxypool.core.extract.ProxyFixtures.builder;
import static dev.proxypool.core.extract.ProxyFixtures.extractedIds;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Extraction filters: protocol, upstream, the named labels (country, region, city, carrier) and
 * extra labels, alone and combined. Each row runs on a fresh store holding the same seven proxies.
 */
public interface FilterContract extends StoreUnderTest {

    private static List<Proxy> sevenProxies() {
        return List.of(
                builder(0, Protocol.HTTP)
                        .labels(Labels.of(
                                "country", "US", "region", "CA", "city", "LA", "carrier", "att", "type", "residential"))
                        .build(),
                builder(1, Protocol.HTTP)
                        .labels(Labels.of(
                                "country",
                                "US",
                                "region",
                                "NY",
                                "city",
                                "NYC",
                                "carrier",
                                "verizon",
                                "type",
                                "datacenter"))
                        .build(),
                builder(2, Protocol.SOCKS5)
                        .labels(Labels.of(
                                "country", "US", "region", "CA", "city", "SF", "carrier", "att", "type", "residential"))
                        .build(),
                builder(3, Protocol.HTTPS)
                        .upstream("up-b")
                        .labels(Labels.of(
                                "country",
                                "DE",
                                "region",
                                "BE",
                                "city",
                                "Berlin",
                                "carrier",
                                "telekom",
                                "type",
                                "residential"))
                        .build(),
                builder(4, Protocol.SOCKS5)
                        .upstream("up-b")
                        .labels(Labels.of(
                                "country",
                                "DE",
                                "region",
                                "BY",
                                "city",
                                "Munich",
                                "carrier",
                                "vodafone",
                                "type",
                                "datacenter"))
                        .build(),
                // isp, not carrier: the carrier filter does not look at isp
                builder(5, Protocol.HTTP)
                        .upstream("up-b")
                        .labels(Labels.of(
                                "country", "US", "region", "CA", "city", "LA", "isp", "att", "type", "residential"))
                        .build(),
                builder(6, Protocol.SOCKS4).upstream("up-c").build());
    }

    /** One filter row. */
    record Row(String name, ExtractionFilter filter, Set<Integer> expected) {}

    private static ExtractionFilter.Builder f() {
        return ExtractionFilter.builder();
    }

    private static List<Row> rows() {
        return List.of(
                new Row("any", ExtractionFilter.ANY, Set.of(0, 1, 2, 3, 4, 5, 6)),
                new Row("protocol http", f().protocol(Protocol.HTTP).build(), Set.of(0, 1, 5)),
                new Row("protocol https", f().protocol(Protocol.HTTPS).build(), Set.of(3)),
                new Row("protocol socks5", f().protocol(Protocol.SOCKS5).build(), Set.of(2, 4)),
                new Row("protocol socks4", f().protocol(Protocol.SOCKS4).build(), Set.of(6)),
                new Row("country US", f().country("US").build(), Set.of(0, 1, 2, 5)),
                new Row("country is case-sensitive", f().country("us").build(), Set.of()),
                new Row("country FR", f().country("FR").build(), Set.of()),
                new Row("region CA", f().region("CA").build(), Set.of(0, 2, 5)),
                new Row("city LA", f().city("LA").build(), Set.of(0, 5)),
                new Row("carrier att (not isp)", f().carrier("att").build(), Set.of(0, 2)),
                new Row("label isp=att", f().label("isp", "att").build(), Set.of(5)),
                new Row("upstream up-b", f().upstream("up-b").build(), Set.of(3, 4, 5)),
                new Row("upstream unknown", f().upstream("nope").build(), Set.of()),
                new Row(
                        "label type=residential",
                        f().label("type", "residential").build(),
                        Set.of(0, 2, 3, 5)),
                new Row("label unknown key", f().label("owner", "x").build(), Set.of()),
                new Row(
                        "http+US+CA+residential",
                        f().protocol(Protocol.HTTP)
                                .country("US")
                                .region("CA")
                                .label("type", "residential")
                                .build(),
                        Set.of(0, 5)),
                new Row(
                        "up-a+carrier att+socks5",
                        f().upstream("up-a")
                                .carrier("att")
                                .protocol(Protocol.SOCKS5)
                                .build(),
                        Set.of(2)),
                new Row("up-b+country US", f().upstream("up-b").country("US").build(), Set.of(5)),
                new Row("contradiction", f().country("US").city("Berlin").build(), Set.of()),
                new Row(
                        "socks5+country US",
                        f().protocol(Protocol.SOCKS5).country("US").build(),
                        Set.of(2)),
                new Row(
                        "http+country US+type residential",
                        f().protocol(Protocol.HTTP)
                                .country("US")
                                .label("type", "residential")
                                .build(),
                        Set.of(0, 5)),
                new Row(
                        "http+up-b",
                        f().protocol(Protocol.HTTP).upstream("up-b").build(),
                        Set.of(5)),
                new Row(
                        "http+country US",
                        f().protocol(Protocol.HTTP).country("US").build(),
                        Set.of(0, 1, 5)),
                new Row(
                        "https+up-b+type residential",
                        f().protocol(Protocol.HTTPS)
                                .upstream("up-b")
                                .label("type", "residential")
                                .build(),
                        Set.of(3)),
                new Row(
                        "socks5+country FR",
                        f().protocol(Protocol.SOCKS5).country("FR").build(),
                        Set.of()));
    }

    /** A fresh store holding {@code ps}. */
    private PoolStore holding(List<Proxy> ps) {
        return holding(ps, StoreSettings.DEFAULTS);
    }

    /** A fresh store with {@code settings} holding {@code ps}. */
    private PoolStore holding(List<Proxy> ps, StoreSettings settings) {
        PoolStore s = newStore(settings);
        s.upsert(ps, now());
        return s;
    }

    /** The ids of the proxies of {@code ps} that {@code row} expects. */
    private static Set<String> wanted(Row row, List<Proxy> ps) {
        TreeSet<String> want = new TreeSet<>();
        row.expected().forEach(i -> want.add(ps.get(i).id()));
        return want;
    }

    @Test
    default void filtersSelectExactlyTheMatchingProxies() {
        List<Proxy> ps = sevenProxies();
        List<Executable> checks = new ArrayList<>();
        for (Row row : rows()) {
            PoolStore s = holding(ps);
            Set<String> got = extractedIds(s.extract(
                    ExtractionRequest.builder(1000).filter(row.filter()).build(), now()));
            Set<String> want = wanted(row, ps);
            checks.add(() -> assertEquals(want, got, row.name()));
            int left = ps.size() - want.size();
            checks.add(() -> assertEquals(left, totalAvailable(s), row.name() + ": left in the pool"));
        }
        assertAll(checks);
    }

    @Test
    default void filtersSelectExactlyTheMatchingProxiesOneAtATime() {
        // count=1 calls, the common ones: a store may serve them another way than a batch (the Redis
        // store pops one set and tests the filter's other terms on each candidate)
        assertAll(oneAtATime(StoreSettings.DEFAULTS));
    }

    @Test
    default void withTheUpstreamCombinationsIndexedFiltersStillSelectExactlyTheirMatches() {
        // store.index.upstream: an upstream beside labels or a protocol is a set of its own; one at a
        // time and in a batch of their count, every row finds exactly its matches, each once
        StoreSettings withUpstream = StoreSettings.builder().indexUpstream(true).build();
        List<Executable> checks = oneAtATime(withUpstream);
        checks.addAll(inABatchOfTheirCount(withUpstream));
        assertAll(checks);
    }

    /** The checks of count=1 extractions of each row until none is left, on stores with {@code settings}. */
    private List<Executable> oneAtATime(StoreSettings settings) {
        List<Proxy> ps = sevenProxies();
        List<Executable> checks = new ArrayList<>();
        for (Row row : rows()) {
            PoolStore s = holding(ps, settings);
            List<String> got = new ArrayList<>();
            for (int i = 0; i <= ps.size(); i++) {
                Set<String> one = extractedIds(s.extract(
                        ExtractionRequest.builder(1).filter(row.filter()).build(), now()));
                if (one.isEmpty()) {
                    break;
                }
                got.addAll(one);
            }
            Set<String> want = wanted(row, ps);
            checks.add(() -> assertEquals(want, new TreeSet<>(got), row.name()));
            checks.add(() -> assertEquals(want.size(), got.size(), row.name() + ": one per call, none twice " + got));
            int left = ps.size() - want.size();
            checks.add(() -> assertEquals(left, totalAvailable(s), row.name() + ": left in the pool"));
        }
        return checks;
    }

    @Test
    default void filtersSelectExactlyTheMatchingProxiesInABatchOfTheirCount() {
        // allOrNothing of exactly the matches: a batch a store can serve from one set (the Redis store
        // pops the narrowest and tests the filter's other terms on each candidate) and then nothing more
        assertAll(inABatchOfTheirCount(StoreSettings.DEFAULTS));
    }

    /** The checks of an allOrNothing batch of each row's match count, then one more, on stores with {@code settings}. */
    private List<Executable> inABatchOfTheirCount(StoreSettings settings) {
        List<Proxy> ps = sevenProxies();
        List<Executable> checks = new ArrayList<>();
        for (Row row : rows()) {
            if (row.expected().size() < 2) {
                continue;
            }
            PoolStore s = holding(ps, settings);
            Set<String> want = wanted(row, ps);
            Set<String> got = extractedIds(s.extract(
                    ExtractionRequest.builder(want.size())
                            .allOrNothing()
                            .filter(row.filter())
                            .build(),
                    now()));
            ExtractionResult more = s.extract(
                    ExtractionRequest.builder(1)
                            .allOrNothing()
                            .filter(row.filter())
                            .build(),
                    now());
            checks.add(() -> assertEquals(want, got, row.name()));
            checks.add(() -> assertEquals(new ExtractionResult.Insufficient(0), more, row.name() + ": then none"));
            int left = ps.size() - want.size();
            checks.add(() -> assertEquals(left, totalAvailable(s), row.name() + ": left in the pool"));
        }
        return checks;
    }

    @Test
    default void filteredAllOrNothingCountsOnlyMatchingProxies() {
        List<Proxy> ps = sevenProxies();
        store().upsert(ps, now());
        ExtractionFilter us = f().country("US").build();
        assertEquals(
                new ExtractionResult.Insufficient(4),
                extract(ExtractionRequest.builder(5).allOrNothing().filter(us).build()));
        assertEquals(
                4,
                extractedIds(extract(ExtractionRequest.builder(4)
                                .allOrNothing()
                                .filter(us)
                                .build()))
                        .size());
        assertEquals(3, totalAvailable(store()));
    }
}
