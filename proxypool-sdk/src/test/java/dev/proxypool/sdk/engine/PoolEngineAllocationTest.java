package dev.proxypool.sdk.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.capacity.CapacityCell;
import dev.proxypool.core.capacity.Reservation;
import dev.proxypool.core.dispatch.Strategy;
import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.Lease;
import java.lang.management.ManagementFactory;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The product's pick ({@link PoolEngine#acquire}, what the gateway and the SDK call) is the
 * allocation-free one: measured with the JVM's per-thread allocation counter, an acquire allocates
 * exactly what the caller receives (the lease and the answer carrying it, plus the pick request
 * when the request names a destination) and not a byte for the pick itself (it allocated a
 * {@code Picked} and a {@code Reservation}, 56 bytes, before).
 */
class PoolEngineAllocationTest {

    private static final int PROXIES = 500;
    private static final int ROUNDS = 100_000;

    private final Ticker ticker = Clocks.monotonic();
    private final InstantSource wall = Clocks.wall();

    private PoolEngine engine(int maxConcurrency) {
        List<Proxy> proxies = new ArrayList<>();
        for (int i = 0; i < PROXIES; i++) {
            proxies.add(Proxy.builder(new ProxyKey(
                            Protocol.HTTP, "198.51." + (100 + i / 250) + "." + (i % 250 + 1), 8000, CredentialRef.NONE))
                    .upstream("lab")
                    .provider("lab")
                    .maxConcurrency(maxConcurrency)
                    .build());
        }
        MemoryPoolStore store = new MemoryPoolStore(StoreSettings.DEFAULTS);
        store.upsert(proxies, wall.instant());
        PoolEngine e = new PoolEngine(List.of(), HealthPolicy.DEFAULTS, store, ticker, wall, 1);
        e.refresh();
        return e;
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /** acquire + close, keeping each answer reachable a while (no escape analysis can remove it). */
    private static long acquireAndClose(PoolEngine e, RoutingRule rule, AcquireRequest request, Object[] sink) {
        long n = 0;
        for (int i = 0; i < ROUNDS; i++) {
            AcquireResult r = e.acquire(rule, request);
            sink[i & (sink.length - 1)] = r;
            if (r instanceof AcquireResult.Acquired a) {
                a.lease().close();
                n++;
            }
        }
        return n;
    }

    /**
     * What an acquire must allocate whatever its pick: its pick request (when the request varies the
     * routing's), a lease holding a unit and the answer, the unit reserved without allocating.
     */
    private static long unavoidable(
            PoolEngine e, RoutingRule rule, AcquireRequest request, CapacityCell cell, Object[] sink) {
        Reservation unit = Reservation.unbound();
        PoolSnapshot snapshot = e.snapshot();
        Proxy proxy = snapshot.proxy(0);
        long n = 0;
        for (int i = 0; i < ROUNDS; i++) {
            sink[(i + 1) & (sink.length - 1)] = e.pickRequestFor(rule, request);
            if (!cell.tryAcquire()) {
                throw new AssertionError("no capacity");
            }
            unit.rebind(cell);
            Lease lease = new EngineLease(
                    proxy,
                    rule.name(),
                    unit,
                    Admission.ADMITTED,
                    snapshot.runtime(0).health(),
                    e.ticker(),
                    1,
                    null,
                    null,
                    null,
                    snapshot);
            AcquireResult r = new AcquireResult.Acquired(lease);
            sink[i & (sink.length - 1)] = r;
            lease.close();
            n++;
        }
        return n;
    }

    /** The least bytes of three windows of {@link #ROUNDS} operations (a one-off JIT event is not per operation). */
    private static long leastOfThree(Runnable window) {
        long bytes = Long.MAX_VALUE;
        for (int w = 0; w < 3; w++) {
            long before = allocatedBytes();
            window.run();
            bytes = Math.min(bytes, allocatedBytes() - before);
        }
        return bytes;
    }

    @ParameterizedTest
    @EnumSource(
            value = Strategy.class,
            names = {"ROUND_ROBIN", "WEIGHTED", "RANDOM", "LEAST_IN_FLIGHT", "LATENCY"})
    void theProductPickAllocatesNothingBesidesTheLeaseItHandsOut(Strategy strategy) {
        PoolEngine e = engine(4);
        e.reconfigure(List.of(RoutingRule.builder("r").strategy(strategy).build()));
        RoutingRule rule = e.routing("r").orElseThrow();
        CapacityCell cell = e.snapshot().capacity(0);
        Object[] sink = new Object[64];
        for (AcquireRequest request : List.of(AcquireRequest.forHost(""), AcquireRequest.forHost("shop.example"))) {
            for (int warm = 0; warm < 3; warm++) { // JIT both loops before measuring
                assertEquals(ROUNDS, acquireAndClose(e, rule, request, sink));
                assertEquals(ROUNDS, unavoidable(e, rule, request, cell, sink));
            }
            long acquired = leastOfThree(() -> acquireAndClose(e, rule, request, sink));
            long floor = leastOfThree(() -> unavoidable(e, rule, request, cell, sink));
            double perPick = (acquired - floor) / (double) ROUNDS;
            String what = strategy + ", host '" + request.targetHost() + "': " + acquired / (double) ROUNDS
                    + " B per acquire, " + floor / (double) ROUNDS + " B for its lease, answer and request";
            // 56 B per pick before (a Picked and a Reservation); a few hundred bytes of one-off JIT
            // or class-loading noise in a window stay far below 1 B per pick
            assertTrue(perPick < 1, what + ": the pick itself allocated " + perPick + " B");
            assertEquals(0, e.inFlight(), "every unit given back");
        }
    }

    @Test
    void concurrentCallersOnVirtualAndPlatformThreadsNeverShareAPickResult() throws Exception {
        PoolEngine e = engine(1); // one unit per proxy: a unit handed to two leases would show as a double lease
        RoutingRule rule = e.route(new AnyFacts());
        // one unit per proxy, so one lease per proxy id at a time: a lease given another caller's proxy
        // (a result shared between two picks) shows as two leases of one id
        ConcurrentHashMap<String, AtomicInteger> holders = new ConcurrentHashMap<>();
        AtomicInteger doubled = new AtomicInteger();
        List<Future<Integer>> done = new ArrayList<>();
        try (ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor();
                ExecutorService platform = Executors.newFixedThreadPool(4)) {
            for (int t = 0; t < 32; t++) {
                ExecutorService on = t % 2 == 0 ? virtual : platform;
                done.add(on.submit(() -> {
                    int leases = 0;
                    for (int i = 0; i < 5_000; i++) {
                        AcquireResult r = e.acquire(rule, AcquireRequest.forHost("shop.example"));
                        if (r instanceof AcquireResult.Acquired a) {
                            try (Lease lease = a.lease()) {
                                assertTrue(lease.isHeld());
                                AtomicInteger h = holders.computeIfAbsent(lease.proxyId(), k -> new AtomicInteger());
                                if (h.incrementAndGet() > 1) {
                                    doubled.incrementAndGet();
                                }
                                lease.connected();
                                Thread.yield();
                                h.decrementAndGet();
                            }
                            assertTrue(!a.lease().isHeld(), "closed");
                            leases++;
                        } else {
                            assertInstanceOf(AcquireResult.Rejected.class, r);
                        }
                    }
                    return leases;
                }));
            }
            int total = 0;
            for (Future<Integer> f : done) {
                total += f.get(60, TimeUnit.SECONDS);
            }
            assertTrue(total > 0, "leases were made");
        }
        assertEquals(0, e.inFlight(), "every unit back exactly once");
        int active = 0;
        for (int i = 0; i < PROXIES; i++) {
            active += e.snapshot().capacity(i).active();
        }
        assertEquals(0, active, "every activation undone");
        assertEquals(0, doubled.get(), "a proxy id leased twice at once");
        assertTrue(holders.size() > 1, "leases spread over the pool");
    }

    private record AnyFacts() implements dev.proxypool.core.routing.RequestFacts {
        @Override
        public String client() {
            return "";
        }

        @Override
        public String host() {
            return "shop.example";
        }

        @Override
        public int port() {
            return 443;
        }

        @Override
        public String method() {
            return "CONNECT";
        }

        @Override
        public String header(String name) {
            return null;
        }
    }
}
