package dev.proxypool.sdk.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.rank.RankPolicy;
import dev.proxypool.core.rank.Ranker;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The ranking memory: streaks across cycles, one ranking over every upstream, withdrawn picks; and de-listing. */
class RankedPoolTest {

    private static final Instant NOW = Instant.parse("2026-12-04T00:00:00Z");

    private static Proxy proxy(String upstream, int port, String exitIp, long asn) {
        return Proxy.builder(new ProxyKey(Protocol.HTTP, "127.0.0.1", port, CredentialRef.NONE))
                .id(upstream + "-" + port)
                .upstream(upstream)
                .exitNetwork(new ExitNetwork(exitIp, asn, "AS" + asn, ""))
                .build();
    }

    private static List<ValidationStage.Validated> passed(List<Proxy> proxies, double latencyMs) {
        return proxies.stream()
                .map(p -> new ValidationStage.Validated(p, latencyMs))
                .toList();
    }

    private static Set<String> ids(RankedPool.Decision d) {
        return d.active().values().stream().flatMap(List::stream).map(Proxy::id).collect(Collectors.toSet());
    }

    @Test
    void theStreakGrowsPerSuccessfulCycleUntilASlowProxyPassesMinScore() {
        RankedPool pool = new RankedPool(new Ranker(RankPolicy.DEFAULTS.withMinScore(9)));
        Proxy slow = proxy("a", 1, "203.0.113.2", 64500);
        Set<String> inPool = new HashSet<>();
        int cycles = 0;
        RankedPool.Decision d;
        do {
            pool.validated(List.of(slow), passed(List.of(slow), 300)); // 1000/301 = 3.3 points
            d = pool.rank(inPool, NOW);
            inPool.addAll(ids(d));
            cycles++;
        } while (ids(d).isEmpty() && cycles < 20);
        assertEquals(3, cycles, "3.3 + 2 x streak reaches 9 at the third cycle");
        assertEquals(3, pool.streak(slow.id()));
        pool.validated(List.of(slow), List.of());
        assertEquals(0, pool.streak(slow.id()), "a failed validation resets the streak");
    }

    @Test
    void poolSizeBoundsEveryUpstreamTogetherAndEarlierPicksOutsideTheBestLeave() {
        RankedPool pool =
                new RankedPool(new Ranker(RankPolicy.DEFAULTS.withMinScore(0).withSizes(2, 5)));
        Proxy a1 = proxy("a", 1, "203.0.113.2", 64500);
        Proxy a2 = proxy("a", 2, "203.0.113.3", 64500);
        Proxy b1 = proxy("b", 3, "198.51.100.2", 64501);
        pool.validated(List.of(a1, a2), passed(List.of(a1, a2), 50));
        RankedPool.Decision first = pool.rank(Set.of(), NOW);
        assertEquals(Set.of("a-1", "a-2"), ids(first), "alone, upstream a fills both places");

        pool.validated(List.of(b1), passed(List.of(b1), 50));
        RankedPool.Decision second = pool.rank(Set.of("a-1", "a-2"), NOW);
        assertEquals(2, ids(second).size(), "two places for all upstreams together");
        assertEquals(true, ids(second).contains("b-3"), "the other network wins the second place");
        assertEquals(1, second.withdrawn().size(), "one of a's earlier picks leaves");
    }

    @Test
    void aProxyMissingFromTwoSuccessfulAnswersInARowIsWithdrawnOneListedAgainIsForgiven() {
        Delisting d = new Delisting();
        Proxy p1 = proxy("a", 1, "", 0);
        Proxy p2 = proxy("a", 2, "", 0);
        Proxy rental = Proxy.builder(new ProxyKey(Protocol.HTTP, "127.0.0.1", 3, CredentialRef.NONE))
                .id("a-3")
                .upstream("a")
                .expiresAt(NOW.plusSeconds(3600))
                .build();
        List<Proxy> pooled = List.of(p1, p2, rental);
        assertEquals(List.of(), d.answer(pooled, List.of(p1), false), "first miss: grace");
        assertEquals(List.of(), d.answer(pooled, List.of(p1, p2), false), "listed again: forgiven");
        assertEquals(List.of(), d.answer(pooled, List.of(p1), false));
        assertEquals(List.of("a-2"), d.answer(pooled, List.of(p1), false), "second miss in a row: withdrawn");
    }

    /** A session gateway's answer is its whole stock: what it no longer lists leaves at once, a rental too. */
    @Test
    void aWholeStockAnswerWithdrawsWhatItNoLongerListsAtOnceExpiryOrNot() {
        Delisting d = new Delisting();
        Proxy p1 = proxy("a", 1, "", 0);
        Proxy session = Proxy.builder(new ProxyKey(Protocol.HTTP, "127.0.0.1", 3, CredentialRef.NONE))
                .id("a-3")
                .upstream("a")
                .expiresAt(NOW.plusSeconds(3600))
                .build();
        List<Proxy> pooled = List.of(p1, session);
        assertEquals(List.of(), d.answer(pooled, List.of(p1, session), true), "all listed: nothing leaves");
        assertEquals(List.of("a-3"), d.answer(pooled, List.of(p1), true), "replaced: leaves at the first miss");
    }
}
