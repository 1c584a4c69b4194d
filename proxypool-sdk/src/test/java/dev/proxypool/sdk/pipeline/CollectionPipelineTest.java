package dev.proxypool.sdk.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.provider.FetchReport;
import dev.proxypool.sdk.provider.ProviderEnvironment;
import dev.proxypool.sdk.provider.ProviderRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CollectionPipelineTest {

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock();

    private static String line(int i, String country) {
        return "{\"host\": \"198.51.100." + i + "\", \"port\": " + (8000 + i)
                + ", \"protocol\": \"http\", \"labels\": {\"country\": \"" + country + "\"}, \"ttlSeconds\": 3600}\n";
    }

    private record Setup(CollectionPipeline pipeline, PoolEngine engine) {}

    private Setup setup(String yaml) throws IOException {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, yaml);
        ProxyPoolConfig config = ConfigLoader.load(cfg, Map.of());
        PoolEngine engine = new PoolEngine(
                config.routings(),
                config.health().policy(),
                new MemoryPoolStore(StoreSettings.DEFAULTS),
                clock,
                clock,
                1);
        ProviderEnvironment env = new ProviderEnvironment(Map.of(), dir, clock, clock);
        CollectionPipeline p = new CollectionPipeline(
                config,
                ProviderRegistry.standard(Set.of("jsonl_inventory", "text_list")),
                env,
                engine,
                ValidationStage.NONE);
        return new Setup(p, engine);
    }

    @Test
    void anInventoryIsFetchedPublishedAndServed() throws IOException {
        Files.writeString(dir.resolve("lab.jsonl"), line(1, "US") + line(2, "DE") + "{\"host\": \"\", \"port\": 1}\n");
        Setup s = setup("""
                providers: [{ name: lab, type: jsonl_inventory, path: lab.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                """);
        PipelineRound round = s.pipeline().runOnce();
        assertEquals(2, round.published());
        assertEquals(2, s.engine().snapshot().size());
        UpstreamStatus status = s.pipeline().status().get(0);
        assertInstanceOf(FetchOutcome.Success.class, status.lastOutcome().orElseThrow());
        assertEquals(
                1,
                status.lastDrops().values().stream().mapToInt(Integer::intValue).sum(),
                status.lastDrops().toString());

        // not due again until the interval passes; then the same list is DuplicateOnly
        assertEquals(0, s.pipeline().runOnce().reports().size());
        clock.advance(Duration.ofSeconds(31));
        s.pipeline().runOnce();
        assertInstanceOf(
                FetchOutcome.DuplicateOnly.class,
                s.pipeline().status().get(0).lastOutcome().orElseThrow());
    }

    @Test
    void validationAndRankingDropsAreCountedPerReasonAndTheFirstRoundIsMarked() throws IOException {
        Files.writeString(dir.resolve("lab.jsonl"), line(1, "US") + line(2, "US") + line(3, "DE") + line(4, "DE"));
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                providers: [{ name: lab, type: jsonl_inventory, path: lab.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: true }]
                pipeline: { minScore: 0, poolSize: 1, reserveSize: 0 }
                """);
        ProxyPoolConfig config = ConfigLoader.load(cfg, Map.of());
        PoolEngine engine = new PoolEngine(
                config.routings(),
                config.health().policy(),
                new MemoryPoolStore(StoreSettings.DEFAULTS),
                clock,
                clock,
                1);
        // passes the first two, says why the third failed, nothing about the fourth
        ValidationStage stage = new ValidationStage() {
            @Override
            public List<Validated> validate(List<dev.proxypool.core.model.Proxy> candidates) {
                return validate(candidates, reason -> {});
            }

            @Override
            public List<Validated> validate(
                    List<dev.proxypool.core.model.Proxy> candidates, java.util.function.Consumer<String> rejected) {
                rejected.accept("connect_timeout");
                return List.of(new Validated(candidates.get(0), 50), new Validated(candidates.get(1), 60));
            }
        };
        CollectionPipeline p = new CollectionPipeline(
                config,
                ProviderRegistry.standard(Set.of("jsonl_inventory")),
                new ProviderEnvironment(Map.of(), dir, clock, clock),
                engine,
                stage);
        assertFalse(p.firstRoundDone(), "no round yet");
        p.runOnce();
        assertTrue(p.firstRoundDone());
        UpstreamStatus st = p.status().get(0);
        // poolSize 1 leaves no room for unknown-ASN entries (floor(share x 1) = 0): the ranker drops both
        // validated ones, the case that showed "published: 0" with no drops before
        assertEquals(
                Map.of("validation_connect_timeout", 1, "validation_failed", 1, "rank_unknown_asn_share", 2),
                st.lastDrops());
        assertEquals(0, st.published());
    }

    @Test
    void withoutUpstreamsTheFirstRoundEndsAtOnce() throws IOException {
        Setup s = setup("routings: [{ name: all }]\n");
        assertFalse(s.pipeline().firstRoundDone());
        assertEquals(0, s.pipeline().runOnce().reports().size());
        assertTrue(s.pipeline().firstRoundDone(), "nothing to wait for: ready");
    }

    @Test
    void errorsBackOffAndNeverCountAsEmpty() throws IOException {
        Setup s = setup("""
                providers: [{ name: gone, type: jsonl_inventory, path: missing.jsonl }]
                upstreams: [{ name: gone, provider: gone, validate: false, fetch: { interval: 10s } }]
                """);
        s.pipeline().runOnce();
        UpstreamStatus st = s.pipeline().status().get(0);
        assertInstanceOf(FetchOutcome.Error.class, st.lastOutcome().orElseThrow());
        assertEquals(1, st.consecutiveErrors());
        assertEquals(0, st.consecutiveEmpty());
        assertEquals(20, st.backoffSeconds());
        clock.advance(Duration.ofSeconds(11));
        assertEquals(0, s.pipeline().runOnce().reports().size(), "still backing off");
        clock.advance(Duration.ofSeconds(20));
        s.pipeline().runOnce();
        assertEquals(2, s.pipeline().status().get(0).consecutiveErrors());
        assertEquals(40, s.pipeline().status().get(0).backoffSeconds());
    }

    @Test
    void threeEmptyAnswersAdvanceASequentialRoutingOnceAndOnlyTheCurrentUpstreamIsFetched() throws IOException {
        Files.writeString(dir.resolve("a.jsonl"), "");
        Files.writeString(dir.resolve("b.jsonl"), line(1, "US"));
        Setup s = setup("""
                providers:
                  - { name: a, type: jsonl_inventory, path: a.jsonl }
                  - { name: b, type: jsonl_inventory, path: b.jsonl }
                upstreams:
                  - { name: a, provider: a, validate: false, fetch: { interval: 1s } }
                  - { name: b, provider: b, validate: false, fetch: { interval: 1s } }
                routings:
                  - { name: seq, strategy: sequential, upstreams: [a, b], emptyThreshold: 3 }
                """);
        for (int i = 0; i < 3; i++) {
            PipelineRound r = s.pipeline().runOnce();
            if (i < 2) {
                assertEquals(1, r.reports().size(), "only the current upstream is fetched");
                assertEquals("a", r.reports().get(0).upstream());
            }
            clock.advance(Duration.ofSeconds(2));
        }
        assertEquals(1, s.engine().sequential().current("seq").index());
        PipelineRound r = s.pipeline().runOnce();
        assertEquals("b", r.reports().get(0).upstream());
        assertEquals(1, s.engine().snapshot().size());
        assertEquals(1, s.engine().sequential().current("seq").index(), "advanced exactly once");
    }

    @Test
    void aLowWaterMarkSkipsFetchingWhileTheUpstreamHasEnough() throws IOException {
        StringBuilder inv = new StringBuilder();
        for (int i = 1; i <= 5; i++) {
            inv.append(line(i, "US"));
        }
        Files.writeString(dir.resolve("lab.jsonl"), inv.toString());
        Setup s = setup("""
                providers: [{ name: lab, type: jsonl_inventory, path: lab.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false, fetch: { interval: 1s, lowWaterMark: 3 } }]
                """);
        assertEquals(5, s.pipeline().runOnce().published());
        clock.advance(Duration.ofSeconds(5));
        assertEquals(0, s.pipeline().runOnce().reports().size(), "5 available >= mark 3: not billed");
        assertTrue(s.pipeline().requestFetch("lab"));
        assertEquals(1, s.pipeline().runOnce().reports().size(), "fetch now overrides the schedule");
    }

    private ProxyPoolConfig config(String yaml) throws IOException {
        Path cfg = dir.resolve("next.yaml");
        Files.writeString(cfg, yaml);
        return ConfigLoader.load(cfg, Map.of());
    }

    private static List<String> reported(PipelineRound round) {
        return round.reports().stream().map(FetchReport::upstream).toList();
    }

    @Test
    void aReconfigurationAddsChangesAndRemovesUpstreamsWithoutARestart() throws IOException {
        Files.writeString(dir.resolve("a.jsonl"), line(1, "US") + line(2, "US"));
        Files.writeString(dir.resolve("b.jsonl"), line(3, "DE"));
        Files.writeString(dir.resolve("c.jsonl"), line(4, "FR") + line(5, "FR"));
        ProviderRegistry registry = ProviderRegistry.standard(Set.of("jsonl_inventory", "text_list"));
        Setup s = setup("""
                providers: [{ name: a, type: jsonl_inventory, path: a.jsonl }]
                upstreams: [{ name: a, provider: a, validate: false, fetch: { interval: 60s } }]
                """);
        assertEquals(2, s.pipeline().runOnce().published());

        // added: fetched in the next round; the unchanged upstream keeps its schedule
        ProxyPoolConfig added = config("""
                providers:
                  - { name: a, type: jsonl_inventory, path: a.jsonl }
                  - { name: b, type: jsonl_inventory, path: b.jsonl }
                upstreams:
                  - { name: a, provider: a, validate: false, fetch: { interval: 60s } }
                  - { name: b, provider: b, validate: false, fetch: { interval: 60s } }
                """);
        assertEquals(List.of(), s.pipeline().reconfigure(added.providers(), added.upstreams(), registry));
        assertEquals(List.of("a", "b"), s.pipeline().upstreamNames());
        assertEquals(List.of("b"), reported(s.pipeline().runOnce()), "only the new upstream is due");
        assertEquals(3, s.engine().snapshot().size());

        // a's provider now reads another file: a new source, due at once
        ProxyPoolConfig changed = config("""
                providers:
                  - { name: a, type: jsonl_inventory, path: c.jsonl }
                  - { name: b, type: jsonl_inventory, path: b.jsonl }
                upstreams:
                  - { name: a, provider: a, validate: false, fetch: { interval: 60s } }
                  - { name: b, provider: b, validate: false, fetch: { interval: 60s } }
                """);
        s.pipeline().reconfigure(changed.providers(), changed.upstreams(), registry);
        assertEquals(List.of("a"), reported(s.pipeline().runOnce()), "the changed upstream is fetched at once");
        assertTrue(s.engine().snapshot().proxies().stream()
                .anyMatch(p -> p.key().host().equals("198.51.100.4")));

        // removed: no longer fetched, its proxies leave the pool
        ProxyPoolConfig removed = config("""
                providers: [{ name: a, type: jsonl_inventory, path: c.jsonl }]
                upstreams: [{ name: a, provider: a, validate: false, fetch: { interval: 60s } }]
                """);
        assertEquals(List.of("b"), s.pipeline().reconfigure(removed.providers(), removed.upstreams(), registry));
        assertEquals(List.of("a"), s.pipeline().upstreamNames());
        assertEquals(
                List.of("a"),
                s.pipeline().status().stream().map(UpstreamStatus::upstream).toList());
        assertFalse(s.pipeline().requestFetch("b"));
        assertTrue(
                s.engine().snapshot().proxies().stream()
                        .noneMatch(p -> p.upstream().equals("b")),
                "b's proxy withdrawn");
        assertEquals(4, s.engine().snapshot().size(), "a's four proxies stay");

        // a source that cannot be built: nothing changes
        List<ProxyPoolConfig.Provider> unknown = List.of(new ProxyPoolConfig.Provider("a", "nope", Map.of(), Map.of()));
        ProxyPoolConfig.Upstream b = added.upstreams().get(1);
        List<ProxyPoolConfig.Upstream> withB = List.of(removed.upstreams().getFirst(), b);
        assertThrows(IllegalArgumentException.class, () -> s.pipeline().reconfigure(unknown, withB, registry));
        assertEquals(List.of("a"), s.pipeline().upstreamNames(), "all or nothing");
        clock.advance(Duration.ofSeconds(61));
        assertEquals(List.of("a"), reported(s.pipeline().runOnce()), "the previous source still fetches");
    }
}
