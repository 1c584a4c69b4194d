package dev.proxypool.core.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.core.time.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** 100,000 candidates rank in well under the 5 s budget, also in shapes that stress the lazy heap. */
@Timeout(60)
class RankerScaleTest {

    private static final int N = 100_000;

    private static List<RankCandidate> build(IntFunction<RankCandidate> f) {
        List<RankCandidate> in = new ArrayList<>(N);
        for (int i = 0; i < N; i++) {
            in.add(f.apply(i));
        }
        return in;
    }

    private static RankResult timed(String name, List<RankCandidate> in, RankPolicy policy) {
        Ticker t = Ticker.system();
        long start = t.read();
        RankResult r = new Ranker(policy).rank(in);
        double ms = (t.read() - start) / 1e6;
        System.out.printf(
                "rank %,d candidates [%s]: %.1f ms (active %d, reserve %d, dropped %d)%n",
                in.size(),
                name,
                ms,
                r.active().size(),
                r.reserve().size(),
                r.dropped().size());
        assertTrue(ms < 5_000, name + " took " + ms + " ms");
        assertEquals(
                in.size(), r.active().size() + r.reserve().size() + r.dropped().size());
        return r;
    }

    @Test
    void realisticMixOfOneHundredThousand() {
        SplittableRandom rnd = new SplittableRandom(42);
        List<RankCandidate> in = build(i -> {
            long asn = rnd.nextInt(20) == 0 ? 0 : 1 + (long) (Math.pow(rnd.nextDouble(), 3) * 3000); // a few big ASNs
            double latency = Math.exp(rnd.nextDouble(Math.log(5), Math.log(3000)));
            String ip = rnd.nextInt(5) == 0
                    ? "2a02:" + Integer.toHexString(rnd.nextInt(4096)) + ":" + Integer.toHexString(rnd.nextInt(16))
                            + "::" + Integer.toHexString(i & 0xffff)
                    : (100 + rnd.nextInt(50)) + "." + rnd.nextInt(256) + "." + rnd.nextInt(64) + "." + rnd.nextInt(256);
            return new RankCandidate("p" + i, latency, rnd.nextInt(15), new ExitNetwork(ip, asn, "", ""));
        });
        timed("realistic, defaults (cold JIT)", in, RankPolicy.DEFAULTS);
        timed("realistic, defaults (warm)", in, RankPolicy.DEFAULTS);
        RankResult big = timed("realistic, 50k+50k pools, minScore 0", in, new RankPolicy(0, 50_000, 50_000, 0.5, 0.2));
        assertEquals(50_000, big.active().size());
    }

    @Test
    void oneCrowdedAsnWithoutThreshold() {
        SplittableRandom rnd = new SplittableRandom(7);
        List<RankCandidate> in = build(i -> new RankCandidate(
                "p" + i,
                5 + rnd.nextInt(2000),
                rnd.nextInt(11),
                new ExitNetwork("10." + (i % 100) + "." + (i / 100 % 256) + ".1", 64500, "", "")));
        timed("one ASN, defaults", in, RankPolicy.DEFAULTS);
        timed("one ASN, minScore 0", in, RankPolicy.DEFAULTS.withMinScore(0));
        timed("one ASN, minScore 0, 20k+20k pools", in, new RankPolicy(0, 20_000, 20_000, 0.5, 0.2));
    }

    /** A rotating-gateway provider: thousands of ports exiting through one /24 of one ASN. */
    @Test
    void oneCrowdedSubnetWithoutThreshold() {
        SplittableRandom rnd = new SplittableRandom(11);
        List<RankCandidate> in = build(i -> new RankCandidate(
                "p" + i,
                5 + rnd.nextInt(2000),
                rnd.nextInt(11),
                new ExitNetwork("203.0.113." + (i % 256), i % 50 == 0 ? 0 : 64500, "", "")));
        RankResult r = timed("one /24, minScore 0, 20k+20k pools", in, new RankPolicy(0, 20_000, 20_000, 0.5, 0.2));
        for (int k = 1; k < r.active().size(); k++) {
            assertTrue(r.active().get(k - 1).score() >= r.active().get(k).score());
        }
    }
}
