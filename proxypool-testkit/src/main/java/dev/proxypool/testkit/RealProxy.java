package dev.proxypool.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real proxy daemon from Debian's packages as a child process on a loopback port: squid (with or
 * without Basic authentication), dante's {@code danted} (SOCKS5) or tinyproxy. Each runs in the
 * foreground with a minimal config written to a directory of its own (removed on close), and is killed
 * on close. A
 * missing package fails the start with the package to install (never a skip); {@code .ci/run}
 * installs them.
 */
public final class RealProxy implements AutoCloseable {

    /** What kind of daemon, and the protocol a client speaks to it. */
    public enum Kind {
        SQUID("/usr/sbin/squid", "squid", "http"),
        DANTE("/usr/sbin/danted", "dante-server", "socks5"),
        TINYPROXY("/usr/bin/tinyproxy", "tinyproxy", "http");

        final Path binary;
        final String debianPackage;
        final String scheme;

        Kind(String binary, String debianPackage, String scheme) {
            this.binary = Path.of(binary);
            this.debianPackage = debianPackage;
            this.scheme = scheme;
        }
    }

    private static final Duration START = Duration.ofSeconds(20);

    private final Kind kind;
    private final Process process;
    private final Path dir;
    private final int port;
    private final String user;
    private final String password;

    private RealProxy(Kind kind, Process process, Path dir, int port, String user, String password) {
        this.kind = kind;
        this.process = process;
        this.dir = dir;
        this.port = port;
        this.user = user;
        this.password = password;
    }

    /**
     * Squid with no authentication: every loopback client may use it, CONNECT to any port.
     *
     * @return the running squid
     * @throws IOException when it does not start listening
     */
    public static RealProxy squid() throws IOException {
        return start(Kind.SQUID, null, null);
    }

    /**
     * Squid that answers 407 unless the client sends Basic credentials {@code user:password}.
     *
     * @param user     the one user it knows
     * @param password that user's password
     * @return the running squid
     * @throws IOException when it does not start listening
     */
    public static RealProxy squidWithAuth(String user, String password) throws IOException {
        return start(Kind.SQUID, user, password);
    }

    /**
     * Dante as a SOCKS5 proxy without authentication (CONNECT only).
     *
     * @return the running danted
     * @throws IOException when it does not start listening
     */
    public static RealProxy dante() throws IOException {
        return start(Kind.DANTE, null, null);
    }

    /**
     * Tinyproxy without authentication.
     *
     * @return the running tinyproxy
     * @throws IOException when it does not start listening
     */
    public static RealProxy tinyproxy() throws IOException {
        return start(Kind.TINYPROXY, null, null);
    }

    private static RealProxy start(Kind kind, String user, String password) throws IOException {
        if (!Files.isExecutable(kind.binary)) {
            throw new IOException(kind.binary + " is missing: install the Debian package " + kind.debianPackage);
        }
        IOException last = null;
        for (int attempt = 0; attempt < 3; attempt++) { // a free port may be taken before the daemon binds it
            int port = freePort();
            // squid and its auth helper drop privileges to their own user: their files go in a directory
            // of the system's temporary one that this user can reach (a test's @TempDir is private)
            Path dir = Files.createTempDirectory("proxypool-" + kind.name().toLowerCase() + "-");
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
            Path log = dir.resolve("out.log");
            List<String> command = command(kind, dir, port, user, password);
            Process p = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (awaitListening(p, port)) {
                return new RealProxy(kind, p, dir, port, user, password);
            }
            stop(p);
            last = new IOException(kind.binary + " did not listen on 127.0.0.1:" + port + ": " + tail(log));
            delete(dir);
        }
        throw last;
    }

