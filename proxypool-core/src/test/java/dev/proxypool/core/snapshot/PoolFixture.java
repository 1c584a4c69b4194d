package dev.proxypool.core.snapshot;

import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.runtime.ProxyRuntime;
import dev.proxypool.core.runtime.RuntimeRegistry;
import dev.proxypool.core.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Random;

/** A manual clock, a runtime registry and a snapshot builder wired together, plus proxy factories. */
public final class PoolFixture {

    public static final List<String> COUNTRIES = List.of("US", "DE", "GB", "FR", "JP");
    public static final List<String> TYPES = List.of("residential", "datacenter", "mobile");
    public static final List<String> UPSTREAMS = List.of("up-a", "up-b", "up-c");

    public final ManualClock clock = new ManualClock();
    public final RuntimeRegistry registry = new RuntimeRegistry(HealthPolicy.DEFAULTS, clock);
    public final SnapshotBuilder builder = new SnapshotBuilder(registry, clock, clock);

    public PoolSnapshot build(Collection<Proxy> proxies) {
        return builder.build(proxies);
    }

    public PoolSnapshot build(Proxy... proxies) {
        return builder.build(List.of(proxies));
    }

    public long now() {
        return clock.read();
    }

    public ProxyRuntime runtime(String id) {
        return registry.find(id);
    }

    /** A proxy builder with id {@code id}, a unique address, upstream up-a, http, limit 10, weight 1. */
    public static Proxy.Builder proxy(String id) {
        int h = Math.floorMod(id.hashCode(), 250 * 250);
        ProxyKey key = new ProxyKey(
                Protocol.HTTP,
                "10.0." + (h / 250) + "." + (h % 250 + 1),
                1024 + Math.floorMod(id.hashCode() * 31, 60000),
                CredentialRef.NONE);
        return Proxy.builder(key).id(id).upstream("up-a");
    }

    /** {@code n} proxies {@code prefix0..prefix(n-1)} with default settings. */
    public static List<Proxy> proxies(String prefix, int n) {
        List<Proxy> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(proxy(prefix + i).build());
        }
        return out;
    }

    /**
     * A random pool: upstreams, protocols, country/type/tier labels, a mix of no expiry and
     * expiries between 10 s and 10 min from now, limits 1-3, weights 1-5.
     */
    public List<Proxy> randomPool(Random random, int n) {
        List<Proxy> out = new ArrayList<>(n);
        Protocol[] protocols = Protocol.values();
        for (int i = 0; i < n; i++) {
            Proxy.Builder b = Proxy.builder(new ProxyKey(
                            protocols[random.nextInt(protocols.length)],
                            "10.1." + (i / 250) + "." + (i % 250 + 1),
                            8000,
                            CredentialRef.NONE))
                    .id("r" + i)
                    .upstream(UPSTREAMS.get(random.nextInt(UPSTREAMS.size())))
                    .labels(Labels.of(
                            "country",
                            COUNTRIES.get(random.nextInt(COUNTRIES.size())),
                            "type",
                            TYPES.get(random.nextInt(TYPES.size())),
                            "tier",
                            random.nextInt(4) == 0 ? "premium" : "standard",
                            "ipv",
                            random.nextInt(10) == 0 ? "6" : "4",
                            "rotation",
                            random.nextBoolean() ? "sticky" : "rotating",
                            "level",
                            random.nextInt(5) == 0 ? "anonymous" : "elite"))
                    .maxConcurrency(1 + random.nextInt(3))
                    .weight(1 + random.nextInt(5));
            if (random.nextInt(3) != 0) {
                b.expiresAt(clock.instant().plus(Duration.ofSeconds(10 + random.nextInt(600))));
            }
            out.add(b.build());
        }
        return out;
    }
}
