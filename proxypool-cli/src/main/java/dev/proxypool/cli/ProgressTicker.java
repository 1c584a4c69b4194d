package dev.proxypool.cli;

import dev.proxypool.core.task.BackgroundTasks;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Long work shows progress: a background task ({@link BackgroundTasks}, thread
 * {@code proxypool-progress}) prints {@code line}'s value on stderr every {@code every}, when it
 * changed since the last print (null = nothing to say yet). Stops on close.
 */
final class ProgressTicker implements AutoCloseable {

    private final BackgroundTasks tasks = BackgroundTasks.of("progress");
    private final PrintWriter err;
    private final Supplier<String> line;
    private String last; // the task's thread only

    ProgressTicker(PrintWriter err, Duration every, Supplier<String> line) {
        this.err = err;
        this.line = line;
        tasks.every("proxypool-progress", every, this::printIfChanged);
    }

    private void printIfChanged() {
        String now = line.get();
        if (now != null && !now.equals(last)) {
            err.println(now);
            err.flush();
            last = now;
        }
    }

    @Override
    public void close() {
        tasks.close();
    }
}
