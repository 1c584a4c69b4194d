package dev.proxypool.benchmarks;

import dev.proxypool.core.health.Admission;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A realistic synthetic pool for the benchmarks, deterministic for a seed. Labels (share of the
 * pool): country from 20 values (US 20%, the other 19 share the rest), type residential 50% /
 * datacenter 35% / mobile 15%, carrier from 8, region from 50, city from 200, asn from 1,000,
 * tier standard 85%, ipv 4 90%, rotation sticky 70%, level elite 80%. Protocols http 60%,
 * socks5 25%, https 10%, socks4 5%; four upstreams; 30% never expire, the rest 10 min-2 h;
 * max concurrency 10; weights 1-10.
 */
final class BenchPool {

    static final List<String> UPSTREAMS = List.of("vendor-a", "vendor-b", "vendor-c", "vendor-d");
    static final String[] COUNTRIES = {
        "US", "DE", "GB", "FR", "JP", "BR", "IN", "CA", "AU", "NL", "ES", "IT", "PL", "SE", "KR", "MX", "TR", "ID",
        "SG", "ZA"
    };

    private BenchPool() {}

    static List<Proxy> proxies(int n, Instant now, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Proxy> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int p = r.nextInt(100);
            Protocol protocol =
                    p < 60 ? Protocol.HTTP : p < 85 ? Protocol.SOCKS5 : p < 95 ? Protocol.HTTPS : Protocol.SOCKS4;
            int t = r.nextInt(100);
            Map<String, String> labels = new TreeMap<>();
            labels.put("country", r.nextInt(100) < 20 ? "US" : COUNTRIES[1 + r.nextInt(19)]);
            labels.put("type", t < 50 ? "residential" : t < 85 ? "datacenter" : "mobile");
            labels.put("carrier", "carrier-" + r.nextInt(8));
            labels.put("region", "region-" + r.nextInt(50));
            labels.put("city", "city-" + r.nextInt(200));
            labels.put("asn", "AS" + (64_000 + r.nextInt(1000)));
            labels.put("tier", r.nextInt(100) < 85 ? "standard" : "premium");
            labels.put("ipv", r.nextInt(100) < 90 ? "4" : "6");
            labels.put("rotation", r.nextInt(100) < 70 ? "sticky" : "rotating");
            labels.put("level", r.nextInt(100) < 80 ? "elite" : "anonymous");
            Proxy.Builder b = Proxy.builder(new ProxyKey(
                            protocol,
                            "10." + (i >>> 16 & 255) + "." + (i >>> 8 & 255) + "." + (i & 255),
                            8000 + r.nextInt(1000),
                            CredentialRef.NONE))
                    .id("p-" + Integer.toString(i, 36) + "-" + Long.toString(r.nextLong() & 0xFFFFFFFFL, 36))
                    .provider("bench")
                    .upstream(UPSTREAMS.get(r.nextInt(UPSTREAMS.size())))
                    .labels(Labels.of(labels))
                    .maxConcurrency(10)
                    .weight(1 + r.nextInt(10));
            if (r.nextInt(100) >= 30) {
                b.expiresAt(now.plus(Duration.ofSeconds(600 + r.nextInt(6600))));
            }
            out.add(b.build());
        }
        return out;
    }

    /** 0, 2 or 6 labels; each still matches a decent share (100%, ~10%, ~4%). */
    static LabelSelector selector(int labels) {
        return switch (labels) {
            case 0 -> LabelSelector.ANY;
            case 2 -> LabelSelector.parse("country=US,type=residential");
            case 6 ->
                LabelSelector.parse("country=US,type=residential,tier=standard,ipv=4,rotation=sticky,level=elite");
            default -> throw new IllegalArgumentException("filterLabels must be 0, 2 or 6, got " + labels);
        };
    }

    /** Gives 90% of the proxies a latency EWMA between 20 and 500 ms (the rest stay unknown). */
    static void measureLatencies(PoolSnapshot s, long now, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int slot = 0; slot < s.size(); slot++) {
            if (r.nextInt(10) != 0) {
                s.runtime(slot).health().recordSuccess(Admission.ADMITTED, (20 + r.nextInt(480)) * 1_000_000L, now);
            }
        }
    }
}
