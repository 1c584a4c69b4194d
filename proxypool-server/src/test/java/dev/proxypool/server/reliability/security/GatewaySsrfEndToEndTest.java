package dev.proxypool.server.reliability.security;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.core.limits.RateLimiter;
import dev.proxypool.core.security.DestinationPolicy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.access.ServerAccess;
import dev.proxypool.server.access.UsernameParser;
import dev.proxypool.server.upstream.AccessControl;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.PrivateRedisServer;
import dev.proxypool.testkit.RawHttp;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #9 scenario 5, the SSRF table through the live gateway (smokescreen's end-to-end test):
 * a ProxyPoolServer on loopback with the default destination policy, real forward-proxy requests
 * and {@code CONNECT}s on raw sockets. Every denied class in several spellings (loopback, RFC 1918,
 * CGNAT, link-local and metadata, multicast, IPv6 loopback/ULA/link-local, IPv4-mapped IPv6,
 * decimal/octal/hex), local names, names that resolve to such addresses (the gateway resolves only
 * for {@code onNoCandidate: direct}; {@link TestNames} answers instead of DNS), the gateway's own two ports, and
 * {@code CONNECT} to a port outside {@code security.connectPorts} are refused with {@code 403
 * destination_denied} before any upstream proxy or destination is contacted. The exhaustive
 * per-spelling table is {@code access/DestinationPolicyTest}; this test proves the gateway applies it.
 */
@Tag("slow")
class GatewaySsrfEndToEndTest {

    private static final String AUTH =
            "Basic " + Base64.getEncoder().encodeToString("alice:alice-secret".getBytes(StandardCharsets.UTF_8));
    /** Absolute-form targets the default policy refuses: host[:port] as a client writes it. */
    private static final List<String> DENIED = List.of(
            "127.0.0.1",
            "127.0.0.1:8080",
            "127.1",
            "127.255.255.254",
            "2130706433",
            "0x7f000001",
            "0x7f.1",
            "0177.0.0.1",
            "017700000001",
            "127.000.000.001",
            "[::1]",
            "[0:0:0:0:0:0:0:1]",
            "[::ffff:127.0.0.1]",
            "[::ffff:7f00:1]",
            "[64:ff9b::7f00:1]",
            "localhost",
            "LOCALHOST.",
            "api.localhost",
            "0.0.0.0",
            "0",
            "[::]",
            "10.0.0.1",
            "167772161",
            "012.0.0.1",
            "172.16.0.1",
            "192.168.1.1",
            "0xc0.0xa8.1.1",
            "[::ffff:10.0.0.1]",
            "100.64.0.1",
            "100.127.255.255",
            "169.254.1.1",
            "[fe80::1]",
            "169.254.169.254",
            "0xa9fea9fe",
            "2852039166",
            "0251.0376.0251.0376",
            "[::ffff:169.254.169.254]",
            "metadata.google.internal",
            "169.254.170.2",
            "100.100.100.200",
            "[fd00:ec2::254]",
            "224.0.0.1",
            "239.255.255.250",
            "[ff02::1]",
            "255.255.255.255",
            "[fd00::1]",
            "[fc00::1]",
            "printer.local",
            "db.internal");

    @TempDir
    Path dir;

    private ProxyPoolServer start(String security, int upstreamPort) throws Exception {
        return start(security, upstreamPort, null, 0, 0);
    }

