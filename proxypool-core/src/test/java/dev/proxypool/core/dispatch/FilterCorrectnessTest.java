package dev.proxypool.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.capacity.Reservation;
import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.snapshot.PoolFixture;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Picks against a brute-force definition on randomized pools: every picked proxy passes the filter
 * (upstream, protocol, 0/2/6 labels, remaining TTL) at the pick's time, and draining the pool with
 * each strategy reaches exactly the usable proxies, with their capacity exactly used up.
 */
class FilterCorrectnessTest {

    private final PoolFixture f = new PoolFixture();
    private final Dispatcher dispatcher = new Dispatcher();

    @Test
    void picksMatchABruteForceScanForEveryStrategy() {
        Random random = new Random(20260101);
        int checkedPicks = 0;
        for (int round = 0; round < 12; round++) {
            List<Proxy> pool = f.randomPool(random, 200 + random.nextInt(300));
            PoolSnapshot s = f.build(pool);
            f.clock.advance(Duration.ofSeconds(random.nextInt(300))); // some proxies expire
            Instant wallNow = f.clock.instant();
            for (int q = 0; q < 25; q++) {
                CandidateFilter filter = randomFilter(random);
                for (Strategy strategy : Strategy.values()) {
                    int index = strategy == Strategy.SEQUENTIAL
                                    && !filter.upstreams().isEmpty()
                            ? random.nextInt(filter.upstreams().size())
                            : 0;
                    PickRequest r = new PickRequest(filter, strategy, "k" + random.nextInt(1000), "", List.of(), index);
                    Map<String, Integer> expected = usable(s, r, wallNow, true);
                    NoCandidate.Reason expectedEnd = !expected.isEmpty()
                            ? NoCandidate.Reason.BUSY
                            : usable(s, r, wallNow, false).isEmpty()
                                    ? NoCandidate.Reason.NO_MATCH
                                    : NoCandidate.Reason.EXPIRING;
                    Map<String, Integer> got = drain(s, r, expectedEnd);
                    assertEquals(expected, got, strategy + " " + filter + " index " + index);
                    checkedPicks +=
                            got.values().stream().mapToInt(Integer::intValue).sum();
                }
            }
        }
        assertTrue(checkedPicks > 10_000, "picks checked: " + checkedPicks);
    }

    /** Brute force: id → capacity of every proxy the request may use, by definition (TTL optional). */
    private static Map<String, Integer> usable(PoolSnapshot s, PickRequest r, Instant wallNow, boolean checkTtl) {
        CandidateFilter filter = r.filter();
        Set<String> allowedUpstreams = new HashSet<>();
        if (r.strategy() == Strategy.SEQUENTIAL && !filter.upstreams().isEmpty()) {
            allowedUpstreams.addAll(filter.upstreams().subList(0, r.upstreamIndex() + 1));
        } else {
            allowedUpstreams.addAll(filter.upstreams());
        }
        Map<String, Integer> out = new HashMap<>();
        for (Proxy p : s.proxies()) {
            boolean ttlOk = !checkTtl
                    || !p.expires()
                    || p.remainingTtl(wallNow).compareTo(filter.minRemainingTtl()) >= 0 && !p.isExpired(wallNow);
            if ((allowedUpstreams.isEmpty() || allowedUpstreams.contains(p.upstream()))
                    && (filter.protocols().isEmpty() || filter.protocols().contains(p.protocol()))
                    && filter.labels().matches(p.labels())
                    && ttlOk) {
                out.put(p.id(), p.maxConcurrency());
            }
        }
        return out;
    }

    /** Picks and holds until NoCandidate (for {@code end}); returns id → times picked; releases everything. */
    private Map<String, Integer> drain(PoolSnapshot s, PickRequest r, NoCandidate.Reason end) {
        Map<String, Integer> counts = new HashMap<>();
        List<Reservation> held = new ArrayList<>();
        for (; ; ) {
            PickResult result = dispatcher.pick(s, r, f.now());
            if (result instanceof NoCandidate nc) {
                assertEquals(end, nc.reason(), r.toString());
                break;
            }
            Picked p = assertInstanceOf(Picked.class, result);
            counts.merge(p.proxy().id(), 1, Integer::sum);
            held.add(p.reservation());
        }
        held.forEach(Reservation::release);
        return counts;
    }

    private static CandidateFilter randomFilter(Random random) {
        List<String> upstreams = new ArrayList<>(PoolFixture.UPSTREAMS);
        Collections.shuffle(upstreams, random);
        upstreams = new ArrayList<>(upstreams.subList(0, random.nextInt(4)));
        Set<Protocol> protocols = EnumSet.noneOf(Protocol.class);
        for (int i = random.nextInt(3); i > 0; i--) {
            protocols.add(Protocol.values()[random.nextInt(Protocol.values().length)]);
        }
        Map<String, String> labels = new TreeMap<>();
        int n = new int[] {0, 2, 6}[random.nextInt(3)];
        if (n >= 2) {
            labels.put("country", PoolFixture.COUNTRIES.get(random.nextInt(PoolFixture.COUNTRIES.size())));
            labels.put("type", PoolFixture.TYPES.get(random.nextInt(PoolFixture.TYPES.size())));
        }
        if (n == 6) {
            labels.put("tier", random.nextInt(4) == 0 ? "premium" : "standard");
            labels.put("ipv", "4");
            labels.put("rotation", random.nextBoolean() ? "sticky" : "rotating");
            labels.put("level", "elite");
        }
        return new CandidateFilter(
                upstreams,
                protocols,
                LabelSelector.of(labels),
                Duration.ofSeconds(random.nextInt(4) * 60L),
                Duration.ZERO);
    }
}
