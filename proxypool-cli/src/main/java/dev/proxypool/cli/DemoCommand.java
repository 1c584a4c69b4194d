package dev.proxypool.cli;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.FakeSocks5Proxy;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Start the server with local test proxies (HTTP, HTTP with auth, SOCKS5) and a local",
                "origin (plain and TLS), all on 127.0.0.1, and print curl lines to try. Nothing leaves the machine."},
        footer = {"", "Example:", "  proxypool demo", "  proxypool demo --gateway-port 18080 --api-port 19090"})
final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--gateway-port", defaultValue = "8080", description = "Gateway port (default ${DEFAULT-VALUE}).")
    int gatewayPort;

    @Option(names = "--api-port", defaultValue = "9090", description = "REST port (default ${DEFAULT-VALUE}).")
    int apiPort;

    @Override
    public Integer call() throws IOException, InterruptedException {
        List<AutoCloseable> parts = new ArrayList<>();
        try {
            FakeOrigin origin = add(parts, FakeOrigin.start());
            FakeOrigin tlsOrigin = add(parts, FakeOrigin.builder().tls().start());
            FakeHttpProxy http = add(parts, FakeHttpProxy.start());
            FakeHttpProxy httpAuth = add(parts, FakeHttpProxy.builder().basicAuth("demo-user", "demo-pass").start());
            FakeSocks5Proxy socks = add(parts, FakeSocks5Proxy.start());
            Path dir = Files.createTempDirectory("proxypool-demo");
            Files.writeString(dir.resolve("credentials.properties"), "demo.username=demo-user\ndemo.password=demo-pass\n");
            Files.writeString(dir.resolve("inventory.jsonl"),
                    proxy(http.port(), "http", "", "US") + proxy(httpAuth.port(), "http", "demo", "US")
                            + proxy(socks.port(), "socks5", "", "DE"));
            Path config = dir.resolve("proxypool.yaml");
            Files.writeString(config, """
                    # proxypool demo: everything on loopback
                    server: { host: 127.0.0.1, gatewayPort: %d, apiPort: %d }
                    credentials: { file: credentials.properties }
                    providers: [{ name: demo, type: jsonl_inventory, path: inventory.jsonl }]
                    upstreams: [{ name: demo, provider: demo, validate: false }]
                    # a demo client: token for the Distribution API; the gateway also admits anonymous callers
                    clients: [{ name: demo, secret: demo-secret, token: demo-token-0123456789 }]
                    # the operations console and Admin API (a demo token: choose a long random one for real use)
                    admin: { token: demo-admin-0123456789 }
                    routings:
                      - { name: default, strategy: roundRobin, sticky: { enabled: true } }
                    security: { allowDestinations: ["127.0.0.0/8", "localhost"], connectPorts: [443, 8443, %d], allowAnonymous: true }
                    """.formatted(gatewayPort, apiPort, tlsOrigin.port()));
            ProxyPoolServer server = ServerFactory.start(ConfigLoader.load(config), dir);
            parts.add(0, server);
            PrintWriter out = spec.commandLine().getOut();
            int gw = server.gatewayPort();
            out.printf("""
                    proxypool demo is running (config: %s)
                      gateway  http://127.0.0.1:%d     REST  http://127.0.0.1:%d
                      3 local upstream proxies (http, http with auth, socks5) and a local origin

                    Try:
                      curl -x http://127.0.0.1:%d -i %s
                      curl -x http://127.0.0.1:%d -i -H 'X-ProxyPool-Session: s1' %s
                      curl -x http://127.0.0.1:%d -k https://127.0.0.1:%d/echo
                      curl -x http://127.0.0.1:%d -U demo-session-s1-country-us:demo-secret -i %s
                      curl -H 'Authorization: Bearer demo-token-0123456789' -d '{"count": 1}' http://127.0.0.1:%d/v1/extractions
                      curl http://127.0.0.1:%d/observe/health
                      curl -H 'Accept: text/plain' http://127.0.0.1:%d/observe/metrics

                    Console: http://127.0.0.1:%d/console/  (admin token: demo-admin-0123456789)

                    Ctrl-C stops everything.
                    """, config, gw, server.apiPort(), gw, origin.url("/echo"), gw, origin.url("/echo"),
                    gw, tlsOrigin.port(), gw, origin.url("/echo"), server.apiPort(), server.apiPort(), server.apiPort(), server.apiPort());
            out.flush();
            ServeCommand.awaitShutdown(() -> closeAll(parts));
            return Main.EXIT_OK;
        } catch (RuntimeException e) {
            closeAll(parts);
            spec.commandLine().getErr().println("proxypool demo: cannot start: " + e.getMessage());
            return Main.EXIT_ERROR;
        }
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
}