    /**
     * The access layer the server would build from its config, but with {@link TestNames} as the
     * resolver; the ports are fixed up front so the policy knows the server's own listeners.
     */
    private ProxyPoolServer startResolvingTestNames(List<String> allowDestinations, int upstreamPort) throws Exception {
        int gw = PrivateRedisServer.freePort();
        int api = PrivateRedisServer.freePort();
        DestinationPolicy policy = DestinationPolicy.builder()
                .resolver(TestNames::resolve)
                .allowDestinations(allowDestinations)
                .ownListeners(List.of(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), gw),
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), api)))
                .build();
        ServerAccess access = new ServerAccess(
                new RateLimiter(java.util.Map.of(), Clocks.monotonic()),
                policy,
                UsernameParser.forClients(List.of("alice")));
        return start("", upstreamPort, access, gw, api);
    }

    private ProxyPoolServer start(String security, int upstreamPort, AccessControl access, int gatewayPort, int apiPort)
            throws Exception {
        Files.writeString(
                dir.resolve("inventory.jsonl"),
                "{\"host\": \"127.0.0.1\", \"port\": " + upstreamPort
                        + ", \"protocol\": \"http\", \"labels\": {\"kind\": \"lab\"}, \"maxConcurrency\": 100}\n");
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: %d, apiPort: %d }
                clients: [{ name: alice, secret: alice-secret }]
                providers: [{ name: lab, type: jsonl_inventory, path: inventory.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                health: { active: { enabled: false } }
                %s
                routings:
                  - { name: direct, match: { headers: { X-Route: direct } }, filter: { labels: { kind: none-such } },
                      onNoCandidate: direct }
                  - { name: proxied, filter: { labels: { kind: lab } } }
                """.formatted(gatewayPort, apiPort, security));
        ProxyPoolServer.Builder builder = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()));
        if (access != null) {
            builder.access(access);
        }
        ProxyPoolServer server = builder.start();
        Await.atMost(Duration.ofSeconds(20))
                .until(
                        "the upstream proxy in the pool",
                        () -> !EmbeddedProxyPool.engineOf(server.pool())
                                .snapshot()
                                .proxies()
                                .isEmpty());
        return server;
    }

    /** One request on a fresh connection; CONNECT answers are read without a body. */
    private static RawHttp.Response send(int gatewayPort, String method, String target, String host, String route)
            throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), gatewayPort)) {
            s.setSoTimeout(15_000);
            String request = method + " " + target + " HTTP/1.1\r\nHost: " + host + "\r\nProxy-Authorization: " + AUTH
                    + "\r\n" + (route == null ? "" : "X-Route: " + route + "\r\n") + "Connection: close\r\n\r\n";
            InputStream in = RawHttp.buffered(s);
            return RawHttp.exchange(in, s.getOutputStream(), request, method.equals("CONNECT"));
        }
    }

    private static RawHttp.Response get(int gatewayPort, String host, String route) throws Exception {
        return send(gatewayPort, "GET", "http://" + host + "/", host, route);
    }

    private static RawHttp.Response connect(int gatewayPort, String hostPort) throws Exception {
        return send(gatewayPort, "CONNECT", hostPort, hostPort, null);
    }

    private static String withPort(String host, int port) {
        return host + ":" + port;
    }

    private static void assertDenied(RawHttp.Response r, String what, List<String> problems) {
        if (r.status() != 403 || !"destination_denied".equals(r.header("X-ProxyPool-Error"))) {
            problems.add(what + " -> " + r.status() + " " + r.header("X-ProxyPool-Error"));
        }
    }

    @Test
    void theDefaultPolicyDeniesEveryForbiddenDestinationBeforeAnyUpstreamIsUsed() throws Exception {
        try (FakeHttpProxy upstream = FakeHttpProxy.builder().forceStatus(200).start(); // never dials a destination
                FakeOrigin origin = FakeOrigin.start();
                ProxyPoolServer server = start("", upstream.port())) {
            int gw = server.gatewayPort();
            List<String> problems = new ArrayList<>();
            int checks = 0;

            // sanity: a public destination reaches the upstream (which answers itself, nothing leaves the machine)
            assertEquals(200, get(gw, "93.184.216.34", null).status());
            assertEquals(200, connect(gw, "93.184.216.34:443").status());
            assertEquals(200, connect(gw, "93.184.216.34:8443").status());
            long upstreamBefore = upstream.requests();

            for (String host : DENIED) {
                assertDenied(get(gw, host, null), "GET " + host, problems);
                String hostPort = host.matches(".*:\\d+$") && !host.endsWith("]") ? host : host + ":443";
                assertDenied(connect(gw, hostPort), "CONNECT " + hostPort, problems);
                checks += 2;
            }
            // the gateway's own listeners, in several spellings
            for (int own : new int[] {gw, server.apiPort()}) {
                for (String host : List.of("127.0.0.1", "2130706433", "[::ffff:127.0.0.1]", "localhost", "[::1]")) {
                    assertDenied(get(gw, withPort(host, own), null), "GET own port " + withPort(host, own), problems);
                    checks++;
                }
            }
            // CONNECT to a port outside security.connectPorts (default 443, 8443)
            for (int port : new int[] {22, 25, 80, 6379, 5432, 8080, 9090, 444, 8442}) {
                assertDenied(connect(gw, withPort("93.184.216.34", port)), "CONNECT port " + port, problems);
                checks++;
            }
            assertEquals(upstreamBefore, upstream.requests(), "no denied request reached the upstream proxy");

            // literals in direct mode are checked before anything is dialed
            long originBefore = origin.requests();
            for (String host : List.of("127.0.0.1", "2130706433", "[::1]", "[::ffff:127.0.0.1]", "localhost")) {
                assertDenied(get(gw, withPort(host, origin.port()), "direct"), "direct GET " + host, problems);
                checks++;
            }
            assertEquals(originBefore, origin.requests(), "no direct request reached the origin");
            assertEquals(upstreamBefore, upstream.requests());

            assertEquals(List.of(), problems, problems.size() + " of " + checks + " checks let a destination through");
            System.out.printf(
                    "SSRF through the live gateway (default policy): %d requests denied with 403 destination_denied;"
                            + " upstream and origin untouched%n",
                    checks);
        }
    }

    @Test
    void namesResolvingToForbiddenAddressesAreResolvedOnceAndNeverDialed() throws Exception {
        try (FakeHttpProxy upstream = FakeHttpProxy.start();
                FakeOrigin origin = FakeOrigin.start();
                ProxyPoolServer server = startResolvingTestNames(List.of(), upstream.port())) {
            List<String> problems = new ArrayList<>();
            for (String label : TestNames.FORBIDDEN) {
                String host = withPort(TestNames.name(label), origin.port());
                assertDenied(get(server.gatewayPort(), host, "direct"), "direct GET " + host, problems);
            }
            RawHttp.Response unknown =
                    get(server.gatewayPort(), withPort(TestNames.name("nx"), origin.port()), "direct");
            assertEquals(502, unknown.status(), "a name that does not resolve is no denial");
            assertEquals(List.of(), problems);
            assertEquals(0, origin.requests(), "no name resolving to a forbidden address was dialed");
            assertEquals(0, upstream.requests());
        }
    }

    @Test
    void ownListenersStayDeniedWhenLoopbackIsAllowListedAlsoForNamesResolvedInDirectMode() throws Exception {
        try (FakeHttpProxy upstream = FakeHttpProxy.start();
                FakeOrigin origin = FakeOrigin.start();
                ProxyPoolServer server =
                        start("security: { allowDestinations: [\"127.0.0.0/8\", \"::1\"] }", upstream.port())) {
            int gw = server.gatewayPort();
            int api = server.apiPort();
            // sanity: loopback is allowed here, proxied and direct
            assertEquals(
                    200, get(gw, withPort("127.0.0.1", origin.port()), null).status());
            RawHttp.Response direct = get(gw, withPort("127.0.0.1", origin.port()), "direct");
            assertEquals(
                    200, direct.status(), "direct to an allow-listed address: " + direct.header("X-ProxyPool-Error"));

            List<String> problems = new ArrayList<>();
            long upstreamBefore = upstream.requests();
            for (int own : new int[] {gw, api}) {
                // (the listeners bind 127.0.0.1: [::1] on the same port is another socket, nobody's)
                for (String host :
                        List.of("127.0.0.1", "2130706433", "0x7f.1", "127.000.000.001", "[::ffff:127.0.0.1]")) {
                    assertDenied(get(gw, withPort(host, own), null), "GET own port " + withPort(host, own), problems);
                }
                assertDenied(get(gw, withPort("127.0.0.1", own), "direct"), "direct GET own port " + own, problems);
            }
            assertEquals(List.of(), problems);
            assertEquals(
                    upstreamBefore, upstream.requests(), "no request to an own listener reached the upstream proxy");
        }
    }

    /** Regression: direct mode checked resolved addresses against port 0, so own listeners never matched. */
    @Test
    void aNameResolvingToAnOwnListenerIsDeniedInDirectMode() throws Exception {
        try (FakeHttpProxy upstream = FakeHttpProxy.start();
                FakeOrigin origin = FakeOrigin.start();
                ProxyPoolServer server = startResolvingTestNames(List.of("127.0.0.0/8"), upstream.port())) {
            int gw = server.gatewayPort();
            RawHttp.Response allowed = get(gw, withPort(TestNames.name("loop"), origin.port()), "direct");
            assertEquals(
                    200,
                    allowed.status(),
                    "sanity: a name resolving to an allow-listed address is dialed: "
                            + allowed.header("X-ProxyPool-Error"));
            assertEquals(1, origin.requests());
            List<String> problems = new ArrayList<>();
            for (int own : new int[] {gw, server.apiPort()}) {
                assertDenied(
                        get(gw, withPort(TestNames.name("loop"), own), "direct"), "direct GET loop:" + own, problems);
            }
            assertEquals(List.of(), problems);
        }
    }
}
