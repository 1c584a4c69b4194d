package dev.proxypool.server.e2e.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A child JVM running one of this package's main classes with the test classpath; its stdout lines
 * are kept with their arrival time (monotonic) so a test can wait for a line and measure when it came.
 */
final class ChildJvm implements AutoCloseable {

    record Line(String text, long atNanos) {}

    private final String name;
    private final Process process;
    private final Writer stdin;
    private final List<Line> lines = new ArrayList<>();
    private final StringBuilder stderr = new StringBuilder();

    private ChildJvm(String name, Process process) {
        this.name = name;
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread.ofVirtual()
                .start(() -> pump(
                        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)),
                        false));
        Thread.ofVirtual()
                .start(() -> pump(
                        new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)),
                        true));
    }

    /** System properties passed on to a child: the gateway's transport choice. */
    private static final List<String> DATA_PLANE_SWITCHES = List.of("proxypool.gateway.epoll");

    static ChildJvm start(String name, Class<?> main, String... args) {
        return start(name, "192m", main, args);
    }

    /** A child with a heap of {@code maxHeap} (a {@code -Xmx} value). */
    static ChildJvm start(String name, String maxHeap, Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + maxHeap,
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Xshare:auto",
                "--sun-misc-unsafe-memory-access=allow"));
        // the data plane's internal switches reach the child too, so a run on the event loops tests its gateway
        for (String p : DATA_PLANE_SWITCHES) {
            String v = System.getProperty(p);
            if (v != null) {
                cmd.add("-D" + p + "=" + v);
            }
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(List.of(args));
        try {
            return new ChildJvm(name, new ProcessBuilder(cmd).start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name, e);
        }
    }

    private void pump(BufferedReader in, boolean err) {
        try (in) {
            for (String l; (l = in.readLine()) != null; ) {
                long now = System.nanoTime();
                synchronized (this) {
                    if (err) {
                        if (stderr.length() < 20_000) {
                            stderr.append(l).append('\n');
                        }
                    } else {
                        lines.add(new Line(l, now));
                    }
                    notifyAll();
                }
            }
        } catch (IOException ignored) {
            // the process ended
        }
    }

    void send(String command) {
        try {
            stdin.write(command + "\n");
            stdin.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(name + " does not take input", e);
        }
    }

    /** Index of the next line to arrive: pass to {@link #await} to see only later lines. */
    synchronized int mark() {
        return lines.size();
    }

    /** The first line at or after {@code from} matching {@code p}, waiting up to {@code timeout}. */
    synchronized Line await(int from, Predicate<String> p, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int i = from; ; ) {
            for (; i < lines.size(); i++) {
                if (p.test(lines.get(i).text())) {
                    return lines.get(i);
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || !process.isAlive() && i == lines.size()) {
                throw new AssertionError(name + ": no matching line within " + timeout + "; stdout tail "
                        + lines.subList(Math.max(0, lines.size() - 10), lines.size()) + "\nstderr:\n" + stderr);
            }
            TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, 100_000_000));
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL, and wait for the end. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
