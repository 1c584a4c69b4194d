package dev.proxypool.benchmarks.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A warm-up that lasts until the client's JIT is done: on the 2-vCPU machines these benchmarks run
 * on, one round of every kind of call left C2 compiling on the clients' core for seconds more (38-48k
 * extractions/s at 8 clients with that core 100 % busy, 62k once it stopped, Redis then 97 % busy), so
 * the first rows measured the compiler. A server in service runs warm.
 */
final class JitWarmUp {

    /** Compilation time of a round under which the JIT counts as settled. */
    static final long SETTLED_MILLIS = 50;

    /** Most rounds. */
    static final int MAX_ROUNDS = 10;

    /** One round of the calls to warm up. */
    @FunctionalInterface
    interface Round {
        void run() throws Exception;
    }

    /** How long the compiler threads must stay (nearly) idle to count as done ({@link #quiesce}). */
    static final long IDLE_MILLIS = 100;

    /** CPU the compiler threads may use in {@link #IDLE_MILLIS} and still count as idle, ms. */
    static final double IDLE_CPU_MILLIS = 1;

    /** The longest {@link #quiesce} waits. */
    static final long QUIESCE_MAX_MILLIS = 10_000;

    private JitWarmUp() {}

    /**
     * Waits until the JIT's compiler threads have been idle for {@value #IDLE_MILLIS} ms, at most
     * {@value #QUIESCE_MAX_MILLIS} ms. Loading a pool, a trivial measurement or a drain queue
     * compilations that C2 works through for a second or two after them, on the clients' core (with
     * --pin, the one core the clients have): a row started meanwhile measured the compiler (its C2
     * thread took 556 ms of the core during the 1.1 s of five 2,000-call rows after loading 100,000
     * proxies, 1 % of the calls 1.5-5 ms long), not the store.
     */
    static void quiesce() throws InterruptedException {
        long deadline = System.nanoTime() + QUIESCE_MAX_MILLIS * 1_000_000;
        for (double seen = compilerCpuMillis(); System.nanoTime() < deadline; ) {
            Thread.sleep(IDLE_MILLIS);
            double now = compilerCpuMillis();
            if (now - seen < IDLE_CPU_MILLIS) {
                break;
            }
            seen = now;
        }
    }

    /**
     * The CPU time the JIT's compiler threads (C1 and C2, hidden from {@code ThreadMXBean}) have used,
     * ms, from Linux's per-thread scheduler statistics; without them (not Linux), the JIT's own
     * compilation time, which counts a compilation only once it ends.
     */
    static double compilerCpuMillis() {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
        }
        long nanos = 0;
        try (Stream<Path> threads = Files.list(tasks)) {
            for (Path thread : (Iterable<Path>) threads::iterator) {
                try {
                    if (Files.readString(thread.resolve("comm")).contains("CompilerThre")) {
                        nanos += Long.parseLong(
                                Files.readString(thread.resolve("schedstat")).split(" ")[0]);
                    }
                } catch (IOException gone) {
                    // a compiler thread that ended meanwhile (the JIT adds and removes them with its queue)
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return nanos / 1e6;
    }

    /**
     * Runs {@code round} until one adds under {@value #SETTLED_MILLIS} ms of JIT compilation, at most
     * {@value #MAX_ROUNDS} times.
     *
     * @return "N rounds, the last with M ms of JIT compilation", for the run's log
     */
    static String untilSettled(Round round) throws Exception {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        for (int n = 1; ; n++) {
            long before = jit.getTotalCompilationTime();
            round.run();
            long compiling = jit.getTotalCompilationTime() - before;
            if (compiling < SETTLED_MILLIS || n == MAX_ROUNDS) {
                return n + " rounds, the last with " + compiling + " ms of JIT compilation";
            }
        }
    }
}
