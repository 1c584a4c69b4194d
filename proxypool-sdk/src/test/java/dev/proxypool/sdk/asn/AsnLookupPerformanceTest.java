package dev.proxypool.sdk.asn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.Ticker;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * 1M lookups on a 500k-range table, best of three passes: the rate is printed, and the bounds are
 * loose (2 shared cores, other builds running) so only a gross regression, such as a linear scan,
 * fails. Typical here: ~4M/s for {@code asnOfIpv4}, ~1.3M/s for {@code lookup(String)}.
 */
@Tag("slow")
class AsnLookupPerformanceTest {

    private static final int RANGES = 500_000;
    private static final int LOOKUPS = 1_000_000;
    private static final long BASE = 1L << 24; // 1.0.0.0
    private static final long STRIDE = 8_000; // a range of 4000 addresses, then a gap of 4000
    private static final long SIZE = 4_000;

    private static long expectedAsn(long ip) {
        long off = ip - BASE;
        if (off < 0 || off >= RANGES * STRIDE || off % STRIDE >= SIZE || IpAddresses.isSpecialV4((int) ip)) {
            return 0;
        }
        return 1 + (off / STRIDE) % 400_000;
    }

    @Test
    void aMillionLookupsOnHalfAMillionRanges() throws AsnFormatException {
        StringBuilder csv = new StringBuilder(RANGES * 48);
        for (int i = 0; i < RANGES; i++) {
            long start = BASE + i * STRIDE;
            csv.append(IpAddresses.v4Text((int) start))
                    .append(',')
                    .append(IpAddresses.v4Text((int) (start + SIZE - 1)))
                    .append(',')
                    .append(1 + i % 400_000)
                    .append(",ORG-")
                    .append(i % 80_000)
                    .append('\n');
        }
        byte[] bytes = csv.toString().getBytes(StandardCharsets.UTF_8);
        Ticker ticker = Ticker.system();
        long t0 = ticker.read();
        AsnDatabase db = AsnCsvParser.parse(bytes);
        long loadNanos = ticker.read() - t0;
        assertEquals(RANGES, db.ipv4Ranges());

        SplittableRandom random = new SplittableRandom(42);
        int[] ips = new int[LOOKUPS];
        String[] texts = new String[LOOKUPS];
        for (int i = 0; i < LOOKUPS; i++) {
            ips[i] = (int) (BASE + random.nextLong(RANGES * STRIDE));
            texts[i] = IpAddresses.v4Text(ips[i]);
        }
        for (int i = 0; i < 10_000; i++) {
            assertEquals(expectedAsn(Integer.toUnsignedLong(ips[i])), db.asnOfIpv4(ips[i]), texts[i]);
            assertEquals(
                    expectedAsn(Integer.toUnsignedLong(ips[i])),
                    db.lookup(texts[i]).asn(),
                    texts[i]);
        }

        // best of three passes: the first one also pays for JIT compilation, and the cores are shared
        long hits = 0;
        long full = 0;
        long primitiveNanos = Long.MAX_VALUE;
        long fullNanos = Long.MAX_VALUE;
        for (int pass = 0; pass < 3; pass++) {
            hits = 0;
            t0 = ticker.read();
            for (int ip : ips) {
                hits += db.asnOfIpv4(ip) != 0 ? 1 : 0;
            }
            primitiveNanos = Math.min(primitiveNanos, ticker.read() - t0);
            full = 0;
            t0 = ticker.read();
            for (String text : texts) {
                full += db.lookup(text).asn() != 0 ? 1 : 0;
            }
            fullNanos = Math.min(fullNanos, ticker.read() - t0);
        }

        double primitiveRate = LOOKUPS / (primitiveNanos / 1e9);
        double fullRate = LOOKUPS / (fullNanos / 1e9);
        System.out.printf(
                "ASN table: %d ranges (%.1f MB CSV) parsed in %d ms%n",
                RANGES, bytes.length / 1e6, loadNanos / 1_000_000);
        System.out.printf(
                "asnOfIpv4(int): %d lookups in %d ms = %.2f M/s (%d hits)%n",
                LOOKUPS, primitiveNanos / 1_000_000, primitiveRate / 1e6, hits);
        System.out.printf(
                "lookup(String) -> ExitNetwork: %d lookups in %d ms = %.2f M/s%n",
                LOOKUPS, fullNanos / 1_000_000, fullRate / 1e6);
        assertEquals(hits, full);
        // a linear scan of 500k ranges would manage a few thousand a second
        assertTrue(primitiveRate > 200_000, "binary search should manage well over 200k/s, got " + primitiveRate);
        assertTrue(fullRate > 50_000, "parse + search + result should manage over 50k/s, got " + fullRate);
        assertTrue(loadNanos < 20_000_000_000L, "500k ranges should load in well under 20 s");
    }
}
