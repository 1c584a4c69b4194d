package dev.proxypool.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Long work shows progress: a virtual thread prints {@code line}'s value on stderr every
 * {@code every}, when it changed since the last print (null = nothing to say yet). Stops on close.
 */
final class ProgressTicker implements AutoCloseable {

    private final Thread thread;

    ProgressTicker(PrintWriter err, Duration every, Supplier<String> line) {
        this.thread = Thread.ofVirtual().name("proxypool-progress").start(() -> {
            String last = null;
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(every);
                    String now = line.get();
                    if (now != null && !now.equals(last)) {
                        err.println(now);
                        err.flush();
                        last = now;
                    }
                }
            } catch (InterruptedException stop) {
                // closed
            }
        });
    }

    @Override
    public void close() {
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
