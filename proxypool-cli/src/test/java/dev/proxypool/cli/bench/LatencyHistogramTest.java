package dev.proxypool.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void bucketsAreContiguousAndEveryValueFallsInsideItsBucket() {
        for (int i = 0; i < LatencyHistogram.BUCKETS - 1; i++) {
            assertTrue(LatencyHistogram.lowest(i) < LatencyHistogram.lowest(i + 1), "bucket " + i);
            assertEquals(i, LatencyHistogram.index(LatencyHistogram.lowest(i)), "lowest of bucket " + i);
            assertEquals(i, LatencyHistogram.index(LatencyHistogram.lowest(i + 1) - 1), "highest of bucket " + i);
        }
        assertEquals(LatencyHistogram.BUCKETS - 1, LatencyHistogram.index(Long.MAX_VALUE));
        assertEquals(2048, LatencyHistogram.BUCKETS);
    }

    @Test
    void smallValuesAreExact() {
        LatencyHistogram h = new LatencyHistogram();
        for (int v = 1; v <= 100; v++) {
            h.recordMicros(v);
        }
        assertEquals(50, h.percentileMicros(50));
        assertEquals(95, h.percentileMicros(95));
        assertEquals(99, h.percentileMicros(99));
        assertEquals(100, h.percentileMicros(100));
        assertEquals(100, h.maxMicros());
        assertEquals(1, h.minMicros());
        assertEquals(50.5, h.meanMicros(), 1e-9);
    }

    /** Against exact percentiles of sorted samples: within the 1/64 bucket precision. */
    @Test
    void percentilesOfSkewedSamplesAreWithinOnePointSixPercent() {
        SplittableRandom rnd = new SplittableRandom(42);
        int n = 200_000;
        long[] samples = new long[n];
        LatencyHistogram h = new LatencyHistogram();
        for (int i = 0; i < n; i++) {
            long v = (long) (500 * Math.exp(rnd.nextGaussian() * 1.5)); // log-normal around 0.5 ms
            samples[i] = v;
            h.recordMicros(v);
        }
        Arrays.sort(samples);
        for (double p : new double[] {50, 90, 95, 99, 99.9}) {
            long exact = samples[(int) Math.ceil(p / 100 * n) - 1];
            long got = h.percentileMicros(p);
            assertTrue(
                    Math.abs(got - exact) <= Math.max(1, exact / 64.0), "p" + p + ": exact " + exact + ", got " + got);
        }
        assertEquals(samples[n - 1], h.maxMicros());
    }

    @Test
    void mergingEqualsRecordingIntoOne() {
        LatencyHistogram a = new LatencyHistogram();
        LatencyHistogram b = new LatencyHistogram();
        LatencyHistogram all = new LatencyHistogram();
        for (long v = 0; v < 50_000; v += 7) {
            (v % 2 == 0 ? a : b).recordMicros(v);
            all.recordMicros(v);
        }
        a.add(b);
        assertEquals(all.count(), a.count());
        for (double p : new double[] {1, 50, 99, 100}) {
            assertEquals(all.percentileMicros(p), a.percentileMicros(p));
        }
        assertEquals(all.maxMicros(), a.maxMicros());
        assertEquals(all.minMicros(), a.minMicros());
    }

    @Test
    void emptyAndBadPercentiles() {
        LatencyHistogram h = new LatencyHistogram();
        assertEquals(0, h.percentileMicros(99));
        assertEquals(0, h.minMicros());
        assertEquals(0, h.meanMicros());
        assertThrows(IllegalArgumentException.class, () -> h.percentileMicros(0));
        assertThrows(IllegalArgumentException.class, () -> h.percentileMicros(101));
        h.recordNanos(-5);
        assertEquals(1, h.count());
        assertEquals(0, h.maxMicros());
    }
}
