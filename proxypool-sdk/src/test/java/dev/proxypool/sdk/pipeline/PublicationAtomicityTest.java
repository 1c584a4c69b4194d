package dev.proxypool.sdk.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.ProxyState;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.provider.ProviderEnvironment;
import dev.proxypool.sdk.provider.ProviderRegistry;
import dev.proxypool.sdk.redis.RedisPoolStore;
import dev.proxypool.testkit.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design.md#collection-pipeline (P11): readers see the old complete snapshot or the new one, never a partial one. A writer
 * replaces the pool generation by generation (N proxies labelled {@code gen=k}, publishing gen k
 * and removing gen k-1) while readers poll the engine's snapshot and another thread keeps calling
 * {@code refresh()} as an application's {@code addProxies} or an admin action would: every snapshot
 * a reader sees is exactly one complete generation.
 */
@Tag("slow")
class PublicationAtomicityTest {

    private static final int GENERATIONS = 1_000;
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    private final ManualClock clock = new ManualClock(START);

    @TempDir
    Path dir;

    private static List<Proxy> generation(int k, int n) {
        List<Proxy> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            // the port differs per generation: gen k and gen k-1 are distinct physical proxies
            out.add(Proxy.builder(new ProxyKey(Protocol.HTTP, "198.51.100." + (i + 1), 10_000 + k, CredentialRef.NONE))
                    .provider("gen")
                    .upstream("gen")
                    .labels(Labels.of("gen", Integer.toString(k)))
                    .expiresAt(START.plus(Duration.ofHours(1)))
                    .build());
        }
        return out;
    }

    private static Set<String> ids(List<Proxy> proxies) {
        Set<String> ids = new HashSet<>();
        proxies.forEach(p -> ids.add(p.id()));
        return ids;
    }

    private PoolEngine engine(PoolStore store) {
        return new PoolEngine(List.of(), HealthPolicy.DEFAULTS, store, clock, clock, 1);
    }

    /** Null when {@code s} is one complete generation of {@code n}, else what is wrong with it. */
    private static String problem(PoolSnapshot s, int n) {
        if (s.size() != n) {
            return "snapshot v" + s.version() + " has " + s.size() + " proxies, not " + n;
        }
        String gen = s.proxy(0).labels().get("gen");
        for (int slot = 1; slot < s.size(); slot++) {
            String g = s.proxy(slot).labels().get("gen");
            if (!gen.equals(g)) {
                return "snapshot v" + s.version() + " mixes gen " + gen + " and gen " + g;
            }
        }
        return null;
    }

    private record Run(int generationsSeen, long refreshes) {}

    private Run replaceGenerations(PoolEngine engine, int n) throws InterruptedException {
        PoolPublisher publisher = new PoolPublisher(engine, clock);
        List<Proxy> previous = generation(0, n);
        publisher.publish(Publication.builder().publish("gen", previous).build());
        AtomicBoolean done = new AtomicBoolean();
        Queue<String> problems = new ConcurrentLinkedQueue<>();
        Set<String> generationsSeen = Collections.synchronizedSet(new HashSet<>());
        AtomicLong refreshes = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            threads.add(Thread.ofPlatform().name("reader-" + r).start(() -> {
                long last = -1;
                while (!done.get()) {
                    PoolSnapshot s = engine.snapshot();
                    if (s.version() == last) {
                        Thread.onSpinWait();
                        continue;
                    }
                    last = s.version();
                    String p = problem(s, n);
                    if (p != null) {
                        problems.add(p);
                        return;
                    }
                    generationsSeen.add(s.proxy(0).labels().get("gen"));
                }
            }));
        }
        threads.add(Thread.ofPlatform().name("other-refresher").start(() -> {
            while (!done.get()) {
                engine.refresh();
                refreshes.incrementAndGet();
            }
        }));
        try {
            for (int k = 1; k <= GENERATIONS && problems.isEmpty(); k++) {
                List<Proxy> next = generation(k, n);
                PoolPublisher.Published p = publisher.publish(Publication.builder()
                        .publish("gen", next)
                        .remove(ids(previous))
                        .build());
                assertEquals(n, p.published("gen"));
                assertEquals(n, p.removed());
                previous = next;
            }
        } finally {
            done.set(true);
            for (Thread t : threads) {
                t.join(10_000);
            }
        }
        assertEquals(List.of(), List.copyOf(problems));
        assertEquals(null, problem(engine.snapshot(), n));
        assertEquals(
                Integer.toString(GENERATIONS),
                engine.snapshot().proxy(0).labels().get("gen"));
        assertTrue(refreshes.get() > 0, "the other refresher ran");
        return new Run(generationsSeen.size(), refreshes.get());
    }

    @Test
    void readersOfAMemoryBackedEngineNeverSeeAPartialOrMixedSnapshotDuring1000Publishes() throws Exception {
        Run run = replaceGenerations(engine(new MemoryPoolStore(StoreSettings.DEFAULTS)), 50);
        assertTrue(run.generationsSeen() > 1, "readers saw the pool change");
        System.out.printf(
                "atomicity (memory): readers saw %d of %d generations; %d concurrent refreshes%n",
                run.generationsSeen(), GENERATIONS + 1, run.refreshes());
    }

    @Test
    void readersOfARedisBackedEngineNeverSeeAPartialOrMixedSnapshotDuring1000Publishes() throws Exception {
        String prefix = PipelineRedis.randomPrefix();
        try (RedisPoolStore store = PipelineRedis.store(prefix)) {
            Run run = replaceGenerations(engine(store), 20);
            assertTrue(run.generationsSeen() > 1, "readers saw the pool change");
            System.out.printf(
                    "atomicity (redis): readers saw %d of %d generations; %d concurrent refreshes%n",
                    run.generationsSeen(), GENERATIONS + 1, run.refreshes());
        } finally {
            PipelineRedis.deleteKeys(prefix);
        }
    }

    /** Waits (bounded) until {@code t} is parked or done: it reached the engine's lock, or ran to its end. */
    private static void awaitParkedOrDone(Thread t) {
        Await.atMost(Duration.ofSeconds(5))
                .until(t.getName() + " to park or finish (thread state)", t::getState, state -> switch (state) {
                    case WAITING, TIMED_WAITING, BLOCKED, TERMINATED -> true;
                    default -> false;
                });
    }

    /**
     * Regression: publishing as "upsert, remove, refresh" with separate calls let a refresh arriving
     * between the upsert and the removal snapshot both generations (2N proxies).
     */
    @Test
    void aRefreshArrivingBetweenUpsertAndRemovalWaitsAndSeesOnlyTheNewGeneration() throws Exception {
        HookedStore store = new HookedStore(new MemoryPoolStore(StoreSettings.DEFAULTS));
        PoolEngine engine = engine(store);
        PoolPublisher publisher = new PoolPublisher(engine, clock);
        List<Proxy> gen0 = generation(0, 10);
        publisher.publish(Publication.builder().publish("gen", gen0).build());
        Thread other = Thread.ofPlatform().name("other-refresher").unstarted(engine::refresh);
        List<Integer> pagesReadByOther = Collections.synchronizedList(new ArrayList<>());
        store.onList = (query, page) -> { // the snapshot's read, not the scan of operator-disabled proxies
            if (Thread.currentThread() == other && !query.state().equals(Optional.of(ProxyState.DISABLED))) {
                pagesReadByOther.add(page.proxies().size());
            }
        };
        store.beforeRemove = () -> {
            other.start();
            awaitParkedOrDone(other);
        };
        publisher.publish(Publication.builder()
                .publish("gen", generation(1, 10))
                .remove(ids(gen0))
                .build());
        other.join(5_000);
        assertEquals(List.of(10), pagesReadByOther, "the other refresh read the store only after the removal");
        assertEquals(null, problem(engine.snapshot(), 10));
        assertEquals("1", engine.snapshot().proxy(0).labels().get("gen"));
    }

    private static String line(int i, String upstream) {
        return "{\"host\": \"203.0.113." + i + "\", \"port\": 8000, \"protocol\": \"http\", \"labels\": {\"u\": \""
                + upstream + "\"}, \"ttlSeconds\": 3600}\n";
    }

    /** Regression: a round published upstream by upstream, so a refresh in between served half a round. */
    @Test
    void aPipelineRoundIsPublishedWholeEvenWhenARefreshArrivesBetweenItsUpstreams() throws Exception {
        Files.writeString(dir.resolve("a.jsonl"), line(1, "a") + line(2, "a"));
        Files.writeString(dir.resolve("b.jsonl"), line(3, "b") + line(4, "b"));
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                providers:
                  - { name: a, type: jsonl_inventory, path: a.jsonl }
                  - { name: b, type: jsonl_inventory, path: b.jsonl }
                upstreams:
                  - { name: a, provider: a, validate: false }
                  - { name: b, provider: b, validate: false }
                """);
        ProxyPoolConfig config = ConfigLoader.load(cfg, Map.of());
        HookedStore store = new HookedStore(new MemoryPoolStore(StoreSettings.DEFAULTS));
        PoolEngine engine = engine(store);
        CollectionPipeline pipeline = new CollectionPipeline(
                config,
                ProviderRegistry.standard(Set.of("jsonl_inventory")),
                new ProviderEnvironment(Map.of(), dir, clock, clock),
                engine,
                ValidationStage.NONE);
        Thread other = Thread.ofPlatform().name("other-refresher").unstarted(engine::refresh);
        List<Integer> pagesReadByOther = Collections.synchronizedList(new ArrayList<>());
        store.onList = (query, page) -> { // the snapshot's read, not the scan of operator-disabled proxies
            if (Thread.currentThread() == other && !query.state().equals(Optional.of(ProxyState.DISABLED))) {
                pagesReadByOther.add(page.proxies().size());
            }
        };
        store.afterUpsert = () -> {
            if (other.getState() == Thread.State.NEW) { // after the first upstream's write
                other.start();
                awaitParkedOrDone(other);
            }
        };
        long before = engine.snapshot().version();
        PipelineRound round = pipeline.runOnce();
        other.join(5_000);
        assertEquals(4, round.published());
        assertEquals(List.of(4), pagesReadByOther, "the other refresh saw both upstreams or neither");
        assertEquals(4, engine.snapshot().size());
        assertTrue(round.snapshotVersion() > before);
        pipeline.close();
    }
}
