package dev.proxypool.sdk.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.routing.NoCandidatePolicy;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.sticky.StickyPolicy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.Lease;
import dev.proxypool.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class PoolEngineTest {

    private final ManualClock clock = new ManualClock();

    private static Proxy proxy(int i, String upstream, int maxConcurrency) {
        return Proxy.builder(new ProxyKey(Protocol.HTTP, "198.51.100." + i, 8000 + i, CredentialRef.NONE))
                .upstream(upstream)
                .provider("lab")
                .maxConcurrency(maxConcurrency)
                .build();
    }

    private PoolEngine engine(List<RoutingRule> rules, List<Proxy> proxies) {
        MemoryPoolStore store = new MemoryPoolStore(StoreSettings.DEFAULTS);
        store.upsert(proxies, clock.instant());
        PoolEngine e = new PoolEngine(rules, HealthPolicy.DEFAULTS, store, clock, clock, 1);
        e.refresh();
        return e;
    }

    private static Lease acquired(AcquireResult r) {
        return assertInstanceOf(AcquireResult.Acquired.class, r, r::toString).lease();
    }

    @Test
    void leasesAndReleasesOnTheDefaultRouting() {
        PoolEngine e = engine(List.of(), List.of(proxy(1, "lab", 2), proxy(2, "lab", 2)));
        RoutingRule rule = e.route(new Facts("shop.example", 443, "CONNECT"));
        assertEquals(PoolEngine.DEFAULT_ROUTING, rule.name());
        try (Lease a = acquired(e.acquire(rule, AcquireRequest.forHost("shop.example")));
                Lease b = acquired(e.acquire(rule, AcquireRequest.forHost("shop.example")))) {
            a.connected();
            assertEquals(2, e.inFlight());
            assertEquals("lab", a.upstream());
            assertEquals(1, a.attempt());
            b.succeeded(Duration.ofMillis(20));
        }
        assertEquals(0, e.inFlight());
    }

    @Test
    void anEmptyPoolRejectsWithNoCandidate() {
        PoolEngine e = engine(List.of(), List.of());
        AcquireResult r = e.acquire(e.routingTable().rules().get(0), AcquireRequest.forHost("a.example"));
        AcquireResult.Rejected rej = assertInstanceOf(AcquireResult.Rejected.class, r);
        assertEquals("no_candidate", rej.reason());
        assertEquals("no_match", rej.detail());
    }

    @Test
    void capacityIsHonouredAndComesBackOnClose() {
        PoolEngine e = engine(List.of(), List.of(proxy(1, "lab", 1)));
        RoutingRule rule = e.routingTable().rules().get(0);
        Lease held = acquired(e.acquire(rule, AcquireRequest.forHost("a.example")));
        AcquireResult.Rejected busy =
                assertInstanceOf(AcquireResult.Rejected.class, e.acquire(rule, AcquireRequest.forHost("a.example")));
        assertEquals("busy", busy.detail());
        held.close();
        held.close(); // twice: released once
        assertEquals(0, e.inFlight());
        acquired(e.acquire(rule, AcquireRequest.forHost("a.example"))).close();
    }

    @Test
    void waitPolicyGetsCapacityReleasedByAnotherRequest() throws Exception {
        RoutingRule waiting = RoutingRule.builder("w")
                .onNoCandidate(NoCandidatePolicy.WAIT)
                .waitTimeout(Duration.ofSeconds(5))
                .build();
        MemoryPoolStore store = new MemoryPoolStore(StoreSettings.DEFAULTS);
        store.upsert(List.of(proxy(1, "lab", 1)), clock.instant());
        PoolEngine e = new PoolEngine(List.of(waiting), HealthPolicy.DEFAULTS, store, Clocks.monotonic(), clock, 1);
        e.refresh();
        Lease held = acquired(e.acquire(waiting, AcquireRequest.forHost("a.example")));
        CompletableFuture<AcquireResult> second =
                acquireParked(() -> e.acquire(waiting, AcquireRequest.forHost("a.example")));
        assertFalse(second.isDone());
        held.close();
        acquired(second.get(5, TimeUnit.SECONDS)).close();
        assertEquals(0, e.inFlight());
    }

    @Test
    void waitPolicyGivesUpAfterItsTimeout() {
        RoutingRule waiting = RoutingRule.builder("w")
                .onNoCandidate(NoCandidatePolicy.WAIT)
                .waitTimeout(Duration.ofMillis(60))
                .build();
        MemoryPoolStore store = new MemoryPoolStore(StoreSettings.DEFAULTS);
        store.upsert(List.of(proxy(1, "lab", 1)), clock.instant());
        PoolEngine e = new PoolEngine(List.of(waiting), HealthPolicy.DEFAULTS, store, Clocks.monotonic(), clock, 1);
        e.refresh();
        try (Lease held = acquired(e.acquire(waiting, AcquireRequest.forHost("a.example")))) {
            long t0 = System.nanoTime();
            AcquireResult.Rejected r = assertInstanceOf(
                    AcquireResult.Rejected.class, e.acquire(waiting, AcquireRequest.forHost("a.example")));
            long waitedMs = (System.nanoTime() - t0) / 1_000_000;
            assertEquals("busy", r.detail());
            assertTrue(waitedMs >= 50 && waitedMs < 2_000, "waited " + waitedMs + " ms");
        }
    }

    @Test
    void directPolicyAnswersDirectWhenNothingQualifies() {
        RoutingRule direct =
                RoutingRule.builder("d").onNoCandidate(NoCandidatePolicy.DIRECT).build();
        PoolEngine e = engine(List.of(direct), List.of());
        assertInstanceOf(AcquireResult.Direct.class, e.acquire(direct, AcquireRequest.forHost("a.example")));
    }

    @Test
    void stickySessionKeepsItsProxyAndRepinsAfterAConnectFailure() {
        RoutingRule sticky =
                RoutingRule.builder("s").sticky(StickyPolicy.DEFAULTS).build();
        List<Proxy> pool = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            pool.add(proxy(i, "lab", 10));
        }
        PoolEngine e = engine(List.of(sticky), pool);
        AcquireRequest s1 = new AcquireRequest("alice", "s1", "shop.example", "", List.of());
        String first;
        try (Lease l = acquired(e.acquire(sticky, s1))) {
            l.connected();
            first = l.proxyId();
        }
        for (int i = 0; i < 20; i++) {
            try (Lease l = acquired(e.acquire(sticky, s1))) {
                l.connected();
                assertEquals(first, l.proxyId(), "same session, same proxy while it qualifies");
            }
        }
        e.runtime(first).orElseThrow().health().disable("test", clock.read());
        try (Lease l = acquired(e.acquire(sticky, s1))) {
            assertNotEquals(first, l.proxyId(), "a disabled proxy is repinned");
            l.connected();
        }
    }

    private static StickyPolicy busyWait(Duration d) {
        StickyPolicy x = StickyPolicy.DEFAULTS;
        return new StickyPolicy(true, x.header(), x.lifetime(), x.idle(), x.onLost(), x.maxEntries(), d);
    }

    /** A session's request finds its bound proxy busy (capacity 1) and waits for it rather than failing. */
    @Test
    void aStickySessionWaitsForItsBusyProxy() throws Exception {
        RoutingRule rule =
                RoutingRule.builder("s").sticky(busyWait(Duration.ofSeconds(5))).build();
        MemoryPoolStore store = new MemoryPoolStore(StoreSettings.DEFAULTS);
        store.upsert(List.of(proxy(1, "lab", 1), proxy(2, "lab", 1)), clock.instant());
        PoolEngine e = new PoolEngine(List.of(rule), HealthPolicy.DEFAULTS, store, Clocks.monotonic(), clock, 1);
        e.refresh();
        AcquireRequest s1 = new AcquireRequest("alice", "s1", "shop.example", "", List.of());
        Lease held = acquired(e.acquire(rule, s1));
        held.connected();
        String bound = held.proxyId();
        CompletableFuture<AcquireResult> next = acquireParked(() -> e.acquire(rule, s1));
        assertFalse(next.isDone(), "it waits for its own proxy, it does not take the other one");
        assertEquals(1, e.inFlight(), "and holds no capacity while it waits");
        held.close();
        try (Lease l = acquired(next.get(5, TimeUnit.SECONDS))) {
            assertEquals(bound, l.proxyId());
        }
        assertEquals(0, e.inFlight());
    }

    @Test
    void aStickySessionGivesUpOnItsBusyProxyAfterBusyWait() {
        for (Duration wait : List.of(Duration.ZERO, Duration.ofMillis(80))) {
            RoutingRule rule = RoutingRule.builder("s").sticky(busyWait(wait)).build();
            MemoryPoolStore store = new MemoryPoolStore(StoreSettings.DEFAULTS);
            store.upsert(List.of(proxy(1, "lab", 1)), clock.instant());
            PoolEngine e = new PoolEngine(List.of(rule), HealthPolicy.DEFAULTS, store, Clocks.monotonic(), clock, 1);
            e.refresh();
            AcquireRequest s1 = new AcquireRequest("alice", "s1", "shop.example", "", List.of());
            try (Lease held = acquired(e.acquire(rule, s1))) {
                held.connected();
                long t0 = System.nanoTime();
                AcquireResult.Rejected r = assertInstanceOf(AcquireResult.Rejected.class, e.acquire(rule, s1));
                long waitedMs = (System.nanoTime() - t0) / 1_000_000;
                assertEquals("busy", r.detail());
                assertTrue(
                        waitedMs >= wait.toMillis() - 5 && waitedMs < 3_000,
                        "busyWait " + wait + ": waited " + waitedMs + " ms");
            }
        }
    }

    @Test
    void aTickerThatDoesNotMoveCannotHoldABusyWaitForever() {
        RoutingRule rule = RoutingRule.builder("s")
                .sticky(busyWait(Duration.ofMillis(100)))
                .build();
        PoolEngine e = engine(List.of(rule), List.of(proxy(1, "lab", 1))); // the manual clock is the ticker
        AcquireRequest s1 = new AcquireRequest("alice", "s1", "shop.example", "", List.of());
        try (Lease held = acquired(e.acquire(rule, s1))) {
            held.connected();
            CompletableFuture<AcquireResult> next = CompletableFuture.supplyAsync(() -> e.acquire(rule, s1));
            AcquireResult.Rejected r = assertInstanceOf(AcquireResult.Rejected.class, assertDoesNotThrowWithin(next));
            assertEquals("busy", r.detail());
        }
    }

    /**
     * Runs {@code acquire} on a thread of its own and returns once that thread is parked in the
     * engine's wait for capacity (a timed park), so the caller knows the waiter is waiting.
     */
    private static CompletableFuture<AcquireResult> acquireParked(Supplier<AcquireResult> acquire) {
        CompletableFuture<AcquireResult> result = new CompletableFuture<>();
        Thread waiter = Thread.ofPlatform().daemon().name("acquire-waiter").start(() -> {
            try {
                result.complete(acquire.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        Await.atMost(Duration.ofSeconds(5))
                .until(
                        "the acquire to park waiting for capacity",
                        () -> result.isDone() ? "done: " + result : waiter.getState(),
                        s -> s == Thread.State.TIMED_WAITING);
        return result;
    }

    private static AcquireResult assertDoesNotThrowWithin(CompletableFuture<AcquireResult> f) {
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (Exception ex) {
            throw new AssertionError("the busy wait did not end: " + ex, ex);
        }
    }

    @Test
    void strictStickySessionFailsWithSessionLost() {
        StickyPolicy strict = new StickyPolicy(
                true,
                StickyPolicy.DEFAULT_HEADER,
                Duration.ofMinutes(10),
                Duration.ofSeconds(60),
                StickyPolicy.OnLost.STRICT,
                1000);
        RoutingRule rule = RoutingRule.builder("strict").sticky(strict).build();
        PoolEngine e = engine(List.of(rule), List.of(proxy(1, "lab", 10), proxy(2, "lab", 10)));
        AcquireRequest s = new AcquireRequest("alice", "abc", "shop.example", "", List.of());
        String bound;
        try (Lease l = acquired(e.acquire(rule, s))) {
            l.connected();
            bound = l.proxyId();
        }
        e.runtime(bound).orElseThrow().health().disable("test", clock.read());
        AcquireResult.Rejected r = assertInstanceOf(AcquireResult.Rejected.class, e.acquire(rule, s));
        assertEquals("session_lost", r.reason());
        assertEquals(0, e.inFlight());
    }

    @Test
    void aBanExcludesTheProxyForThatDomainOnly() {
        PoolEngine e = engine(List.of(), List.of(proxy(1, "lab", 10)));
        RoutingRule rule = e.routingTable().rules().get(0);
        String id;
        try (Lease l = acquired(e.acquire(rule, AcquireRequest.forHost("shop.example")))) {
            id = l.proxyId();
            l.banned("shop.example");
        }
        assertInstanceOf(AcquireResult.Rejected.class, e.acquire(rule, AcquireRequest.forHost("shop.example")));
        try (Lease other = acquired(e.acquire(rule, AcquireRequest.forHost("news.example")))) {
            assertEquals(id, other.proxyId());
        }
        assertTrue(e.reportBan(id, "News.Example"));
        assertInstanceOf(AcquireResult.Rejected.class, e.acquire(rule, AcquireRequest.forHost("news.example")));
    }

    @Test
    void retriesGoToADifferentProxy() {
        PoolEngine e = engine(List.of(), List.of(proxy(1, "lab", 10), proxy(2, "lab", 10)));
        RoutingRule rule = e.routingTable().rules().get(0);
        AcquireRequest req = AcquireRequest.forHost("a.example");
        Lease first = acquired(e.acquire(rule, req));
        first.failed(FailureKind.CONNECTION_REFUSED);
        first.close();
        try (Lease retry = acquired(e.acquire(rule, req.excluding(first.proxyId())))) {
            assertNotEquals(first.proxyId(), retry.proxyId());
            assertEquals(2, retry.attempt());
        }
        AcquireResult none = e.acquire(
                rule,
                req.excluding(first.proxyId()).excluding(proxy(2, "lab", 10).id()));
        assertEquals(
                "excluded", assertInstanceOf(AcquireResult.Rejected.class, none).detail());
    }

    @Test
    void extractedProxiesLeaveTheGatewayAtOnce() {
        Proxy only = proxy(1, "lab", 10);
        PoolEngine e = engine(List.of(), List.of(only));
        e.extracted(List.of(only));
        assertInstanceOf(
                AcquireResult.Rejected.class,
                e.acquire(e.routingTable().rules().get(0), AcquireRequest.forHost("a.example")));
    }

    @Test
    void noCapacityLeaksUnderConcurrentLeasesEvenWhenCallersThrow() throws Exception {
        List<Proxy> pool = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            pool.add(proxy(i, "lab", 3));
        }
        PoolEngine e = engine(List.of(), pool);
        RoutingRule rule = e.routingTable().rules().get(0);
        int threads = 16;
        int perThread = 6_250; // 100,000 leases in all
        AtomicInteger acquiredCount = new AtomicInteger();
        AtomicInteger thrown = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool16 = Executors.newFixedThreadPool(threads);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int seed = t;
            done.add(pool16.submit(() -> {
                go.await();
                java.util.Random rnd = new java.util.Random(seed);
                for (int i = 0; i < perThread; i++) {
                    AcquireResult r = e.acquire(rule, AcquireRequest.forHost("a.example"));
                    if (r instanceof AcquireResult.Acquired a) {
                        acquiredCount.incrementAndGet();
                        try (Lease lease = a.lease()) {
                            lease.connected();
                            if (rnd.nextInt(10) == 0) {
                                throw new IllegalStateException("caller bug before reporting");
                            }
                            lease.succeeded(Duration.ofMillis(5));
                        } catch (IllegalStateException expected) {
                            thrown.incrementAndGet();
                        }
                    }
                }
                return null;
            }));
        }
        go.countDown();
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        pool16.shutdown();
        assertEquals(0, e.inFlight(), "every lease released exactly once");
        assertTrue(acquiredCount.get() > 50_000, "acquired " + acquiredCount.get());
        assertTrue(thrown.get() > 1_000, "thrown " + thrown.get());
        Set<Integer> limitsSeen = new HashSet<>();
        e.registry().all().forEach(rt -> limitsSeen.add(rt.capacity().limit()));
        assertEquals(Set.of(3), limitsSeen);
    }

    private record Facts(String host, int port, String method) implements dev.proxypool.core.routing.RequestFacts {
        @Override
        public String client() {
            return null;
        }

        @Override
        public String header(String lowerCaseName) {
            return null;
        }
    }
}
