package dev.proxypool.server.e2e.redis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server of the test's own on a free loopback port (never the shared one on 6379) with an
 * append-only file fsynced before every reply ({@code appendfsync always}), so a test may SIGKILL
 * it and start it again on the same port and data: every write a client saw acknowledged is back.
 */
final class DurableRedis implements AutoCloseable {

    private static final String BINARY = "/usr/bin/redis-server";

    final int port;
    private final Path dir;
    private Process process;

    private DurableRedis(int port, Path dir) {
        this.port = port;
        this.dir = dir;
    }

    static DurableRedis start(Path dir) {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        DurableRedis r = new DurableRedis(port, dir);
        r.launch();
        return r;
    }

    /** Starts the server (again) on {@link #port} over the same data; returns once it accepts connections. */
    void launch() {
        try {
            process = new ProcessBuilder(BINARY, "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--dir", dir.toString(), "--save", "", "--appendonly", "yes", "--appendfsync", "always",
                    "--daemonize", "no").redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + BINARY, e);
        }
        CountDownLatch ready = new CountDownLatch(1);
        StringBuilder log = new StringBuilder();
        Process p = process;
        Thread.ofVirtual().start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    synchronized (log) {
                        log.append(line).append('\n');
                    }
                    if (line.contains("Ready to accept connections")) {
                        ready.countDown();
                    }
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
        try {
            if (!ready.await(15, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                synchronized (log) {
                    throw new IllegalStateException("redis-server on port " + port + " did not start:\n" + log);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** SIGKILL: no shutdown, no reply to anyone in flight. */
    void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("redis-server on port " + port + " did not die");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            kill();
        }
    }
}
