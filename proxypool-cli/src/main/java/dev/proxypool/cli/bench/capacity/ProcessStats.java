package dev.proxypool.cli.bench.capacity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A worker process's CPU time and resident memory from {@code /proc/<pid>} (Linux), read when the
 * command started the worker itself (then it is this JVM, driver and simulated upstreams included)
 * or was given {@code --worker-pid}. Absent elsewhere.
 */
public record ProcessStats(long cpuNanos, long rssBytes) {

    /** USER_HZ: 100 on every Linux this runs on. */
    private static final long TICK_NANOS = 10_000_000L;

    /** The process's figures now, or null when /proc cannot be read. */
    public static ProcessStats read(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // fields after the parenthesised command name; utime and stime are the 14th and 15th
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
            long rssKb = 0;
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    rssKb = Long.parseLong(line.substring(6).strip().split("\\s+")[0]);
                }
            }
            return new ProcessStats(ticks * TICK_NANOS, rssKb * 1024);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
