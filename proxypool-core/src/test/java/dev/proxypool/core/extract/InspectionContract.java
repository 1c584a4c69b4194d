package dev.proxypool.core.extract;

import static dev.proxypool.core.extract.ProxyFixtures.builder;
import static dev.proxypool.core.extract.ProxyFixtures.listAll;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Counts, lookup and the paged listing of the admin API. */
public interface InspectionContract extends StoreUnderTest {

    /** 53 proxies over three upstreams, three protocols and two countries; every 5th disabled. */
    private List<Proxy> mixedPool() {
        List<Proxy> ps = new ArrayList<>();
        Protocol[] protocols = {Protocol.HTTP, Protocol.SOCKS5, Protocol.HTTPS};
        for (int n = 0; n < 53; n++) {
            ps.add(builder(n, protocols[n % 3])
                    .upstream("up-" + (n % 3 == 0 ? "a" : n % 3 == 1 ? "b" : "c"))
                    .labels(Labels.of("country", n % 2 == 0 ? "US" : "DE"))
                    .build());
        }
        store().upsert(ps, now());
        for (int n = 0; n < 53; n += 5) {
            store().setDisabled(ps.get(n).id(), true);
        }
        return ps;
    }

    @Test
    default void countsByUpstreamSplitAvailableAndDisabled() {
        assertEquals(Map.of(), store().countsByUpstream());
        publish(
                builder(1).build(),
                builder(2).build(),
                builder(3).build(),
                builder(4).upstream("up-b").build(),
                builder(5).upstream("up-c").build());
        store().setDisabled(builder(1).build().id(), true);
        store().setDisabled(builder(5).upstream("up-c").build().id(), true);

        assertEquals(
                Map.of(
                        "up-a",
                        new UpstreamCounts(2, 1),
                        "up-b",
                        new UpstreamCounts(1, 0),
                        "up-c",
                        new UpstreamCounts(0, 1)),
                store().countsByUpstream());
        assertEquals(2, store().available("up-a"));
        assertEquals(0, store().available("up-c"));
        assertEquals(0, store().available("nope"));
    }

    @Test
    default void getShowsStateAndLastCheck() {
        Proxy p = builder(1).build();
        publish(p);
        store().markChecked(p.id(), now());
        store().setDisabled(p.id(), true);
        assertEquals(Optional.of(new StoredProxy(p, ProxyState.DISABLED, Optional.of(now()))), store().get(p.id()));
    }

    @Test
    default void pagesCoverEveryProxyExactlyOnceInIdOrder() {
        List<Proxy> ps = mixedPool();
        TreeSet<String> all = new TreeSet<>(ProxyFixtures.ids(ps));
        for (int limit : new int[] {1, 7, 53, 1000}) {
            List<String> seen = new ArrayList<>();
            listAll(store(), PoolQuery.ALL, limit).forEach(sp -> seen.add(sp.id()));
            assertEquals(new ArrayList<>(all), seen, "limit " + limit);
        }
        ProxyPage one = store().list(PoolQuery.ALL, PageRequest.first(1000));
        assertEquals(53, one.proxies().size());
        assertEquals("", one.nextCursor());
    }

    @Test
    default void emptyStoreListsOneEmptyLastPage() {
        ProxyPage page = store().list(PoolQuery.ALL, PageRequest.first(10));
        assertEquals(List.of(), page.proxies());
        assertEquals(false, page.hasMore());
    }

    @Test
    default void pagesApplyTheQuery() {
        List<Proxy> ps = mixedPool();
        List<PoolQuery> queries = List.of(
                PoolQuery.of(ExtractionFilter.builder().upstream("up-b").build()),
                PoolQuery.ALL.withState(ProxyState.DISABLED),
                PoolQuery.ALL.withState(ProxyState.AVAILABLE),
                PoolQuery.of(ExtractionFilter.builder()
                        .protocol(Protocol.SOCKS5)
                        .country("DE")
                        .build()),
                PoolQuery.of(ExtractionFilter.builder().country("US").build()).withState(ProxyState.DISABLED),
                PoolQuery.of(ExtractionFilter.builder().country("FR").build()));
        List<Executable> checks = new ArrayList<>();
        for (PoolQuery q : queries) {
            List<String> want = new ArrayList<>();
            for (Proxy p : ps) {
                ProxyState state = store().get(p.id()).orElseThrow().state();
                if (q.matches(p, state)) {
                    want.add(p.id());
                }
            }
            want.sort(null);
            List<String> got = new ArrayList<>();
            listAll(store(), q, 4).forEach(sp -> got.add(sp.id()));
            checks.add(() -> assertEquals(want, got, q.toString()));
        }
        assertAll(checks);
    }

    @Test
    default void cursorStaysValidWhenItsProxyIsRemoved() {
        List<Proxy> ps = mixedPool();
        ProxyPage first = store().list(PoolQuery.ALL, PageRequest.first(5));
        assertTrue(first.hasMore());
        String lastOfFirst = first.proxies().getLast().id();
        store().remove(List.of(lastOfFirst));

        List<String> rest = new ArrayList<>();
        String cursor = first.nextCursor();
        while (!cursor.isEmpty()) {
            ProxyPage page = store().list(PoolQuery.ALL, new PageRequest(cursor, 5));
            page.proxies().forEach(sp -> rest.add(sp.id()));
            cursor = page.nextCursor();
        }
        List<String> want = new ArrayList<>(new TreeSet<>(ProxyFixtures.ids(ps)).tailSet(lastOfFirst, false));
        assertEquals(want, rest);
    }
}
