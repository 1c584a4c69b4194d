package dev.proxypool.sdk.pipeline;

import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.lock.StageLock;
import dev.proxypool.sdk.provider.ProviderEnvironment;
import dev.proxypool.sdk.provider.ProviderRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

/** Pipelines of "processes" sharing one store and one lease: an inventory of {@value #PROXIES} proxies, fetched every second. */
final class LeasedPipelines {

    static final int PROXIES = 5;

    private final Path dir;
    private final ManualClock clock;
    private final ProxyPoolConfig config;

    LeasedPipelines(Path dir, ManualClock clock) {
        this(dir, clock, false);
    }

    LeasedPipelines(Path dir, ManualClock clock, boolean validate) {
        this.dir = dir;
        this.clock = clock;
        try {
            StringBuilder inv = new StringBuilder();
            for (int i = 1; i <= PROXIES; i++) {
                inv.append("{\"host\": \"192.0.2.")
                        .append(i)
                        .append("\", \"port\": 3128, \"protocol\": \"http\", \"ttlSeconds\": 3600}\n");
            }
            Files.writeString(dir.resolve("lab.jsonl"), inv);
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    providers: [{ name: lab, type: jsonl_inventory, path: lab.jsonl }]
                    upstreams: [{ name: lab, provider: lab, validate: %s, fetch: { interval: 1s } }]
                    pipeline: { minScore: 0 }
                    """.formatted(validate));
            this.config = ConfigLoader.load(cfg, Map.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One process' pipeline over {@code store}, writing only while it holds {@code lease} as {@code holder}. */
    CollectionPipeline pipeline(
            PoolStore store, StageLock lease, String holder, Duration ttl, ValidationStage validation) {
        PoolEngine engine = new PoolEngine(config.routings(), config.health().policy(), store, clock, clock, 1);
        CollectionPipeline p = new CollectionPipeline(
                config,
                ProviderRegistry.standard(Set.of("jsonl_inventory")),
                new ProviderEnvironment(Map.of(), dir, clock, clock),
                engine,
                validation);
        p.useLease(lease, holder, ttl);
        return p;
    }

    CollectionPipeline pipeline(PoolStore store, StageLock lease, String holder, Duration ttl) {
        return pipeline(store, lease, holder, ttl, ValidationStage.NONE);
    }
}
