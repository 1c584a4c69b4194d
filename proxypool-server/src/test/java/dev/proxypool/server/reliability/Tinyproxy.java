package dev.proxypool.server.reliability;

import dev.proxypool.testkit.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real tinyproxy (Debian package {@code tinyproxy}) in the foreground ({@code -d}) on a loopback port,
 * with a minimal config; killed on close.
 */
public final class Tinyproxy implements AutoCloseable {
    private static final Path TINYPROXY = Path.of("/usr/bin/tinyproxy");

    final Process process;
    final int port;

    private Tinyproxy(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts one in {@code dir} (its config and log files go there). */
    public static Tinyproxy start(Path dir) throws IOException, InterruptedException {
        IOException last = null;
        for (int attempt = 0; attempt < 3; attempt++) { // a free port may be taken before tinyproxy binds it
            int port;
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = probe.getLocalPort();
            }
            Path conf = dir.resolve("tinyproxy-" + attempt + ".conf");
            Files.writeString(conf, """
                    Port %d
                    Listen 127.0.0.1
                    Timeout 15
                    MaxClients 64
                    LogLevel Warning
                    Allow 127.0.0.1
                    DisableViaHeader Yes
                    """.formatted(port));
            Process p = new ProcessBuilder(TINYPROXY.toString(), "-d", "-c", conf.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("tinyproxy-" + attempt + ".log").toFile())
                    .start();
            if (awaitListening(p, port, Duration.ofSeconds(10))) {
                return new Tinyproxy(p, port);
            }
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            last = new IOException("tinyproxy did not listen on 127.0.0.1:" + port + ": "
                    + Files.readString(dir.resolve("tinyproxy-" + attempt + ".log")));
        }
        throw last;
    }

    private static boolean awaitListening(Process p, int port, Duration timeout) {
        String listening = "listening";
        String exited = "exited";
        return listening.equals(Await.atMost(timeout)
                .until(
                        "tinyproxy to listen on port " + port,
                        () -> {
                            if (!p.isAlive()) {
                                return exited;
                            }
                            try (Socket s = new Socket()) {
                                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
                                return listening;
                            }
                        },
                        s -> s.equals(listening) || s.equals(exited)));
    }

    /** Its port on 127.0.0.1. */
    public int port() {
        return port;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
