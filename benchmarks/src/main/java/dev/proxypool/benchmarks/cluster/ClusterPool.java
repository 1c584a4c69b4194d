package dev.proxypool.benchmarks.cluster;

import dev.proxypool.core.model.Anonymity;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A realistic pool for the snapshot distribution benchmark, deterministic for a seed: opaque
 * 18-character ids, unique IPv4 addresses, four upstreams and providers, three credential refs,
 * seven labels (country of 20, type, carrier of 8, region of 50, city of 200, tier, rotation),
 * validated exit networks (exit IP, ASN of 1,000, organization, /24 prefix) for 70%, 30% never
 * expiring and the rest 10 min - 2 h.
 */
final class ClusterPool {

    private static final String[] COUNTRIES = {
        "US", "DE", "GB", "FR", "JP", "BR", "IN", "CA", "AU", "NL", "ES", "IT", "PL", "SE", "KR", "MX", "TR", "ID",
        "SG", "ZA"
    };
    private static final String BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

    private ClusterPool() {}

    static List<Proxy> proxies(int n, Instant now, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Proxy> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(proxy(i, now, r));
        }
        return out;
    }

    static Proxy proxy(int i, Instant now, SplittableRandom r) {
        int p = r.nextInt(100);
        Protocol protocol =
                p < 60 ? Protocol.HTTP : p < 85 ? Protocol.SOCKS5 : p < 95 ? Protocol.HTTPS : Protocol.SOCKS4;
        int u = r.nextInt(4);
        Map<String, String> labels = new TreeMap<>();
        labels.put("country", r.nextInt(100) < 20 ? "US" : COUNTRIES[1 + r.nextInt(19)]);
        int t = r.nextInt(100);
        labels.put("type", t < 50 ? "residential" : t < 85 ? "datacenter" : "mobile");
        labels.put("carrier", "carrier-" + r.nextInt(8));
        labels.put("region", "region-" + r.nextInt(50));
        labels.put("city", "city-" + r.nextInt(200));
        labels.put("tier", r.nextInt(100) < 85 ? "standard" : "premium");
        labels.put("rotation", r.nextInt(100) < 70 ? "sticky" : "rotating");
        StringBuilder id = new StringBuilder("p-");
        for (int k = 0; k < 16; k++) {
            id.append(BASE32.charAt(r.nextInt(32)));
        }
        Proxy.Builder b = Proxy.builder(new ProxyKey(
                        protocol,
                        (11 + (i >>> 24 & 63)) + "." + (i >>> 16 & 255) + "." + (i >>> 8 & 255) + "." + (i & 255),
                        8000 + r.nextInt(1000),
                        CredentialRef.of("vendor-" + (char) ('a' + r.nextInt(3)))))
                .id(id.toString())
                .provider("provider-" + u)
                .upstream("upstream-" + u)
                .labels(Labels.of(labels))
                .maxConcurrency(10)
                .weight(1 + r.nextInt(10));
        if (r.nextInt(100) >= 30) {
            b.expiresAt(now.plus(Duration.ofSeconds(600 + r.nextInt(6600))));
        }
        if (r.nextInt(100) < 70) {
            int asn = 64_000 + r.nextInt(1000);
            int a = r.nextInt(223) + 1;
            int c = r.nextInt(256);
            b.exitNetwork(new ExitNetwork(
                            a + "." + c + "." + r.nextInt(256) + "." + r.nextInt(256),
                            asn,
                            "AS" + asn + " Org",
                            a + "." + c + ".0.0/16"))
                    .anonymity(r.nextInt(100) < 80 ? Anonymity.ELITE : Anonymity.ANONYMOUS);
        }
        return b.build();
    }
}
