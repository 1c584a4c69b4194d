package dev.proxypool.cli.bench.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The simulated upstream's round trips follow the configured distribution. */
class RttDistributionTest {

    private static long[] sorted(RttDistribution d, int n) {
        SplittableRandom random = new SplittableRandom(35);
        long[] s = new long[n];
        for (int i = 0; i < n; i++) {
            s[i] = d.sampleMicros(random);
        }
        Arrays.sort(s);
        return s;
    }

    @Test
    void logNormalHasTheConfiguredMedianAndP99() {
        RttDistribution d = RttDistribution.parse("lognormal:200ms,1500ms");
        long[] s = sorted(d, 200_000);
        assertEquals(200_000, s[s.length / 2], 200_000 * 0.03);
        assertEquals(1_500_000, s[(int) (s.length * 0.99)], 1_500_000 * 0.05);
        assertEquals(200, d.medianMillis(), 1e-9);
        assertEquals("lognormal:200ms,1500ms", d.describe());
    }

    @Test
    void uniformStaysWithinItsBoundsAndFixedIsFixed() {
        long[] s = sorted(RttDistribution.parse("uniform:50ms-400ms"), 50_000);
        assertTrue(s[0] >= 50_000 && s[s.length - 1] <= 400_000, s[0] + ".." + s[s.length - 1]);
        assertEquals(225_000, s[s.length / 2], 225_000 * 0.03);
        long[] f = sorted(RttDistribution.parse("fixed:1.5s"), 10);
        assertEquals(1_500_000, f[0]);
        assertEquals(1_500_000, f[9]);
        assertEquals(250_000, sorted(RttDistribution.parse("250"), 1)[0], "a bare number is milliseconds");
    }

    @Test
    void samplesAreCappedAndBadFormsRefused() {
        long[] s = sorted(RttDistribution.parse("lognormal:10s,600s"), 10_000);
        assertTrue(s[s.length - 1] <= RttDistribution.MAX_MICROS);
        assertThrows(IllegalArgumentException.class, () -> RttDistribution.parse("lognormal:200ms"));
        assertThrows(IllegalArgumentException.class, () -> RttDistribution.parse("lognormal:2s,1s"));
        assertThrows(IllegalArgumentException.class, () -> RttDistribution.parse("uniform:400ms-50ms"));
        assertThrows(IllegalArgumentException.class, () -> RttDistribution.parse("pareto:1ms"));
    }
}
