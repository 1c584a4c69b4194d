package dev.proxypool.sdk.coordination;

import dev.proxypool.core.model.Anonymity;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Realistic pools for the cluster tests: unique addresses, few upstreams, repeating labels. */
final class Proxies {

    static final Instant BASE = Instant.parse("2026-11-30T12:00:00Z");
    private static final String[] COUNTRIES = {"US", "DE", "FR", "GB", "JP", "BR", "IN", "NL"};
    private static final Protocol[] PROTOCOLS = Protocol.values();

    private Proxies() {}

    /** {@code n} proxies, deterministic for a seed; ids are {@code p-<seed>-<i>}. */
    static List<Proxy> pool(int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Proxy> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(proxy(i, seed, rnd));
        }
        return out;
    }

    static Proxy proxy(int i, long seed, SplittableRandom rnd) {
        String host =
                (10 + (i >>> 16) % 200) + "." + ((i >>> 8) & 0xFF) + "." + (i & 0xFF) + "." + (1 + (int) (seed & 0x7F));
        Protocol protocol = PROTOCOLS[rnd.nextInt(PROTOCOLS.length)];
        CredentialRef cred = rnd.nextInt(3) == 0 ? CredentialRef.NONE : CredentialRef.of("vendor-" + rnd.nextInt(4));
        int upstream = rnd.nextInt(8);
        Proxy.Builder b = Proxy.builder(new ProxyKey(protocol, host, 1024 + rnd.nextInt(60000), cred))
                .id("p-" + seed + "-" + i)
                .provider("provider-" + (upstream / 2))
                .upstream("upstream-" + upstream)
                .labels(Labels.of(
                        "country",
                        COUNTRIES[rnd.nextInt(COUNTRIES.length)],
                        "type",
                        rnd.nextBoolean() ? "residential" : "datacenter"))
                .maxConcurrency(1 + rnd.nextInt(20))
                .weight(1 + rnd.nextInt(5));
        if (rnd.nextInt(4) != 0) {
            b.expiresAt(BASE.plusSeconds(300 + rnd.nextInt(3600)));
        }
        if (rnd.nextBoolean()) {
            int asn = 64_500 + rnd.nextInt(20);
            b.exitNetwork(new ExitNetwork(
                            "198.51." + rnd.nextInt(256) + "." + rnd.nextInt(256), asn, "Org " + asn, "198.51.0.0/16"))
                    .anonymity(rnd.nextBoolean() ? Anonymity.ELITE : Anonymity.ANONYMOUS);
        }
        return b.build();
    }
}
