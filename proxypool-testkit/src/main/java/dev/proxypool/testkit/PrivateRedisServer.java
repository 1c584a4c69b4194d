package dev.proxypool.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A redis-server of the test's own on a free loopback port — never the machine's shared Redis on
 * 6379 — that a test may SIGKILL and start again on the same port ({@link #kill()},
 * {@link #launch()}). Without a data directory it keeps nothing; with one ({@link #durable(Path)})
 * it writes an append-only file fsynced before every reply, so every write a client saw
 * acknowledged survives a kill.
 */
public final class PrivateRedisServer implements AutoCloseable {

    private static final String BINARY = "/usr/bin/redis-server";

    private final int port;
    private final Path dataDir;
    private Process process;

    private PrivateRedisServer(int port, Path dataDir) {
        this.port = port;
        this.dataDir = dataDir;
    }

    /** An in-memory server, started. */
    public static PrivateRedisServer start() {
        PrivateRedisServer r = new PrivateRedisServer(freePort(), null);
        r.launch();
        return r;
    }

    /** A server keeping its data in {@code dir} (append-only, fsync always), started. */
    public static PrivateRedisServer durable(Path dir) {
        PrivateRedisServer r = new PrivateRedisServer(freePort(), dir);
        r.launch();
        return r;
    }

    public int port() {
        return port;
    }

    /** A free loopback port (nothing listens on it once this returns). */
    public static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts the server (again) on {@link #port()}; returns once it accepts connections. */
    public void launch() {
        List<String> cmd = new ArrayList<>(List.of(
                BINARY, "--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--daemonize", "no"));
        if (dataDir == null) {
            cmd.addAll(List.of("--appendonly", "no"));
        } else {
            cmd.addAll(List.of("--dir", dataDir.toString(), "--appendonly", "yes", "--appendfsync", "always"));
        }
        try {
            process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + BINARY, e);
        }
        CountDownLatch ready = new CountDownLatch(1);
        StringBuilder log = new StringBuilder();
        Process p = process;
        Thread.ofVirtual().start(() -> {
            try (BufferedReader in =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
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
    public void kill() {
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
