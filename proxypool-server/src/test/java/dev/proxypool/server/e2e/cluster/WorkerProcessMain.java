package dev.proxypool.server.e2e.cluster;

import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.coordination.ReceivedSnapshot;
import dev.proxypool.sdk.coordination.SubscriberStatus;
import dev.proxypool.sdk.coordination.WorkerRole;
import dev.proxypool.sdk.coordination.WorkerShare;
import dev.proxypool.sdk.engine.AcquireRequest;
import dev.proxypool.sdk.engine.AcquireResult;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * A gateway-worker process for {@link ClusterProcessesTest}: an engine fed by {@link WorkerRole}.
 * Prints {@code applied <version> <size>} for each version that reaches the engine; stdin commands
 * {@code acquire} (prints {@code lease <proxyId>} or {@code none <reason>}) and {@code status}.
 * Args: redis port, key prefix, worker id.
 */
public final class WorkerProcessMain {

    private WorkerProcessMain() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String prefix = args[1];
        String id = args[2];
        RedisStoreConfig d = RedisStoreConfig.DEFAULTS;
        RedisStoreConfig redis =
                new RedisStoreConfig("127.0.0.1", port, "", "", 0, prefix, d.connectTimeout(), d.socketTimeout(), 4);
        ClusterSettings settings = ClusterSettings.builder()
                .pollInterval(Duration.ofMillis(500))
                .backoffMin(Duration.ofMillis(50))
                .backoffMax(Duration.ofMillis(500))
                .build();
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        try (MemoryPoolStore unused = new MemoryPoolStore()) {
            PoolEngine engine =
                    new PoolEngine(List.of(), HealthPolicy.DEFAULTS, unused, Clocks.monotonic(), Clocks.wall(), 2);
            try (WorkerRole worker = WorkerRole.start(
                    redis,
                    settings,
                    engine,
                    new WorkerShare.Fixed(),
                    id,
                    "127.0.0.1",
                    Clocks.wall(),
                    Clocks.monotonic())) {
                Thread.ofVirtual().start(() -> report(worker, out));
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                RoutingRule rule = engine.routing(PoolEngine.DEFAULT_ROUTING).orElseThrow();
                for (String line; (line = in.readLine()) != null; ) {
                    switch (line.trim()) {
                        case "acquire" -> {
                            AcquireResult r = engine.acquire(rule, AcquireRequest.forHost("example.com"));
                            if (r instanceof AcquireResult.Acquired a) {
                                try (var lease = a.lease()) {
                                    out.println("lease " + lease.proxy().id() + " limit "
                                            + engine.runtime(lease.proxy().id())
                                                    .orElseThrow()
                                                    .capacity()
                                                    .limit());
                                }
                            } else {
                                out.println("none " + r);
                            }
                        }
                        case "status" -> {
                            SubscriberStatus s = worker.status();
                            out.println("status version=" + s.version() + " proxies=" + s.proxies() + " engine="
                                    + engine.snapshot().size() + " within=" + s.withinValidity() + " reachable="
                                    + s.storeReachable() + " subscribed=" + s.subscribed());
                        }
                        case "quit" -> {
                            return;
                        }
                        default -> out.println("unknown " + line);
                    }
                }
            }
        }
    }

    /** Prints each version as soon as the engine holds it (woken by the subscriber, no polling). */
    private static void report(WorkerRole worker, PrintStream out) {
        long seen = 0;
        try {
            while (true) {
                if (worker.subscriber().awaitVersion(seen + 1, Duration.ofSeconds(1))) {
                    ReceivedSnapshot s = worker.subscriber().current().orElseThrow();
                    seen = s.version();
                    out.println("applied " + s.version() + " " + s.proxies().size());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
