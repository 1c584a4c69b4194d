package dev.proxypool.server.reliability;

import dev.proxypool.testkit.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real squid (Debian package {@code squid}) in the foreground ({@code -N}) on a loopback port, no
 * cache, every request allowed (it listens on 127.0.0.1 only); killed on close.
 */
final class Squid implements AutoCloseable {

    static final Path SQUID = Path.of("/usr/sbin/squid");

    private final Process process;
    private final int port;

    private Squid(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts one with its files in a directory of its own under {@code dir}. */
    static Squid start(Path dir) throws IOException, InterruptedException {
        IOException last = null;
        for (int attempt = 0; attempt < 3; attempt++) { // a free port may be taken before squid binds it
            int port;
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = probe.getLocalPort();
            }
            // squid started as root runs as its own user: its files go where that user may write
            Path home = Files.createTempDirectory(dir, "squid-" + port + "-");
            Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxrwxrwx"));
            Path conf = home.resolve("squid.conf");
            Files.writeString(conf, """
                    http_port 127.0.0.1:%d
                    pid_filename %s
                    cache_log %s
                    access_log none
                    cache deny all
                    coredump_dir %s
                    shutdown_lifetime 0 seconds
                    http_access allow all
                    """.formatted(port, home.resolve("squid.pid"), home.resolve("cache.log"), home));
            Process p = new ProcessBuilder(SQUID.toString(), "-N", "-f", conf.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(home.resolve("out.log").toFile())
                    .start();
            if (awaitListening(p, port, Duration.ofSeconds(20))) {
                return new Squid(p, port);
            }
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            last = new IOException(
                    "squid did not listen on 127.0.0.1:" + port + ": " + Files.readString(home.resolve("out.log")));
        }
        throw last;
    }

    private static boolean awaitListening(Process p, int port, Duration timeout) {
        String listening = "listening";
        String exited = "exited";
        return listening.equals(Await.atMost(timeout)
                .until(
                        "squid to listen on port " + port,
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

    int port() {
        return port;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }
}
