package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.RawHttp;
import dev.proxypool.testkit.TestTls;
import java.net.Authenticator;
import java.net.InetSocketAddress;
import java.net.PasswordAuthentication;
import java.net.ProxySelector;
import java.net.Socket;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rotating gateway sold as one endpoint and an account (Oxylabs' grammar): the pool holds
 * {@code sessions} session proxies of the upstream, the gateway's requests and tunnels carry the
 * session logins, a sticky session keeps its vendor session, an extracted session's URL works directly against the vendor's gateway, and the pool
 * refills with a fresh session.
 */
class SessionGatewayEndToEndTest {

    /** Oxylabs' login grammar as the fake vendor enforces it. */
    private static final Pattern OXYLABS =
            Pattern.compile("customer-acct1-cc-([A-Z]{2})-sessid-([a-z0-9]{8})-sesstime-(\\d+)");

    @TempDir
    Path dir;

    @Test
    void sessionsServeTheGatewayAndAnExtractedSessionWorksDirectlyAndIsReplaced() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeOrigin tlsOrigin = FakeOrigin.builder().tls().start();
                FakeHttpProxy vendor = FakeHttpProxy.builder()
                        .logins((user, pass) -> {
                            Matcher m = OXYLABS.matcher(user);
                            return m.matches()
                                            && pass.equals("pw-1")
                                            && m.group(3).equals("10")
                                    ? "exit-" + m.group(1) + "-" + m.group(2)
                                    : null;
                        })
                        .start()) {
            Files.writeString(dir.resolve("creds.properties"), "oxy.username=acct1\noxy.password=pw-1\n");
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    clients: [{ name: alice, secret: alice-secret, token: alice-token-0123456789 }]
                    credentials: { file: %s }
                    security: { allowDestinations: ["127.0.0.0/8"], connectPorts: [%d] }
                    health: { active: { enabled: false } }
                    routings: [{ name: sessions, sticky: { enabled: true } }]
                    providers:
                      - { name: oxy, type: session_gateway, preset: oxylabs, endpoint: "127.0.0.1:%d",
                          credentialRef: oxy, sessions: 3, sessionLifetime: 10m,
                          usernameTemplate: "customer-{user}-cc-{country}-sessid-{session}-sesstime-{lifetime}" }
                    upstreams:
                      - { name: oxy-de, provider: oxy, params: { country: DE }, validate: false,
                          fetch: { interval: 1s } }
                    """.formatted(dir.resolve("creds.properties"), tlsOrigin.port(), vendor.port()));
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start();
                    HttpClient api = HttpClient.newHttpClient();
                    HttpClient gateway = HttpClient.newBuilder()
                            .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                            .authenticator(new Authenticator() {
                                @Override
                                protected PasswordAuthentication getPasswordAuthentication() {
                                    return getRequestorType() == RequestorType.PROXY
                                            ? new PasswordAuthentication("alice", "alice-secret".toCharArray())
                                            : null;
                                }
                            })
                            .sslContext(TestTls.clientContext())
                            .build()) {
                List<Proxy> first = Await.atMost(Duration.ofSeconds(20))
                        .until("three sessions of oxy-de in the pool", () -> sessions(server), l -> l.size() == 3);
                assertEquals(3, first.stream().map(Proxy::key).distinct().count(), "distinct sessions");
                for (Proxy p : first) {
                    assertEquals(vendor.port(), p.port());
                    assertEquals("DE", p.labels().get("country"));
                    assertTrue(p.expires(), "a session has the lifetime as its TTL");
                }

                Set<String> exits = new HashSet<>();
                for (int i = 0; i < 6; i++) {
                    HttpResponse<String> r = gateway.send(
                            HttpRequest.newBuilder(origin.uri("/echo"))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, r.statusCode(), r.body());
                    exits.add(
                            r.headers().firstValue(FakeHttpProxy.EXIT_IDENTITY).orElseThrow());
                }
                assertTrue(exits.size() >= 2, "requests spread over the sessions' exits: " + exits);
                assertFalse(vendor.acceptedUsernames().isEmpty());
                for (String u : vendor.acceptedUsernames()) {
                    assertTrue(OXYLABS.matcher(u).matches(), u);
                }
                Set<String> sticky = new HashSet<>();
                for (int i = 0; i < 4; i++) {
                    HttpResponse<String> r = gateway.send(
                            HttpRequest.newBuilder(origin.uri("/echo"))
                                    .header("X-ProxyPool-Session", "s1")
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, r.statusCode(), r.body());
                    sticky.add(
                            r.headers().firstValue(FakeHttpProxy.EXIT_IDENTITY).orElseThrow());
                }
                assertEquals(1, sticky.size(), "a sticky session keeps its vendor session: " + sticky);

                long tunnels = vendor.tunnels();
                int logins = vendor.acceptedUsernames().size();
                HttpResponse<String> tunnelled = gateway.send(
                        HttpRequest.newBuilder(tlsOrigin.uri("/echo"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, tunnelled.statusCode(), tunnelled.body());
                assertEquals(tunnels + 1, vendor.tunnels(), "the CONNECT went through the vendor's gateway");
                List<String> accepted = vendor.acceptedUsernames();
                assertTrue(accepted.size() > logins, "the tunnel carried a session login");
                assertTrue(OXYLABS.matcher(accepted.get(accepted.size() - 1)).matches(), accepted.toString());

                assertEquals(
                        407,
                        direct(vendor.port(), "customer-acct1-DE-sessid-abc:pw-1", origin)
                                .status(),
                        "the fake vendor refuses a login outside its grammar");

                HttpResponse<String> extracted = api.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/extractions"))
                                .header("Authorization", "Bearer alice-token-0123456789")
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(
                                        "{\"count\": 1, \"filter\": {\"upstream\": \"oxy-de\"}}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, extracted.statusCode(), extracted.body());
                Matcher url = Pattern.compile("\"url\"\\s*:\\s*\"http://([^@\"]+)@127\\.0\\.0\\.1:(\\d+)\"")
                        .matcher(extracted.body());
                assertTrue(url.find(), extracted.body());
                Matcher id = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"").matcher(extracted.body());
                assertTrue(id.find(), extracted.body());
                String extractedId = id.group(1);
                String userInfo = url.group(1);
                String login = URLDecoder.decode(userInfo.substring(0, userInfo.indexOf(':')), StandardCharsets.UTF_8);
                Matcher session = OXYLABS.matcher(login);
                assertTrue(session.matches(), login);
                RawHttp.Response viaUrl = direct(
                        Integer.parseInt(url.group(2)), URLDecoder.decode(userInfo, StandardCharsets.UTF_8), origin);
                assertEquals(200, viaUrl.status(), "the extracted URL works against the vendor directly");
                assertEquals("exit-DE-" + session.group(2), viaUrl.header(FakeHttpProxy.EXIT_IDENTITY));

                List<Proxy> refilled = Await.atMost(Duration.ofSeconds(20))
                        .until(
                                "the pool refilled to three sessions, a fresh one in place of the extracted",
                                () -> sessions(server),
                                l -> l.size() == 3 && l.stream().noneMatch(p -> p.id().equals(extractedId)));
                assertEquals(2, refilled.stream().filter(first::contains).count(), "the other sessions keep their ids");
            }
        }
    }

    private static List<Proxy> sessions(ProxyPoolServer server) {
        return EmbeddedProxyPool.engineOf(server.pool()).snapshot().proxies().stream()
                .filter(p -> p.upstream().equals("oxy-de"))
                .toList();
    }

    /** One GET through the vendor's gateway with {@code userPass} as Basic proxy credentials. */
    private static RawHttp.Response direct(int port, String userPass, FakeOrigin origin) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            String auth = Base64.getEncoder().encodeToString(userPass.getBytes(StandardCharsets.UTF_8));
            String request = "GET " + origin.url("/echo") + " HTTP/1.1\r\nHost: 127.0.0.1:" + origin.port()
                    + "\r\nProxy-Authorization: Basic " + auth + "\r\nConnection: close\r\n\r\n";
            return RawHttp.exchange(RawHttp.buffered(s), s.getOutputStream(), request, false);
        }
    }
}
