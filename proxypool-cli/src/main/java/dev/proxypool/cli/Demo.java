package dev.proxypool.cli;

import dev.proxypool.cli.demo.DemoHttpProxy;
import dev.proxypool.cli.demo.DemoOrigin;
import dev.proxypool.cli.demo.DemoSocksProxy;
import dev.proxypool.cli.demo.DemoTls;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The running demo of {@code proxypool demo}: local origins, three gateway proxies (HTTP, HTTP with
 * auth, SOCKS5; upstream {@code demo}, the only one the gateway routes to) and a separate
 * extraction inventory (upstream {@code sessions}: {@value #SESSIONS} session users on one local
 * proxy, listed inline as {@code http://session-N:demo-pass@...}), so extracting, which is
 * permanent, never drains the gateway. The lease API (a {@code CONNECT} to port 443 as the routing
 * table sees it) has its own routing, {@code leases}, over {@code sessions}; the SOCKS5 listener
 * may reach the origins' ports ({@code security.connectPorts}). Its config and credentials live in
 * a temporary directory that {@link #close()} deletes.
 */
final class Demo implements AutoCloseable {

    /** Extractable proxies of the {@code sessions} upstream. */
    static final int SESSIONS = 500;

    /** The REST port of {@code proxypool demo} without {@code --api-port}, also the CLI's {@code --api} default. */
    static final int DEFAULT_API_PORT = 9090;

    /** The demo client's API token. */
    static final String TOKEN = "demo-token-0123456789";

    private final List<AutoCloseable> parts;
    private final Path dir;
    private final Path config;
    private final ProxyPoolServer server;
    private final DemoOrigin origin;
    private final DemoOrigin tlsOrigin;

    private Demo(
            List<AutoCloseable> parts,
            Path dir,
            Path config,
            ProxyPoolServer server,
            DemoOrigin origin,
            DemoOrigin tlsOrigin) {
        this.parts = parts;
        this.dir = dir;
        this.config = config;
        this.server = server;
        this.origin = origin;
        this.tlsOrigin = tlsOrigin;
    }

    /**
     * Starts everything; on failure, whatever had started is stopped and the directory removed.
     *
     * @param gatewayPort 0 for any free port
     * @param apiPort     0 for any free port
     */
    static Demo start(int gatewayPort, int apiPort) throws IOException {
        List<AutoCloseable> parts = new ArrayList<>();
        Path dir = null;
        try {
            dir = Files.createTempDirectory("proxypool-demo");
            DemoOrigin origin = add(parts, DemoOrigin.http());
            DemoOrigin tlsOrigin = add(parts, DemoOrigin.https(DemoTls.selfSignedServer(dir)));
            DemoHttpProxy http = add(parts, DemoHttpProxy.open());
            DemoHttpProxy httpAuth = add(parts, DemoHttpProxy.withBasicAuth("demo-user", "demo-pass"));
            DemoSocksProxy socks = add(parts, DemoSocksProxy.open());
            // the vendor-style session gateway: admits any session-N user, so every listed session works
            DemoHttpProxy sessions = add(parts, DemoHttpProxy.open());
            Files.writeString(
                    dir.resolve("credentials.properties"), "demo.username=demo-user\ndemo.password=demo-pass\n");
            Files.writeString(
                    dir.resolve("inventory.jsonl"),
                    proxy(http.port(), "http", "", "US")
                            + proxy(httpAuth.port(), "http", "demo", "US")
                            + proxy(socks.port(), "socks5", "", "DE"));
            StringBuilder list =
                    new StringBuilder("# extraction inventory: one session user per line, like a residential vendor\n");
            for (int i = 1; i <= SESSIONS; i++) {
                list.append("http://session-")
                        .append(i)
                        .append(":demo-pass@127.0.0.1:")
                        .append(sessions.port())
                        .append('\n');
            }
            Files.writeString(dir.resolve("sessions.txt"), list.toString());
            Path config = dir.resolve("proxypool.yaml");
            Files.writeString(config, """
                    # proxypool demo: everything on loopback
                    server: { host: 127.0.0.1, gatewayPort: %d, apiPort: %d, socksPort: 0 }
                    credentials: { file: credentials.properties }
                    providers:
                      - { name: demo, type: jsonl_inventory, path: inventory.jsonl }
                      - { name: sessions, type: text_list, path: sessions.txt, labels: { country: US } }
                    # demo serves the gateway; sessions is the extraction inventory (extraction is permanent)
                    upstreams: [{ name: demo, provider: demo, validate: false },
                                { name: sessions, provider: sessions, validate: false }]
                    # a demo client: token for the Distribution API; the gateway also admits anonymous callers
                    clients: [{ name: demo, secret: demo-secret, token: demo-token-0123456789 }]
                    # the operations console and Admin API (a demo token: choose a long random one for real use)
                    admin: { token: demo-admin-0123456789 }
                    # the lease API (proxypool acquire, POST /v1/proxy/acquire) asks the routing table as a
                    # CONNECT to port 443, which no tour line uses: leases come from the session proxies
                    routings:
                      - { name: leases, match: { ports: [443] }, upstreams: [sessions] }
                      - { name: default, strategy: roundRobin, sticky: { enabled: true }, upstreams: [demo] }
                    # a SOCKS5 connection is a tunnel: it may reach only connectPorts, so the origins' ports are listed
                    security: { allowDestinations: ["127.0.0.0/8", "localhost"], connectPorts: [443, 8443, %d, %d], allowAnonymous: true }
                    """.formatted(gatewayPort, apiPort, origin.port(), tlsOrigin.port()));
            ProxyPoolServer server = ServerFactory.start(ConfigLoader.load(config), dir);
            parts.add(0, server);
            return new Demo(parts, dir, config, server, origin, tlsOrigin);
        } catch (IOException | RuntimeException e) {
            closeAll(parts);
            deleteTree(dir);
            throw e;
        }
    }

    ProxyPoolServer server() {
        return server;
    }

    DemoOrigin origin() {
        return origin;
    }

    Path dir() {
        return dir;
    }

    /** What {@code proxypool demo} prints once everything runs. */
    String banner() {
        int gw = server.gatewayPort();
        int api = server.apiPort();
        String echo = origin.url("/echo");
        // the CLI's --api default is the demo's default port: name it only when the demo runs elsewhere
        String apiOption = api == DEFAULT_API_PORT ? "" : " --api http://127.0.0.1:" + api;
        return """
                proxypool demo is running (config: %s)
                  gateway  http://127.0.0.1:%d     REST  http://127.0.0.1:%d     SOCKS5  127.0.0.1:%d
                  3 local upstream proxies for the gateway (http, http with auth, socks5), a local origin,
                  and %d session proxies (upstream "sessions") for the Distribution API

                Try:
                  curl -x http://127.0.0.1:%d -i %s
                  curl -x http://127.0.0.1:%d -i -H 'X-ProxyPool-Session: s1' %s
                  curl -x http://127.0.0.1:%d -k https://127.0.0.1:%d/echo
                  curl -x http://127.0.0.1:%d -U demo-session-s1-country-us:demo-secret -i %s
                  curl --socks5-hostname 127.0.0.1:%d -U demo-session-s1:demo-secret %s
                  curl -H 'Authorization: Bearer demo-token-0123456789' -d '{"count": 1, "filter": {"upstream": "sessions"}}' http://127.0.0.1:%d/v1/extractions
                  curl http://127.0.0.1:%d/observe/health
                  curl -H 'Accept: text/plain' http://127.0.0.1:%d/observe/metrics
                  ./proxypool acquire%s --token demo-token-0123456789 --upstream sessions --show-urls
                  ./proxypool example remote-extraction%s

                Extraction is permanent: an extracted proxy leaves the pool for good (until the demo restarts).
                The filter above takes from the %d session proxies; without it, extraction may also take
                the gateway's three (the CLI's example and bench extraction take from "sessions" with the
                demo's token unless --upstream says otherwise).

                Console: http://127.0.0.1:%d/console/  (admin token: demo-admin-0123456789)

                Ctrl-C stops everything and deletes %s.
                """.formatted(
                        config,
                        gw,
                        api,
                        server.socksPort(),
                        SESSIONS,
                        gw,
                        echo,
                        gw,
                        echo,
                        gw,
                        tlsOrigin.port(),
                        gw,
                        echo,
                        server.socksPort(),
                        echo,
                        api,
                        api,
                        api,
                        apiOption,
                        apiOption,
                        SESSIONS,
                        api,
                        dir);
    }

    /** Stops the server and the local proxies, then deletes the temporary directory. Idempotent. */
    @Override
    public void close() {
        closeAll(parts);
        deleteTree(dir);
    }

    private static String proxy(int port, String protocol, String ref, String country) {
        return "{\"host\": \"127.0.0.1\", \"port\": " + port + ", \"protocol\": \"" + protocol + "\""
                + (ref.isEmpty() ? "" : ", \"credentialRef\": \"" + ref + "\"")
                + ", \"labels\": {\"country\": \"" + country + "\"}, \"maxConcurrency\": 50}\n";
    }

    private static <T extends AutoCloseable> T add(List<AutoCloseable> parts, T part) {
        parts.add(part);
        return part;
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
            throw new UncheckedIOException("cannot delete the demo directory " + dir, e);
        }
    }
}
