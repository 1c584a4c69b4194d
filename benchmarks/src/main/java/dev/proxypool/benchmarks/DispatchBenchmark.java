package dev.proxypool.benchmarks;

import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.dispatch.Dispatcher;
import dev.proxypool.core.dispatch.PickRequest;
import dev.proxypool.core.dispatch.PickResult;
import dev.proxypool.core.dispatch.Picked;
import dev.proxypool.core.dispatch.ReusablePick;
import dev.proxypool.core.dispatch.Strategy;
import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.runtime.RuntimeRegistry;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.snapshot.SnapshotBuilder;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.engine.AcquireRequest;
import dev.proxypool.sdk.engine.AcquireResult;
import dev.proxypool.sdk.engine.PoolEngine;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One filtered pick + release per operation, per strategy, over 1,000 or 100,000 proxies with 0, 2
 * or 6 label terms in the filter (plus a 30 s minimum remaining TTL, so the TTL check runs). The
 * filter object is built once, as a routing would; the candidate set, WRR schedule and hash ring are
 * warmed in setup (they are per snapshot, not per pick). The strategy benchmarks pick into one
 * caller-owned {@code ReusablePick}: expected allocation 0 B/op. {@code randomPicked} is the
 * value-returning {@code pick} for comparison: a new {@code Picked} and {@code Reservation}, 56 B/op.
 *
 * <p>{@code acquire} and {@code acquireForHost} are the product's entry point, what the gateway and
 * the SDK call: {@code PoolEngine.acquire} + {@code Lease.close} on a round-robin routing with the
 * same filter over the same pool (routing lookup, pick into the engine's reusable result, the lease
 * taking the unit over). Expected allocation: the lease (64 B) and its answer (16 B), 80 B/op, and
 * with a destination host also the request's own {@code PickRequest} (40 B), 120 B/op; the pick
 * itself adds nothing (it added the 56 B of {@code Picked} and {@code Reservation} before).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--sun-misc-unsafe-memory-access=allow", "-Xmx2g"})
public class DispatchBenchmark {

    private static final int KEYS = 1024;

    @Param({"1000", "100000"})
    int proxies;

    @Param({"0", "2", "6"})
    int filterLabels;

    private final Dispatcher dispatcher = new Dispatcher();
    private PoolSnapshot snapshot;
    private long now;
    private PickRequest roundRobin;
    private PickRequest weighted;
    private PickRequest random;
    private PickRequest leastInFlight;
    private PickRequest latency;
    private PickRequest sequential;
    private PickRequest[] consistentHash;
    private int nextKey;
    private final ReusablePick out = new ReusablePick();
    private PoolEngine engine;
    private RoutingRule routing;
    private final AcquireRequest anyHost = AcquireRequest.forHost("");
    private final AcquireRequest forHost = AcquireRequest.forHost("shop.example");

