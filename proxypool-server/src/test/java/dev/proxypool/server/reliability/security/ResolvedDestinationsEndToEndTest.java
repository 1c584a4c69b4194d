package dev.proxypool.server.reliability.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.limits.RateLimiter;
import dev.proxypool.core.security.DestinationPolicy;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.access.ServerAccess;
import dev.proxypool.server.access.UsernameParser;
import dev.proxypool.server.reliability.Tinyproxy;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.PrivateRedisServer;
import dev.proxypool.testkit.RawHttp;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code resolveDestinations} through the live gateway with a real tinyproxy on 127.0.0.1 as the only
 * upstream (a self-hosted proxy on the gateway's own host: resolution is on by default for it). Names
 * that resolve to loopback, {@code ::1}, the metadata address, 10/8, or to a public and a loopback
 * address ({@link TestNames} answers instead of DNS) are refused with {@code 403 destination_denied}
 * over HTTP, CONNECT and the SOCKS5 listener, before tinyproxy sees anything; an allow-listed name is
 * served on all three, tinyproxy being sent the checked address (it could not resolve the test name
 * itself: the request would fail if the name reached it). With {@code resolveDestinations: false} the
 * name goes to tinyproxy as before, and tinyproxy, not the gateway, answers.
 */
@Tag("slow")
class ResolvedDestinationsEndToEndTest {

    private static final String AUTH =
            "Basic " + Base64.getEncoder().encodeToString("alice:alice-secret".getBytes(StandardCharsets.UTF_8));
    private static final List<String> DENIED = List.of("loop", "loop6", "meta", "private", "rebind");
    private static final String ORIGIN = TestNames.name("origin");

    @TempDir
    Path dir;

    private Tinyproxy tinyproxy;
    private FakeOrigin origin;
    private ProxyPoolServer server;

    @BeforeEach
    void startUpstreamAndOrigin() throws Exception {
        tinyproxy = Tinyproxy.start(dir);
        origin = FakeOrigin.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        origin.close();
        tinyproxy.close();
    }

    /** The server with {@link TestNames} as the resolver, the test origin's name allow-listed, CONNECT to any port. */
    private ProxyPoolServer start(String upstreamSettings) throws Exception {
        int gw = PrivateRedisServer.freePort();
        int api = PrivateRedisServer.freePort();
        int socks = PrivateRedisServer.freePort();
        DestinationPolicy policy = DestinationPolicy.builder()
                .resolver(TestNames::resolve)
                .allowDestinations(List.of(ORIGIN))
                .anyConnectPort()
                .ownListeners(List.of(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), gw),
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), api),
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), socks)))
                .build();
        ServerAccess access = new ServerAccess(
                new RateLimiter(Map.of(), Clocks.monotonic()), policy, UsernameParser.forClients(List.of("alice")));
        Files.writeString(
                dir.resolve("inventory.jsonl"),
                "{\"host\": \"127.0.0.1\", \"port\": " + tinyproxy.port()
                        + ", \"protocol\": \"http\", \"maxConcurrency\": 100}\n");
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: %d, apiPort: %d, socksPort: %d }
                clients: [{ name: alice, secret: alice-secret }]
                providers: [{ name: lab, type: jsonl_inventory, path: inventory.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false%s }]
                health: { active: { enabled: false } }
                routings: [{ name: proxied }]
                """.formatted(gw, api, socks, upstreamSettings));
        ProxyPoolServer s = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                .access(access)
                .start();
        server = s;
        Await.atMost(Duration.ofSeconds(20))
                .until(
                        "tinyproxy in the pool",
                        () -> !EmbeddedProxyPool.engineOf(s.pool())
                                .snapshot()
                                .proxies()
                                .isEmpty());
        return s;
    }

    private static Socket socket(int port) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setSoTimeout(20_000);
        return s;
    }

    private static RawHttp.Response get(int gw, String hostPort) throws IOException {
        try (Socket s = socket(gw)) {
            return RawHttp.exchange(
                    RawHttp.buffered(s),
                    s.getOutputStream(),
                    "GET http://" + hostPort + "/echo HTTP/1.1\r\nHost: " + hostPort + "\r\nProxy-Authorization: "
                            + AUTH + "\r\nConnection: close\r\n\r\n",
                    false);
        }
    }

    /** CONNECT, then (when established) a GET inside the tunnel; the CONNECT answer and the inner answer. */
    private static RawHttp.Response[] connect(int gw, String hostPort) throws IOException {
        try (Socket s = socket(gw)) {
            InputStream in = RawHttp.buffered(s);
            RawHttp.Response established = RawHttp.exchange(
                    in,
                    s.getOutputStream(),
                    "CONNECT " + hostPort + " HTTP/1.1\r\nHost: " + hostPort + "\r\nProxy-Authorization: " + AUTH
                            + "\r\n\r\n",
                    true);
            if (established.status() != 200) {
                return new RawHttp.Response[] {established, null};
            }
            RawHttp.Response inner = RawHttp.exchange(
                    in,
                    s.getOutputStream(),
                    "GET /echo HTTP/1.1\r\nHost: " + hostPort + "\r\nConnection: close\r\n\r\n",
                    false);
            return new RawHttp.Response[] {established, inner};
        }
    }

    /** The SOCKS5 handshake for {@code host:port} as alice; the reply code, and after a success the inner answer. */
    private static Object[] socks(int socksPort, String host, int port) throws IOException {
        try (Socket s = socket(socksPort)) {
            OutputStream out = s.getOutputStream();
            DataInputStream in = new DataInputStream(RawHttp.buffered(s));
            out.write(new byte[] {5, 1, 2});
            assertEquals(2, in.readUnsignedShort() & 0xFF, "username/password chosen");
            byte[] user = "alice".getBytes(StandardCharsets.UTF_8);
            byte[] pass = "alice-secret".getBytes(StandardCharsets.UTF_8);
            out.write(1);
            out.write(user.length);
            out.write(user);
            out.write(pass.length);
            out.write(pass);
            assertEquals(0, in.readUnsignedShort() & 0xFF, "logged in");
            byte[] name = host.getBytes(StandardCharsets.US_ASCII);
            out.write(new byte[] {5, 1, 0, 3, (byte) name.length});
            out.write(name);
            out.write(new byte[] {(byte) (port >> 8), (byte) port});
            int version = in.readUnsignedByte();
            int rep = in.readUnsignedByte();
            assertEquals(5, version);
            in.readUnsignedByte(); // reserved
            int atyp = in.readUnsignedByte();
            in.skipNBytes((atyp == 4 ? 16 : atyp == 1 ? 4 : in.readUnsignedByte()) + 2);
            if (rep != 0) {
                return new Object[] {rep, null};
            }
            RawHttp.Response inner = RawHttp.exchange(
                    in, out, "GET /echo HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n", false);
            return new Object[] {rep, inner};
        }
    }

    @Test
    void namesResolvingToForbiddenAddressesAreDeniedOverHttpConnectAndSocks5AndAllowedNamesAreDialedByAddress()
            throws Exception {
        ProxyPoolServer s = start("");
        int gw = s.gatewayPort();
        List<String> problems = new ArrayList<>();
        for (String label : DENIED) {
            String host = TestNames.name(label);
            RawHttp.Response r = get(gw, host + ":" + origin.port());
            if (r.status() != 403 || !"destination_denied".equals(r.header("X-ProxyPool-Error"))) {
                problems.add("GET " + host + " -> " + r.status() + " " + r.header("X-ProxyPool-Error"));
            }
            RawHttp.Response c = connect(gw, host + ":443")[0];
            if (c.status() != 403 || !"destination_denied".equals(c.header("X-ProxyPool-Error"))) {
                problems.add("CONNECT " + host + " -> " + c.status() + " " + c.header("X-ProxyPool-Error"));
            }
            int rep = (int) socks(s.socksPort(), host, 443)[0];
            if (rep != 2) {
                problems.add("SOCKS5 " + host + " -> reply " + rep + " (2: not allowed)");
            }
        }
        assertEquals(List.of(), problems);
        assertEquals(0, origin.requests(), "no denied name reached the origin");

        // an allow-listed name passes on all three paths: tinyproxy gets the checked address, since it could
        // not resolve the test name itself
        RawHttp.Response forwarded = get(gw, ORIGIN + ":" + origin.port());
        assertEquals(200, forwarded.status(), "HTTP: " + forwarded.header("X-ProxyPool-Error"));
        System.out.println("resolveDestinations: the origin saw, through tinyproxy: " + forwarded.bodyText());
        RawHttp.Response[] tunnel = connect(gw, ORIGIN + ":" + origin.port());
        assertEquals(200, tunnel[0].status(), "CONNECT: " + tunnel[0].header("X-ProxyPool-Error"));
        assertEquals(200, tunnel[1].status());
        Object[] socks = socks(s.socksPort(), ORIGIN, origin.port());
        assertEquals(0, socks[0], "SOCKS5 succeeded");
        assertEquals(200, ((RawHttp.Response) socks[1]).status());
        assertEquals(3, origin.requests());
    }

    @Test
    void withResolveDestinationsOffTheNameGoesToTheUpstreamWhichResolvesIt() throws Exception {
        ProxyPoolServer s = start(", resolveDestinations: false");
        // tinyproxy cannot resolve the test name: it answers with its own error, the gateway denies nothing
        RawHttp.Response r = get(s.gatewayPort(), TestNames.name("loop") + ":" + origin.port());
        assertTrue(r.status() != 403, "not denied by the gateway: " + r.status() + " " + r.header("X-ProxyPool-Error"));
        RawHttp.Response allowed = get(s.gatewayPort(), ORIGIN + ":" + origin.port());
        assertTrue(allowed.status() >= 500, "the name went to tinyproxy, which cannot resolve it: " + allowed.status());
        assertEquals(0, origin.requests());
    }
}
