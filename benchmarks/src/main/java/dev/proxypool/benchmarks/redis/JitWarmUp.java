package dev.proxypool.benchmarks.redis;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

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

    private JitWarmUp() {}

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
