package dev.proxypool.benchmarks;

import dev.proxypool.core.capacity.CapacityCell;
import dev.proxypool.core.capacity.Reservation;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The capacity ledger alone: a reserve/release cycle, as a {@link Reservation} (what picks use)
 * and as the raw CAS pair, single-threaded and with two threads on one proxy (contended).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--sun-misc-unsafe-memory-access=allow")
public class CapacityBenchmark {

    private final CapacityCell cell = new CapacityCell(1_000);

    @Benchmark
    public boolean reserveRelease() {
        Reservation r = cell.tryReserve();
        return r.release();
    }

    @Benchmark
    public boolean acquireRelease() {
        boolean got = cell.tryAcquire();
        cell.releaseAcquired();
        return got;
    }

    @Benchmark
    @Threads(2)
    public boolean reserveReleaseContended() {
        Reservation r = cell.tryReserve();
        return r.release();
    }
}
