package dev.proxypool.testkit.fuzz;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * One fuzz run over one target: derives a generator per input from the run seed, runs every
 * input's attempt under a stopwatch, counts what was accepted and what was rejected (by kind), and
 * turns anything unexpected into an {@link AssertionError} that carries the seed, the input's index
 * and the input itself, so a failure is reproducible with {@code -Dproxypool.fuzz.seed=<seed>}
 * (and {@code -Dproxypool.fuzz.only=<index>} to run that one input alone).
 *
 * <p>Input {@code i}'s generator depends only on the seed, the target name and {@code i}, never on
 * what earlier inputs drew, so one input is reproduced without replaying the others.
 *
 * <p>System properties: {@code proxypool.fuzz.seed} (default: {@link #DEFAULT_SEED}, so the build is
 * reproducible — a red build is always the code's doing; {@code random} draws a new seed, printed,
 * to explore beyond the inputs the build runs),
 * {@code proxypool.fuzz.inputs} (overrides every target's input count), {@code proxypool.fuzz.only}.
 * Not thread-safe: one run is driven by one thread.
 */
public final class FuzzRun {

    public static final String SEED_PROPERTY = "proxypool.fuzz.seed";
    /** The seed of every build; other seeds are explored with {@code -Dproxypool.fuzz.seed=random}. */
    public static final long DEFAULT_SEED = 6004880013307523043L;

    public static final String INPUTS_PROPERTY = "proxypool.fuzz.inputs";
    public static final String ONLY_PROPERTY = "proxypool.fuzz.only";

    private static final int SHOWN_BYTES = 300;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    /** What one input did: parsed (accepted) or refused the documented way (rejected), with a kind for the counts. */
    public record Outcome(boolean accepted, String kind) {
        public static Outcome parsed() {
            return new Outcome(true, "accepted");
        }

        public static Outcome parsed(String kind) {
            return new Outcome(true, kind);
        }

        public static Outcome refused(String kind) {
            return new Outcome(false, kind);
        }
    }

    /** Runs one input through the target (timed); anything it throws is a finding. */
    @FunctionalInterface
    public interface Attempt<T> {
        T run() throws Throwable;
    }

    /** Checks what the target made of one input (not timed) and classifies it; a failed assertion is a finding. */
    @FunctionalInterface
    public interface Verdict<T> {
        Outcome judge(T result) throws Throwable;
    }

    /** Generates and checks input {@code index} from its own generator. */
    @FunctionalInterface
    public interface Case {
        void run(int index, SplittableRandom random) throws Throwable;
    }

    private final String target;
    private final long seed;
    private final int inputs;
    private final long maxCpuNanos;
    private final long maxWallNanos;
    private final long budgetNanos;
    private final long startNanos;
    private final long startCpuNanos;
    private final Map<String, Integer> kinds = new TreeMap<>();
    private long accepted;
    private long rejected;
    private long maxNanos;
    private long maxCpu;
    private long targetNanos;
    private int slowest = -1;

    private FuzzRun(String target, long seed, int inputs, Duration maxCpu, Duration maxWall, Duration budget) {
        this.target = target;
        this.seed = seed;
        this.inputs = inputs;
        this.maxCpuNanos = maxCpu.toNanos();
        this.maxWallNanos = maxWall.toNanos();
        this.budgetNanos = budget.toNanos();
        this.startNanos = System.nanoTime();
        this.startCpuNanos = cpu();
    }

    /**
     * Starts a run.
     *
     * @param target         a stable name; part of every input's seed and of every message
     * @param inputs         how many inputs (unless {@code proxypool.fuzz.inputs} says otherwise)
     * @param maxCpuPerInput no single input may use more CPU time in the target (CPU time, not wall
     *                       time: a runaway parse burns CPU, and a box shared with other builds
     *                       must not make a fast input look slow)
     * @param maxWallPerInput no single input may take longer, waiting included (a hang)
     * @param budget         the whole run must finish within this wall time
     */
    public static FuzzRun start(
            String target, int inputs, Duration maxCpuPerInput, Duration maxWallPerInput, Duration budget) {
        String s = System.getProperty(SEED_PROPERTY);
        long seed = s == null || s.isBlank()
                ? DEFAULT_SEED
                : s.trim().equalsIgnoreCase("random") ? new SplittableRandom().nextLong() : Long.parseLong(s.trim());
        String n = System.getProperty(INPUTS_PROPERTY);
        int count = n == null || n.isBlank() ? inputs : Integer.parseInt(n.trim());
        return new FuzzRun(target, seed, count, maxCpuPerInput, maxWallPerInput, budget);
    }

    /**
     * An in-process run: at most 1 s of CPU per input (the bound that matters), 10 s of wall time per
     * input and 240 s for the run (deadlines against hangs, generous for a box shared with other builds).
     */
    public static FuzzRun inProcess(String target, int inputs) {
        return start(target, inputs, Duration.ofSeconds(1), Duration.ofSeconds(10), Duration.ofSeconds(240));
    }

    /** A run over real sockets: 20 s per input (above every client timeout), 240 s for the run. */
    public static FuzzRun live(String target, int inputs) {
        return start(target, inputs, Duration.ofSeconds(5), Duration.ofSeconds(20), Duration.ofSeconds(240));
    }

    public long seed() {
        return seed;
    }

    public int inputs() {
        return inputs;
    }

    /** Input {@code index}'s own generator. */
    public SplittableRandom random(int index) {
        return new SplittableRandom(mix(seed ^ mix(target.hashCode()) ^ mix(0x9E3779B97F4A7C15L * (index + 1))));
    }

    /** Runs {@code body} for every input (or only {@code proxypool.fuzz.only}), each with its own generator. */
    public void forEach(Case body) throws Throwable {
        String only = System.getProperty(ONLY_PROPERTY);
        if (only != null && !only.isBlank()) {
            int i = Integer.parseInt(only.trim());
            body.run(i, random(i));
            return;
        }
        for (int i = 0; i < inputs; i++) {
            body.run(i, random(i));
        }
    }

    /** {@link #check(int, byte[], Attempt, Verdict)} of a text input (shown as UTF-8 in a failure). */
    public <T> Outcome check(int index, String input, Attempt<T> attempt, Verdict<T> verdict) {
        return check(index, input.getBytes(StandardCharsets.UTF_8), attempt, verdict);
    }

    /**
     * Runs {@code attempt} under the stopwatch, then {@code verdict} on its result. Anything either
     * throws (an exception that escaped the target, or a failed assertion about its answer), an
     * attempt slower than the per-input bound, or a missing outcome fails the run with the input shown.
     */
    public <T> Outcome check(int index, byte[] input, Attempt<T> attempt, Verdict<T> verdict) {
        long c0 = cpu();
        long t0 = System.nanoTime();
        T result;
        try {
            result = attempt.run();
        } catch (Throwable t) {
            throw failure(index, input, t.getClass().getName() + " escaped: " + t.getMessage(), t);
        }
        long took = System.nanoTime() - t0;
        long cpu = cpu() - c0;
        targetNanos += took;
        if (took > maxNanos) {
            maxNanos = took;
            slowest = index;
        }
        maxCpu = Math.max(maxCpu, cpu);
        if (cpu > maxCpuNanos || took > maxWallNanos) {
            throw failure(
                    index,
                    input,
                    "took " + took / 1_000_000 + " ms (" + cpu / 1_000_000 + " ms CPU), over the"
                            + " per-input bound of " + maxCpuNanos / 1_000_000 + " ms CPU / " + maxWallNanos / 1_000_000
                            + " ms",
                    null);
        }
        Outcome o;
        try {
            o = verdict.judge(result);
        } catch (Throwable t) {
            throw failure(index, input, "wrong answer: " + t.getMessage() + " (result: " + result + ")", t);
        }
        if (o == null) {
            throw failure(index, input, "the verdict returned no outcome", null);
        }
        if (o.accepted()) {
            accepted++;
        } else {
            rejected++;
        }
        kinds.merge(o.kind(), 1, Integer::sum);
        return o;
    }

    /** A finding about input {@code index}: the message carries everything needed to reproduce it. */
    public AssertionError failure(int index, byte[] input, String problem, Throwable cause) {
        return new AssertionError(
                "[fuzz " + target + "] input #" + index + ": " + problem
                        + "\n  reproduce: -D" + SEED_PROPERTY + "=" + seed + " -D" + ONLY_PROPERTY + "=" + index
                        + "\n  input (" + input.length + " bytes): " + show(input),
                cause);
    }

    /** Asserts an invariant of the whole run (not of one input); skipped when one input is replayed alone. */
    public void require(boolean condition, String problem) {
        String only = System.getProperty(ONLY_PROPERTY);
        if (!condition && (only == null || only.isBlank())) {
            throw new AssertionError("[fuzz " + target + "] " + problem + " (-D" + SEED_PROPERTY + "=" + seed + ")");
        }
    }

    public long accepted() {
        return accepted;
    }

    public long rejected() {
        return rejected;
    }

    /** How often each outcome kind occurred. */
    public Map<String, Integer> kinds() {
        return Map.copyOf(kinds);
    }

    public Duration maxPerInput() {
        return Duration.ofNanos(maxNanos);
    }

    public Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    /**
     * Prints the summary line and checks the whole-run invariants: every input ran, within the budget.
     *
     * @return the summary line
     */
    public String finish() {
        String line = summary();
        System.out.println(line);
        require(accepted + rejected == inputs, "ran " + (accepted + rejected) + " of " + inputs + " inputs");
        require(
                System.nanoTime() - startNanos <= budgetNanos,
                "took " + elapsed().toMillis() + " ms, over the run budget of " + budgetNanos / 1_000_000 + " ms");
        return line;
    }

    /**
     * {@code [fuzz target] seed=… inputs=… accepted=… rejected=… maxPerInput=…ms (#i, max CPU …ms) inTarget=…ms
     * elapsed=…ms cpu=…ms kinds={…}}: maxPerInput is the slowest input's wall time; inTarget the wall time
     * spent in the target, the rest of elapsed went to generating and checking; cpu is the driving
     * thread's CPU time for the whole run (the figure that does not depend on how busy the box is).
     */
    public String summary() {
        return "[fuzz " + target + "] seed=" + seed + " inputs=" + (accepted + rejected) + " accepted=" + accepted
                + " rejected=" + rejected + " maxPerInput=" + String.format("%.2f", maxNanos / 1e6) + "ms (#" + slowest
                + ", max CPU " + String.format("%.2f", maxCpu / 1e6) + "ms) inTarget=" + targetNanos / 1_000_000
                + "ms elapsed=" + elapsed().toMillis() + "ms cpu=" + (cpu() - startCpuNanos) / 1_000_000 + "ms kinds="
                + top(kinds);
    }

    private static String top(Map<String, Integer> kinds) {
        StringBuilder sb = new StringBuilder("{");
        kinds.entrySet().stream()
                .sorted((a, b) -> b.getValue() - a.getValue())
                .limit(12)
                .forEach(e -> sb.append(sb.length() > 1 ? ", " : "")
                        .append(e.getKey())
                        .append('=')
                        .append(e.getValue()));
        if (kinds.size() > 12) {
            sb.append(", … ").append(kinds.size() - 12).append(" more");
        }
        return sb.append('}').toString();
    }

    /** Printable ASCII as is, everything else as {@code \xNN}; long inputs cut in the middle. */
    static String show(byte[] b) {
        StringBuilder sb = new StringBuilder();
        int n = b.length;
        for (int i = 0; i < n; i++) {
            if (n > 2 * SHOWN_BYTES && i == SHOWN_BYTES) {
                sb.append("…[").append(n - 2 * SHOWN_BYTES).append(" bytes]…");
                i = n - SHOWN_BYTES;
            }
            int c = b[i] & 0xff;
            if (c >= 0x20 && c < 0x7f && c != '\\') {
                sb.append((char) c);
            } else if (c == '\\') {
                sb.append("\\\\");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c == '\n') {
                sb.append("\\n");
            } else {
                sb.append(String.format("\\x%02x", c));
            }
        }
        return sb.toString();
    }

    private static long cpu() {
        return CPU.getCurrentThreadCpuTime();
    }

    /** SplitMix64's finalizer: spreads close seeds apart. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
