package dev.proxypool.server.e2e.cluster;

import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.coordination.ControlRole;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A control-plane process for {@link ClusterProcessesTest}: an engine over an in-memory store,
 * published through {@link ControlRole}. Reads commands on stdin:
 * {@code change N} changes N proxies' weights, refreshes the engine and publishes; prints
 * {@code published <version>}. Args: redis port, key prefix, pool size.
 */
public final class ControlProcessMain {

    private ControlProcessMain() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String prefix = args[1];
        int size = Integer.parseInt(args[2]);
        RedisStoreConfig redis = RedisStoreConfig.DEFAULTS.withKeyPrefix(prefix);
        redis = new RedisStoreConfig(
                "127.0.0.1", port, "", "", 0, prefix, redis.connectTimeout(), redis.socketTimeout(), 4);
        ClusterSettings settings = ClusterSettings.builder()
                .pollInterval(Duration.ofMillis(500))
                .backoffMin(Duration.ofMillis(50))
                .backoffMax(Duration.ofMillis(500))
                .build();
        List<Proxy> pool = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            pool.add(Proxy.builder(new ProxyKey(
                            Protocol.HTTP,
                            "10." + (i >>> 16 & 0xFF) + "." + (i >>> 8 & 0xFF) + "." + (i & 0xFF),
                            8000,
                            CredentialRef.of("vendor-a")))
                    .id("p-" + i)
                    .upstream("up-" + (i % 4))
                    .provider("lab")
                    .labels(Labels.of("country", i % 2 == 0 ? "US" : "DE"))
                    .maxConcurrency(10)
                    .build());
        }
        try (MemoryPoolStore store = new MemoryPoolStore()) {
            PoolEngine engine =
                    new PoolEngine(List.of(), HealthPolicy.DEFAULTS, store, Clocks.monotonic(), Clocks.wall(), 1);
            store.upsert(pool, Clocks.wall().instant());
            engine.refresh();
            try (ControlRole control = ControlRole.start(
                    redis, settings, engine, Duration.ofMillis(200), Clocks.wall(), Clocks.monotonic())) {
                System.out.println("ready " + control.publisher().version());
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                int turn = 0;
                for (String line; (line = in.readLine()) != null; ) {
                    String[] cmd = line.trim().split(" ");
                    if (cmd[0].equals("change")) {
                        int n = Integer.parseInt(cmd[1]);
                        List<Proxy> changed = new ArrayList<>(n);
                        for (int k = 0; k < n; k++) {
                            Proxy p = pool.get((turn * 7919 + k) % pool.size());
                            Proxy q = p.toBuilder().weight(p.weight() % 50 + 1).build();
                            pool.set((turn * 7919 + k) % pool.size(), q);
                            changed.add(q);
                        }
                        turn++;
                        store.upsert(changed, Clocks.wall().instant());
                        engine.refresh();
                        control.publishIfChanged();
                        System.out.println("published " + control.publisher().version());
                    } else if (cmd[0].equals("quit")) {
                        break;
                    }
                }
            }
        }
    }
}
