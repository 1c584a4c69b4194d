package dev.proxypool.benchmarks;

import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.dispatch.Dispatcher;
import dev.proxypool.core.dispatch.PickRequest;
import dev.proxypool.core.dispatch.PickResult;
import dev.proxypool.core.dispatch.Picked;
import dev.proxypool.core.dispatch.Strategy;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.runtime.RuntimeRegistry;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.snapshot.SnapshotBuilder;
import dev.proxypool.core.time.Clocks;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Two threads picking from one shared snapshot and filter (1,000 proxies, no label filter): the
 * smooth-WRR cursor is one shared {@code AtomicLong}, random and least-in-flight share nothing but
 * the proxies' counters. Compare with {@link DispatchBenchmark}'s single-threaded figures.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--sun-misc-unsafe-memory-access=allow")
@Threads(2)
public class ContendedDispatchBenchmark {

    private final Dispatcher dispatcher = new Dispatcher();
    private PoolSnapshot snapshot;
    private long now;
    private PickRequest weighted;
    private PickRequest random;
    private PickRequest leastInFlight;

    @Setup
    public void setup() {
        snapshot = new SnapshotBuilder(
                        new RuntimeRegistry(HealthPolicy.DEFAULTS, Clocks.monotonic()),
                        Clocks.wall(),
                        Clocks.monotonic())
                .build(BenchPool.proxies(1000, Clocks.wall().instant(), 42));
        now = Clocks.monotonic().read();
        weighted = PickRequest.of(CandidateFilter.ANY, Strategy.WEIGHTED);
        random = PickRequest.of(CandidateFilter.ANY, Strategy.RANDOM);
        leastInFlight = PickRequest.of(CandidateFilter.ANY, Strategy.LEAST_IN_FLIGHT);
        pickAndRelease(weighted);
    }

    private PickResult pickAndRelease(PickRequest r) {
        PickResult result = dispatcher.pick(snapshot, r, now);
        if (result instanceof Picked p) {
            p.reservation().release();
        }
        return result;
    }

    @Benchmark
    public PickResult weighted() {
        return pickAndRelease(weighted);
    }

    @Benchmark
    public PickResult random() {
        return pickAndRelease(random);
    }

    @Benchmark
    public PickResult leastInFlight() {
        return pickAndRelease(leastInFlight);
    }
}