    private static List<String> command(Kind kind, Path dir, int port, String user, String password)
            throws IOException {
        Path conf = dir.resolve(kind.name().toLowerCase() + ".conf");
        switch (kind) {
            case SQUID -> {
                StringBuilder c = new StringBuilder()
                        .append("http_port 127.0.0.1:")
                        .append(port)
                        .append('\n')
                        .append("visible_hostname proxypool-test-squid\n")
                        .append("pid_filename ")
                        .append(dir.resolve("squid.pid"))
                        .append('\n')
                        .append("cache_log ")
                        .append(dir.resolve("cache.log"))
                        .append('\n')
                        .append("access_log none\ncache deny all\ncache_mem 8 MB\n")
                        .append("coredump_dir ")
                        .append(dir)
                        .append('\n')
                        .append("shutdown_lifetime 1 seconds\nforwarded_for delete\nvia off\n");
                if (user != null) {
                    Path passwd = dir.resolve("passwd");
                    Files.writeString(passwd, user + ":" + apr1(password, dir) + "\n");
                    c.append("auth_param basic program /usr/lib/squid/basic_ncsa_auth ")
                            .append(passwd)
                            .append('\n')
                            .append("auth_param basic realm proxypool-test\n")
                            .append("acl authed proxy_auth REQUIRED\n")
                            .append("http_access allow authed\nhttp_access deny all\n");
                } else {
                    c.append("http_access allow all\n");
                }
                Files.writeString(conf, c);
                return List.of(kind.binary.toString(), "-N", "-f", conf.toString());
            }
            case DANTE -> {
                Files.writeString(conf, """
                        logoutput: %s
                        internal: 127.0.0.1 port = %d
                        external: 127.0.0.1
                        socksmethod: none
                        clientmethod: none
                        user.privileged: root
                        user.unprivileged: nobody
                        client pass { from: 127.0.0.0/8 to: 0.0.0.0/0 }
                        socks pass { from: 127.0.0.0/8 to: 0.0.0.0/0 command: connect }
                        """.formatted(dir.resolve("danted.log"), port));
                return List.of(
                        kind.binary.toString(),
                        "-f",
                        conf.toString(),
                        "-p",
                        dir.resolve("danted.pid").toString());
            }
            case TINYPROXY -> {
                Files.writeString(conf, """
                        Port %d
                        Listen 127.0.0.1
                        Timeout 15
                        MaxClients 64
                        LogLevel Warning
                        Allow 127.0.0.1
                        DisableViaHeader Yes
                        """.formatted(port));
                return List.of(kind.binary.toString(), "-d", "-c", conf.toString());
            }
            default -> throw new IllegalArgumentException(kind.name());
        }
    }

    /** An Apache MD5 ({@code $apr1$}) hash, the form squid's {@code basic_ncsa_auth} reads, by openssl. */
    private static String apr1(String password, Path dir) throws IOException {
        Process p = new ProcessBuilder("openssl", "passwd", "-apr1", "-stdin")
                .redirectError(dir.resolve("openssl.err").toFile())
                .start();
        p.getOutputStream().write((password + "\n").getBytes());
        p.getOutputStream().close();
        String hash = new String(p.getInputStream().readAllBytes()).trim();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0 || !hash.startsWith("$apr1$")) {
                throw new IOException("openssl passwd -apr1 failed: " + hash);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return hash;
    }

    private static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    /** True once the daemon accepts a connection on its port; false when it exits first (a port taken). */
    private static boolean awaitListening(Process p, int port) {
        String listening = "listening";
        String exited = "exited";
        return listening.equals(Await.atMost(START)
                .until(
                        "the proxy to listen on port " + port,
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

    private static String tail(Path log) {
        try {
            String s = Files.readString(log);
            return s.length() > 2_000 ? s.substring(s.length() - 2_000) : s;
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void stop(Process p) {
        p.destroy();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return which daemon this is */
    public Kind kind() {
        return kind;
    }

    /** @return its port on 127.0.0.1 */
    public int port() {
        return port;
    }

    /**
     * @return the proxy as a {@code text_list} line: {@code scheme://[user:password@]127.0.0.1:port}
     */
    public String url() {
        return kind.scheme + "://" + (user == null ? "" : user + ":" + password + "@") + "127.0.0.1:" + port;
    }

    /** Stops it (SIGTERM, then SIGKILL after 5 s); a stopped proxy's port refuses connections. */
    @Override
    public void close() {
        // squid's helpers (basic_ncsa_auth) are its children: found before the master goes, killed after it
        List<ProcessHandle> children = process.descendants().toList();
        stop(process);
        children.forEach(ProcessHandle::destroyForcibly);
        delete(dir);
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a leftover directory in the temporary one: nothing to fail a test for
        }
    }
}
