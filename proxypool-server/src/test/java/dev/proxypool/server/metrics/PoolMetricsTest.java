package dev.proxypool.server.metrics;

import static dev.proxypool.server.metrics.Scrape.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.Selection;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.testkit.Await;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Tag;
import io.helidon.service.registry.Services;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bound to a seeded pool, a real scrape of {@code /observe/metrics} shows the pool as it is, by upstream and state only. */
class PoolMetricsTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private final ManualClock clock = new ManualClock(START);
    private final MeterRegistry registry = Services.get(MeterRegistry.class);

    @TempDir
    Path dir;

    private static List<Proxy> proxies(String upstream, int subnet, int count) {
        List<Proxy> out = new ArrayList<>();
        for (int i = 1; i <= count; i++) {
            out.add(Proxy.builder(new ProxyKey(Protocol.HTTP, "10.77." + subnet + "." + i, 8000, CredentialRef.NONE))
                    .provider("test")
                    .upstream(upstream)
                    .maxConcurrency(10)
                    .expiresAt(START.plus(Duration.ofHours(1)))
                    .build());
        }
        return out;
    }

    @Test
    void aScrapeShowsPoolSizeHealthCapacityAndSnapshotOfASeededPool() throws Exception {
        List<Proxy> a = proxies("a", 1, 6);
        List<Proxy> b = proxies("b", 2, 4);
        List<Proxy> all = new ArrayList<>(a);
        all.addAll(b);
        try (ProxyPool pool = ProxyPool.builder()
                        .clocks(clock, clock)
                        .background(false)
                        .proxies(all)
                        .build();
                Scrape scrape = new Scrape()) {
            var engine = EmbeddedProxyPool.engineOf(pool);
            EmbeddedProxyPool.engineOf(pool)
                    .store()
                    .setDisabled(b.get(0).id(), true); // store: b = 3 available + 1 disabled
            engine.refresh();
            long now = clock.read();
            engine.runtime(a.get(0).id()).orElseThrow().health().disable("maintenance window", now);
            ProxyHealth cooling = engine.runtime(a.get(1).id()).orElseThrow().health();
            for (int i = 0; i < HealthPolicy.DEFAULTS.consecutiveFailures(); i++) {
                cooling.recordFailure(Admission.ADMITTED, FailureKind.CONNECT_TIMEOUT, now);
            }
            assertEquals(HealthState.COOLING, cooling.state());
            clock.advance(Duration.ofSeconds(5));

            try (PoolMetrics metrics =
                            PoolMetrics.bind(engine, EmbeddedProxyPool.pipelineOf(pool), registry, Duration.ZERO);
                    Lease lease = pool.acquire(Selection.forHost("shop.example"))) {
                Map<String, Double> m = scrape.samples();
                assertEquals(Optional.of(6.0), value(m, "proxypool_pool_size", "state", "available", "upstream", "a"));
                assertEquals(Optional.of(0.0), value(m, "proxypool_pool_size", "state", "disabled", "upstream", "a"));
                assertEquals(Optional.of(3.0), value(m, "proxypool_pool_size", "state", "available", "upstream", "b"));
                assertEquals(Optional.of(1.0), value(m, "proxypool_pool_size", "state", "disabled", "upstream", "b"));
                assertEquals(Optional.of(4.0), value(m, "proxypool_pool_health", "state", "healthy", "upstream", "a"));
                assertEquals(Optional.of(1.0), value(m, "proxypool_pool_health", "state", "cooling", "upstream", "a"));
                assertEquals(Optional.of(1.0), value(m, "proxypool_pool_health", "state", "disabled", "upstream", "a"));
                assertEquals(
                        Optional.of(0.0), value(m, "proxypool_pool_health", "state", "probe_allowed", "upstream", "a"));
                assertEquals(Optional.of(3.0), value(m, "proxypool_pool_health", "state", "healthy", "upstream", "b"));
                assertEquals(Optional.of(1.0), value(m, "proxypool_pool_capacity_inuse"), "the open lease");
                assertEquals(Optional.of(90.0), value(m, "proxypool_pool_capacity_limit"), "9 proxies x 10");
                assertEquals(Optional.of((double) engine.snapshot().version()), value(m, "proxypool_snapshot_version"));
                assertEquals(Optional.of(5.0), value(m, "proxypool_snapshot_age_seconds"));
                assertEquals(Optional.of(1.0), value(m, "proxypool_store_up"));
                for (String sample : m.keySet()) {
                    if (sample.startsWith("proxypool_pool") || sample.startsWith("proxypool_snapshot")) {
                        assertFalse(
                                sample.contains("10.77.")
                                        || sample.contains(a.get(0).id()),
                                "high-cardinality label: " + sample);
                    }
                }

                lease.close();
                engine.refresh();
                clock.advance(Duration.ofSeconds(1));
                m = scrape.samples();
                assertEquals(Optional.of(0.0), value(m, "proxypool_pool_capacity_inuse"), "released");
                assertEquals(Optional.of(1.0), value(m, "proxypool_snapshot_age_seconds"), "a new snapshot");
            }
            assertTrue(
                    registry.gauge(
                                    "proxypool.pool.size",
                                    List.of(Tag.create("upstream", "a"), Tag.create("state", "available")))
                            .isEmpty(),
                    "close removes the meters");
        }
    }

    @Test
    void anUpstreamThatAppearsAfterBindingGetsItsGaugesWithoutAScrapeRegisteringInsideItself() throws Exception {
        try (ProxyPool pool = ProxyPool.builder()
                        .clocks(clock, clock)
                        .background(false)
                        .proxies(proxies("a", 3, 2))
                        .build();
                Scrape scrape = new Scrape();
                PoolMetrics metrics = PoolMetrics.bind(
                        EmbeddedProxyPool.engineOf(pool),
                        EmbeddedProxyPool.pipelineOf(pool),
                        registry,
                        Duration.ZERO)) {
            pool.addProxies(proxies("late", 4, 3));
            scrape.samples(); // the census sees "late" and registers its gauges beside the scrape
            Optional<Double> late = Await.atMost(Duration.ofSeconds(5))
                    .until(
                            "the gauge of upstream late in a scrape",
                            () -> value(
                                    scrape.samples(), "proxypool_pool_size", "state", "available", "upstream", "late"),
                            Optional::isPresent);
            assertEquals(Optional.of(3.0), late);
        }
    }

    @Test
    void fetchOutcomesAndRoundsAreCountedByUpstreamAndOutcome() throws Exception {
        Files.writeString(dir.resolve("lab.jsonl"), """
                {"host": "192.0.2.1", "port": 3128, "protocol": "http", "ttlSeconds": 3600}
                {"host": "192.0.2.2", "port": 3128, "protocol": "http", "ttlSeconds": 3600}
                """);
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                providers:
                  - { name: lab, type: jsonl_inventory, path: %s }
                  - { name: gone, type: jsonl_inventory, path: %s }
                upstreams:
                  - { name: lab, provider: lab, validate: false }
                  - { name: gone, provider: gone, validate: false }
                """.formatted(dir.resolve("lab.jsonl"), dir.resolve("missing.jsonl")));
        ProxyPoolConfig config = ConfigLoader.load(cfg, Map.of());
        try (ProxyPool pool = ProxyPool.builder()
                        .config(config)
                        .clocks(clock, clock)
                        .background(false)
                        .deferStart(true)
                        .build();
                Scrape scrape = new Scrape();
                PoolMetrics metrics = PoolMetrics.bind(pool, registry)) {
            Map<String, Double> before = scrape.samples();
            assertEquals(
                    Optional.of(0.0),
                    value(before, "proxypool_pipeline_fetches_total", "outcome", "success", "upstream", "lab"),
                    "configured upstreams have their counters from the start");
            pool.start(); // the first round
            clock.advance(PoolMetrics.DEFAULT_MAX_AGE); // the census of the first scrape is stale now
            Map<String, Double> m = scrape.samples();
            assertEquals(
                    Optional.of(1.0),
                    value(m, "proxypool_pipeline_fetches_total", "outcome", "success", "upstream", "lab"));
            assertEquals(
                    Optional.of(1.0),
                    value(m, "proxypool_pipeline_fetches_total", "outcome", "error", "upstream", "gone"));
            assertEquals(
                    Optional.of(1.0),
                    value(m, "proxypool_pipeline_fetch_errors_total", "kind", "network", "upstream", "gone"));
            assertEquals(Optional.of(1.0), value(m, "proxypool_pipeline_rounds_total", "role", "writer"));
            assertEquals(Optional.of(1.0), value(m, "proxypool_pipeline_writer"));
            assertEquals(Optional.of(2.0), value(m, "proxypool_pool_size", "state", "available", "upstream", "lab"));
        }
    }

    @Test
    void healthTransitionsAreCountedByStateReasonAndStageNeverByProxyOrOperatorText() throws Exception {
        try (ProxyPool pool = ProxyPool.builder()
                        .clocks(clock, clock)
                        .background(false)
                        .build();
                Scrape scrape = new Scrape();
                PoolMetrics metrics = PoolMetrics.bind(pool, registry)) {
            ProxyHealth h = new ProxyHealth(HealthPolicy.DEFAULTS, clock.read(), metrics.healthListener());
            for (int i = 0; i < HealthPolicy.DEFAULTS.consecutiveFailures(); i++) {
                h.recordFailure(h.tryAdmit(clock.read()), FailureKind.CONNECT_TIMEOUT, clock.read());
            }
            h.disable("ticket OPS-1234 by bob", clock.read());
            h.enable("ticket OPS-1234 closed", clock.read());
            Map<String, Double> m = scrape.samples();
            assertEquals(
                    Optional.of(1.0),
                    value(
                            m,
                            "proxypool_health_transitions_total",
                            "reason",
                            "connect_timeout",
                            "stage",
                            "passive",
                            "state",
                            "cooling"));
            assertEquals(
                    Optional.of(1.0),
                    value(
                            m,
                            "proxypool_health_transitions_total",
                            "reason",
                            "operator",
                            "stage",
                            "operator",
                            "state",
                            "disabled"));
            assertEquals(
                    Optional.of(1.0),
                    value(
                            m,
                            "proxypool_health_transitions_total",
                            "reason",
                            "operator_enabled",
                            "stage",
                            "operator",
                            "state",
                            "cooling"));
            for (String sample : m.keySet()) {
                assertFalse(sample.contains("OPS-1234"), "operator text in a label: " + sample);
            }
        }
    }
}
