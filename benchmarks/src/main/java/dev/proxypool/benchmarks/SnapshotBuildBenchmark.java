package dev.proxypool.benchmarks;

import dev.proxypool.core.dispatch.CandidateFilter;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.runtime.RuntimeRegistry;
import dev.proxypool.core.snapshot.CandidateSet;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.snapshot.SnapshotBuilder;
import dev.proxypool.core.time.Clocks;
import java.util.List;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Building a 100,000-proxy snapshot: {@code rebuild} is the steady state (runtimes already known to
 * the registry, as for every build after the first), {@code firstBuild} also creates the 100,000
 * runtimes, {@code rebuildAndFilter} adds the first 6-label candidate set a pick would compute.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"--sun-misc-unsafe-memory-access=allow", "-Xmx2g"})
public class SnapshotBuildBenchmark {

    private List<Proxy> proxies;
    private SnapshotBuilder warmBuilder;
    private CandidateFilter sixLabels;

    @Setup
    public void setup() {
        proxies = BenchPool.proxies(100_000, Clocks.wall().instant(), 42);
        warmBuilder = newBuilder();
        warmBuilder.build(proxies);
        sixLabels = CandidateFilter.ANY.withLabels(BenchPool.selector(6));
    }

    private static SnapshotBuilder newBuilder() {
        return new SnapshotBuilder(
                new RuntimeRegistry(HealthPolicy.DEFAULTS, Clocks.monotonic()), Clocks.wall(), Clocks.monotonic());
    }

    @Benchmark
    public PoolSnapshot rebuild() {
        return warmBuilder.build(proxies);
    }

    @Benchmark
    public PoolSnapshot firstBuild() {
        return newBuilder().build(proxies);
    }

    @Benchmark
    public CandidateSet rebuildAndFilter() {
        return warmBuilder.build(proxies).candidates(sixLabels);
    }
}
