package dev.proxypool.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.snapshot.PoolFixture;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Dynamic weights relative to the upstream (docs/design.md#slow-start, H12), end to end through the
 * weighted strategy: a proxy 300 ms slower than its peers keeps a reduced share for as long as it
 * stays slow (compared with its own past it used to climb back to full weight), and gets its full
 * share back once it is as fast as they are.
 */
class RelativeWeightTest {

    private static final int PROXIES = 5;
    private static final int WINDOW = 200;
    private static final long PEER_MS = 20;
    private static final long SLOW_MS = PEER_MS + 300;

    private final PoolFixture f = new PoolFixture();
    private final Dispatcher dispatcher = new Dispatcher();
    private final PickRequest request = PickRequest.of(CandidateFilter.ANY, Strategy.WEIGHTED);

    /** Picks {@code WINDOW} times, answering each pick after its proxy's latency; counts picks per proxy. */
    private int[] window(PoolSnapshot s, String slowId, long slowMs, int round) {
        return window(s, slowId, slowMs, PEER_MS, round);
    }

    private int[] window(PoolSnapshot s, String slowId, long slowMs, long peerMs, int round) {
        int[] picks = new int[PROXIES];
        for (int i = 0; i < WINDOW; i++) {
            Picked p = (Picked) dispatcher.pick(s, request, f.now());
            int index = Integer.parseInt(p.proxy().id().substring(1));
            picks[index]++;
            long jitterMs = (round * WINDOW + i) % 5; // 0-4 ms, deterministic
            long ms = (p.proxy().id().equals(slowId) ? slowMs : peerMs) + jitterMs;
            p.runtime().health().recordSuccess(p.admission(), ms * 1_000_000, f.now());
            p.reservation().release();
        }
        return picks;
    }

    private static double peerShare(int[] picks) {
        int peers = 0;
        for (int i = 1; i < picks.length; i++) {
            peers += picks[i];
        }
        return (double) peers / (picks.length - 1) / WINDOW;
    }

    @Test
    void aProxySlowerThanItsPeersKeepsAReducedShareWhileItStaysSlowAndRecoversWhenItIsNot() {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", PROXIES)); // one upstream, weight 1 each
        String slow = "p0";
        ProxyHealth slowHealth = f.runtime(slow).health();
        int round = 0;
        for (int w = 0; w < 3; w++, round++) { // everyone equally fast: equal shares
            window(s, slow, PEER_MS, round);
        }
        // 0-4 ms of jitter on 20 ms, met by random picks: near full weight, 0.949 seen in CI
        assertTrue(slowHealth.weightFactor() > 0.9, "as fast as its peers: " + slowHealth.weightFactor());

        List<Double> slowShares = new ArrayList<>();
        int slowRequests = 0;
        for (int w = 0; w < 40; w++, round++) { // 8,000 requests while p0 is 300 ms slower
            int[] picks = window(s, slow, SLOW_MS, round);
            slowRequests += picks[0];
            slowShares.add((double) picks[0] / WINDOW);
            if (w >= 5) { // after the bounded steps have taken it down
                assertTrue(
                        picks[0] < 0.5 * peerShare(picks) * WINDOW,
                        "window " + w + ": slow " + picks[0] + " of " + WINDOW + ", peers " + peerShare(picks) * WINDOW
                                + " each (factor " + slowHealth.weightFactor() + ")");
            }
        }
        assertTrue(slowRequests >= 200, "the slow proxy served " + slowRequests + " requests while slow");
        double settled = slowShares.subList(5, 10).stream()
                .mapToDouble(Double::doubleValue)
                .average()
                .orElseThrow();
        double last = slowShares.subList(35, 40).stream()
                .mapToDouble(Double::doubleValue)
                .average()
                .orElseThrow();
        assertTrue(
                last <= settled + 0.02,
                "its share does not climb back while it stays slow: " + settled + " then " + last + " " + slowShares);
        assertTrue(slowHealth.weightFactor() < 0.4, "factor " + slowHealth.weightFactor());
        assertEquals(PEER_MS + 2, slowHealth.peerLatencyNanos() / 1_000_000, 2, "the peers' mean latency");

        int[] picks = null;
        for (int w = 0; w < 20; w++, round++) { // now as fast as its peers
            picks = window(s, slow, PEER_MS, round);
        }
        assertTrue(
                picks[0] >= 0.8 * peerShare(picks) * WINDOW,
                "recovered: " + picks[0] + " of " + WINDOW + ", peers " + peerShare(picks) * WINDOW + " each");
        // the factor climbs at most 10% a step toward its target and the picks are random draws: after 20
        // windows it is back near full (0.94 seen in CI), not necessarily within 5%
        assertEquals(1.0, slowHealth.weightFactor(), 0.1);
    }

    @Test
    void theWholeUpstreamBeingSlowPenalisesNoOne() {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", PROXIES));
        for (int round = 0; round < 10; round++) { // every proxy at 320 ms: nobody is slower than its peers
            int[] picks = window(s, "none", SLOW_MS, SLOW_MS, round);
            for (int i = 0; i < PROXIES; i++) {
                int index = i;
                assertTrue(picks[i] >= WINDOW / PROXIES * 0.8, () -> "about equal shares: " + picks[index]);
            }
        }
        for (int i = 0; i < PROXIES; i++) {
            assertTrue(f.runtime("p" + i).health().weightFactor() > 0.95, "p" + i + " is as fast as its peers");
        }
    }
}
