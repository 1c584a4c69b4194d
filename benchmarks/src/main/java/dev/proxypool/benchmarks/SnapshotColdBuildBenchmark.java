package dev.proxypool.benchmarks;

import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.runtime.RuntimeRegistry;
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
 * The very first 100,000-proxy snapshot build of a fresh JVM (a worker starting up): single shot,
 * no warm-up, so the builder runs mostly interpreted and creates every runtime. Run on its own:
 * {@code -wi/-i/-f} on the command line would override the single-shot settings.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(
        value = 5,
        jvmArgsAppend = {"--sun-misc-unsafe-memory-access=allow", "-Xmx2g"})
public class SnapshotColdBuildBenchmark {

    private List<Proxy> proxies;

    @Setup
    public void setup() {
        proxies = BenchPool.proxies(100_000, Clocks.wall().instant(), 42);
    }

    @Benchmark
    public PoolSnapshot coldFirstBuild() {
        return new SnapshotBuilder(
                        new RuntimeRegistry(HealthPolicy.DEFAULTS, Clocks.monotonic()),
                        Clocks.wall(),
                        Clocks.monotonic())
                .build(proxies);
    }
}
