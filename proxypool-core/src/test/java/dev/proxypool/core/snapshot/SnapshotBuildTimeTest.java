package dev.proxypool.core.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SnapshotBuildTimeTest {

    @Test
    void aHundredThousandProxiesBuildInWellUnderASecond() {
        PoolFixture f = new PoolFixture();
        List<Proxy> proxies = f.randomPool(new Random(7), 100_000);
        Ticker wall = Clocks.monotonic();
        long best = Long.MAX_VALUE;
        PoolSnapshot s = null;
        for (int i = 0; i < 3; i++) { // the first build also creates the 100,000 runtimes
            long t0 = wall.read();
            s = f.build(proxies);
            best = Math.min(best, wall.read() - t0);
            System.out.printf("build %d of 100,000 proxies: %.1f ms%n", i + 1, (wall.read() - t0) / 1e6);
        }
        assertEquals(100_000, s.size());
        assertTrue(best < 1_000_000_000L, "100,000-proxy build took " + best / 1_000_000 + " ms");
        long t0 = wall.read();
        CandidateSet set = s.candidates(CandidateFilter.ANY.withLabels(LabelSelector.parse("country=US,type=mobile")));
        System.out.printf("first candidate set (%d of 100,000): %.2f ms%n", set.size(), (wall.read() - t0) / 1e6);
    }
}
