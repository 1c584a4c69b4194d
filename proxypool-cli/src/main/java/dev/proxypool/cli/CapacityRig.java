package dev.proxypool.cli;

import dev.proxypool.cli.bench.capacity.SimUpstream;
import dev.proxypool.cli.bench.capacity.TrafficProfile;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.server.ProxyPoolServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What {@code proxypool bench capacity} starts itself: the simulated upstream proxies and, without
 * {@code --gateway}, a gateway in this process, either from {@code --config} or from a generated
 * configuration (TLS on the gateway listener with a throw-away certificate, a client with a secret,
 * a destination allow-list, the SOCKS5 listener, every simulated upstream in one routing). Its
 * temporary directory goes with {@link #close()}.
 */
final class CapacityRig implements AutoCloseable {

    static final String CLIENT = "bench";

    /** Generated, not a secret: the gateway only listens on loopback for the run's length. */
    static final String CLIENT_SECRET = "bench-secret-0123456789";

    private final List<AutoCloseable> parts;
    private final Path dir;
    private final ProxyPoolServer server;
    private final List<SimUpstream> upstreams;

    private CapacityRig(List<AutoCloseable> parts, Path dir, ProxyPoolServer server, List<SimUpstream> upstreams) {
        this.parts = parts;
        this.dir = dir;
        this.server = server;
        this.upstreams = upstreams;
    }

    /** Only the simulated upstreams (the gateway runs elsewhere). */
    static CapacityRig upstreams(TrafficProfile profile, int count) throws IOException {
        List<AutoCloseable> parts = new ArrayList<>();
        try {
            return new CapacityRig(parts, null, null, startUpstreams(parts, profile, count));
        } catch (IOException | RuntimeException e) {
            closeAll(parts);
            throw e;
        }
    }

    /**
     * The upstreams and a gateway: from {@code config} when given (its own upstreams, routing and
     * listeners), else from the generated configuration.
     */
    static CapacityRig withGateway(TrafficProfile profile, int count, Path config) throws IOException {
        List<AutoCloseable> parts = new ArrayList<>();
        Path dir = null;
        try {
            List<SimUpstream> ups = startUpstreams(parts, profile, count);
            ProxyPoolServer server;
            if (config != null) {
                server = ServerFactory.start(
                        ConfigLoader.load(config), config.toAbsolutePath().getParent());
            } else {
                dir = Files.createTempDirectory("proxypool-capacity");
                Path cfg = writeConfig(dir, profile, ups);
                ProxyPoolConfig c = ConfigLoader.load(cfg, Map.of());
                server = ServerFactory.start(c, dir);
            }
            parts.add(0, server);
            return new CapacityRig(parts, dir, server, ups);
        } catch (IOException | RuntimeException e) {
            closeAll(parts);
            deleteTree(dir);
            throw e;
        }
    }

    private static List<SimUpstream> startUpstreams(List<AutoCloseable> parts, TrafficProfile profile, int count)
            throws IOException {
        List<SimUpstream> ups = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            SimUpstream u = SimUpstream.start(profile.rtt(), profile.failures(), 1000L + i);
            parts.add(u);
            ups.add(u);
        }
        return ups;
    }

    private static Path writeConfig(Path dir, TrafficProfile profile, List<SimUpstream> ups) throws IOException {
        StringBuilder inv = new StringBuilder();
        for (SimUpstream u : ups) {
            inv.append("{\"host\": \"127.0.0.1\", \"port\": ")
                    .append(u.port())
                    .append(
                            ", \"protocol\": \"http\", \"labels\": {\"country\": \"US\"}, \"maxConcurrency\": 100000}\n");
        }
        Files.writeString(dir.resolve("upstreams.jsonl"), inv.toString());
        String tls = "";
        if (profile.tls()) {
            selfSignedCertificate(dir);
            tls = ", gatewayTls: { certFile: gateway.pem, keyFile: gateway.key }";
        }
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                # proxypool bench capacity: a gateway on loopback in front of the simulated upstreams
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0, socksPort: 0%s }
                store: { type: memory }
                clients: [{ name: %s, secret: %s }]
                providers: [{ name: sim, type: jsonl_inventory, path: upstreams.jsonl }]
                upstreams: [{ name: sim, provider: sim, validate: false }]
                routings: [{ name: default, strategy: roundRobin, sticky: { enabled: true }, upstreams: [sim] }]
                health: { active: { enabled: false } }
                security: { allowDestinations: ["127.0.0.0/8"], connectPorts: [443], allowAnonymous: %s }
                """.formatted(tls, CLIENT, CLIENT_SECRET, !profile.auth()));
        return cfg;
    }

    /** A throw-away EC certificate for 127.0.0.1 by the {@code openssl} command (the JDK has no public API to sign one). */
    private static void selfSignedCertificate(Path dir) throws IOException {
        Process p = new ProcessBuilder(
                        "openssl",
                        "req",
                        "-x509",
                        "-newkey",
                        "ec",
                        "-pkeyopt",
                        "ec_paramgen_curve:prime256v1",
                        "-nodes",
                        "-keyout",
                        "gateway.key",
                        "-out",
                        "gateway.pem",
                        "-days",
                        "2",
                        "-subj",
                        "/CN=127.0.0.1",
                        "-addext",
                        "subjectAltName=IP:127.0.0.1")
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("openssl.log").toFile())
                .start();
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("openssl could not make the gateway's test certificate (see "
                        + dir.resolve("openssl.log") + "); or run with --no-tls");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while making the test certificate", e);
        }
    }

    ProxyPoolServer server() {
        return server;
    }

    List<SimUpstream> simUpstreams() {
        return upstreams;
    }

    @Override
    public void close() {
        closeAll(parts);
        deleteTree(dir);
    }

    private static void closeAll(List<AutoCloseable> parts) {
        for (AutoCloseable c : parts) {
            try {
                c.close();
            } catch (Exception ignored) {
                // stopping: best effort
            }
        }
    }

    private static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