    @Setup
    public void setup() {
        Ticker ticker = Clocks.monotonic();
        InstantSource wall = Clocks.wall();
        RuntimeRegistry registry = new RuntimeRegistry(HealthPolicy.DEFAULTS, ticker);
        snapshot = new SnapshotBuilder(registry, wall, ticker).build(BenchPool.proxies(proxies, wall.instant(), 42));
        now = ticker.read();
        BenchPool.measureLatencies(snapshot, now, 7);

        CandidateFilter filter = new CandidateFilter(
                List.of(), Set.of(), BenchPool.selector(filterLabels), Duration.ofSeconds(30), Duration.ZERO);
        roundRobin = PickRequest.of(filter, Strategy.ROUND_ROBIN);
        weighted = PickRequest.of(filter, Strategy.WEIGHTED);
        random = PickRequest.of(filter, Strategy.RANDOM);
        leastInFlight = PickRequest.of(filter, Strategy.LEAST_IN_FLIGHT);
        latency = PickRequest.of(filter, Strategy.LATENCY);
        CandidateFilter sequentialFilter = filter.withUpstreams(List.of("vendor-b", "vendor-c"));
        sequential = PickRequest.of(sequentialFilter, Strategy.SEQUENTIAL).withUpstreamIndex(1);
        consistentHash = new PickRequest[KEYS];
        for (int i = 0; i < KEYS; i++) {
            consistentHash[i] = PickRequest.consistentHash(filter, "host-" + i + ".shop.example");
        }
        // the product's entry point over the same pool and filter
        MemoryPoolStore store = new MemoryPoolStore(StoreSettings.DEFAULTS);
        store.upsert(BenchPool.proxies(proxies, wall.instant(), 42), wall.instant());
        engine = new PoolEngine(
                List.of(RoutingRule.builder("bench")
                        .strategy(Strategy.ROUND_ROBIN)
                        .labels(BenchPool.selector(filterLabels))
                        .minRemainingTtl(Duration.ofSeconds(30))
                        .build()),
                HealthPolicy.DEFAULTS,
                store,
                ticker,
                wall,
                1);
        engine.refresh();
        routing = engine.routing("bench").orElseThrow();
        if (!(acquireAndClose(anyHost) instanceof AcquireResult.Acquired)) {
            throw new IllegalStateException("setup: the engine has no candidate");
        }
        StringBuilder firstPicks = new StringBuilder();
        for (PickRequest r : List.of(random, roundRobin, leastInFlight, latency, sequential, consistentHash[0])) {
            long t0 = ticker.read();
            if (!(pickAndRelease(r) instanceof Picked)) {
                throw new IllegalStateException("setup: no candidate for " + r);
            }
            firstPicks.append(String.format(" %s %.1f ms", r.strategy(), (ticker.read() - t0) / 1e6));
        }
        System.out.printf(
                "%n[setup] %d proxies, filter %s: %d candidates; first picks (candidate set,"
                        + " then schedule/ring):%s%n",
                proxies,
                BenchPool.selector(filterLabels),
                snapshot.candidates(filter).size(),
                firstPicks);
    }

    private PickResult pickAndRelease(PickRequest r) {
        PickResult result = dispatcher.pick(snapshot, r, now);
        if (result instanceof Picked p) {
            p.reservation().release();
        }
        return result;
    }

    /** The allocation-free pick: returns the slot (or -1) so the work cannot be optimised away. */
    private int pickIntoAndRelease(PickRequest r) {
        if (dispatcher.pick(snapshot, r, now, out)) {
            out.reservation().release();
            return out.slot();
        }
        return -1;
    }

    private AcquireResult acquireAndClose(AcquireRequest request) {
        AcquireResult r = engine.acquire(routing, request);
        if (r instanceof AcquireResult.Acquired a) {
            a.lease().close();
        }
        return r;
    }

    /** The product's entry point: {@code PoolEngine.acquire} on a round-robin routing, then close. */
    @Benchmark
    public AcquireResult acquire() {
        return acquireAndClose(anyHost);
    }

    /** {@link #acquire()} for a request naming its destination (the gateway's case): plus its pick request. */
    @Benchmark
    public AcquireResult acquireForHost() {
        return acquireAndClose(forHost);
    }

    @Benchmark
    public int roundRobin() {
        return pickIntoAndRelease(roundRobin);
    }

    @Benchmark
    public int weighted() {
        return pickIntoAndRelease(weighted);
    }

    @Benchmark
    public int random() {
        return pickIntoAndRelease(random);
    }

    @Benchmark
    public int leastInFlight() {
        return pickIntoAndRelease(leastInFlight);
    }

    @Benchmark
    public int latency() {
        return pickIntoAndRelease(latency);
    }

    @Benchmark
    public int consistentHash() {
        return pickIntoAndRelease(consistentHash[nextKey++ & (KEYS - 1)]);
    }

    @Benchmark
    public int sequential() {
        return pickIntoAndRelease(sequential);
    }

    @Benchmark
    public PickResult randomPicked() {
        return pickAndRelease(random);
    }
}
