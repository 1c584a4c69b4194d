package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.HealthState;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every {@code session_gateway} preset against a local fake rotating gateway that enforces that
 * vendor's login grammar (a malformed login gets {@code 407}) and answers with a per-session exit
 * ({@link FakeHttpProxy#EXIT_IDENTITY}): Bright Data, Oxylabs and SOAX name the session in the
 * username, IPRoyal in the password. For each preset: the pool holds {@code sessions} distinct
 * sessions; the gateway's requests and CONNECT tunnels carry session logins in the vendor's grammar;
 * a sticky session keeps its vendor session; an extracted session's URL works directly against the
 * fake; a session the vendor starts refusing is replaced by a fresh session id at the next fetch
 * while the others keep theirs; after each refill the pool holds {@code sessions} again.
 */
class SessionGatewayPresetsEndToEndTest {

    private static final int SESSIONS = 3;

    /** One vendor as the fake enforces it: the login's grammar, where the session id is in it. */
    private record Vendor(
            String preset,
            String upstream,
            String client,
            Pattern user,
            Pattern password,
            boolean sessionInPassword,
            String providerYaml) {

        /** The session id of a login in this vendor's grammar, or null when it does not parse. */
        String session(String u, String p) {
            Matcher mu = user.matcher(u);
            Matcher mp = password.matcher(p);
            if (!mu.matches() || !mp.matches()) {
                return null;
            }
            return sessionInPassword ? mp.group("session") : mu.group("session");
        }
    }

    private static final Map<String, Vendor> VENDORS = new LinkedHashMap<>();

    static {
        VENDORS.put(
                "brightdata",
                new Vendor(
                        "brightdata",
                        "bd-us",
                        "cbd",
                        Pattern.compile("brd-customer-c1-zone-z1-country-us-session-(?<session>[a-z0-9]{8})"),
                        Pattern.compile("pw-bd"),
                        false,
                        "usernameTemplate: \"{user}-country-{country}-session-{session}\", sessionLifetime: 5m"));
        VENDORS.put(
                "oxylabs",
                new Vendor(
                        "oxylabs",
                        "ox-de",
                        "cox",
                        Pattern.compile("customer-acct1-cc-DE-sessid-(?<session>[a-z0-9]{8})-sesstime-10"),
                        Pattern.compile("pw-ox"),
                        false,
                        "usernameTemplate: \"customer-{user}-cc-{country}-sessid-{session}-sesstime-{lifetime}\","
                                + " sessionLifetime: 10m"));
        VENDORS.put(
                "iproyal",
                new Vendor(
                        "iproyal",
                        "ip-de",
                        "cip",
                        Pattern.compile("ipuser"),
                        Pattern.compile("pwip_country-de_session-(?<session>[a-z0-9]{8})_lifetime-30m"),
                        true,
                        "passwordTemplate: \"{password}_country-{country}_session-{session}_lifetime-{lifetime}\","
                                + " sessionLifetime: 30m"));
        VENDORS.put(
                "soax",
                new Vendor(
                        "soax",
                        "sx-us",
                        "csx",
                        Pattern.compile(
                                "package-123456-country-us-sessionid-(?<session>[a-z0-9]{8})-sessionlength-600"),
                        Pattern.compile("pw-sx"),
                        false,
                        "usernameTemplate: \"{user}-country-{country}-sessionid-{session}-sessionlength-{lifetime}\","
                                + " sessionLifetime: 600s"));
    }

    @TempDir
    static Path dir;

    static FakeOrigin origin;
    static FakeOrigin tlsOrigin;
    static final Map<String, FakeHttpProxy> fakes = new LinkedHashMap<>();
    /** Session ids each fake vendor refuses from now on (a session that went bad at the vendor). */
    static final Set<String> dead = ConcurrentHashMap.newKeySet();

    static ProxyPoolServer server;

    @BeforeAll
    static void start() throws Exception {
        origin = FakeOrigin.start();
        tlsOrigin = FakeOrigin.builder().tls().start();
        StringBuilder providers = new StringBuilder();
        StringBuilder upstreams = new StringBuilder();
        StringBuilder routings = new StringBuilder();
        StringBuilder clients = new StringBuilder();
        for (Vendor v : VENDORS.values()) {
            FakeHttpProxy fake = FakeHttpProxy.builder()
                    .logins((u, p) -> {
                        String session = v.session(u, p);
                        return session == null || dead.contains(session) ? null : "exit-" + session;
                    })
                    .start();
            fakes.put(v.preset(), fake);
            providers
                    .append("  - { name: ")
                    .append(v.preset())
                    .append(", type: session_gateway, preset: ")
                    .append(v.preset())
                    .append(", endpoint: \"127.0.0.1:")
                    .append(fake.port())
                    .append("\", credentialRef: ")
                    .append(v.preset())
                    .append(", sessions: ")
                    .append(SESSIONS)
                    .append(", ")
                    .append(v.providerYaml())
                    .append(" }\n");
            String country = v.upstream().endsWith("de") ? (v.preset().equals("oxylabs") ? "DE" : "de") : "us";
            upstreams
                    .append("  - { name: ")
                    .append(v.upstream())
                    .append(", provider: ")
                    .append(v.preset())
                    .append(", params: { country: ")
                    .append(country)
                    .append(" }, validate: false, fetch: { interval: 1s } }\n");
            routings.append("  - { name: r-")
                    .append(v.preset())
                    .append(", upstreams: [")
                    .append(v.upstream())
                    .append("], match: { clients: [")
                    .append(v.client())
                    .append("] }, sticky: { enabled: true } }\n");
            clients.append("  - { name: ")
                    .append(v.client())
                    .append(", secret: secret-")
                    .append(v.client())
                    .append(", token: token-")
                    .append(v.client())
                    .append("-0123456789 }\n");
        }
        Files.writeString(dir.resolve("creds.properties"), """
                brightdata.username=brd-customer-c1-zone-z1
                brightdata.password=pw-bd
                oxylabs.username=acct1
                oxylabs.password=pw-ox
                iproyal.username=ipuser
                iproyal.password=pwip
                soax.username=package-123456
                soax.password=pw-sx
                """);
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(
                cfg,
                "server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }\n"
                        + "credentials: { file: " + dir.resolve("creds.properties") + " }\n"
                        + "security: { allowDestinations: [\"127.0.0.0/8\"], connectPorts: [" + tlsOrigin.port()
                        + "] }\n"
                        + "health: { active: { enabled: false } }\n"
                        + "clients:\n" + clients
                        + "routings:\n" + routings
                        + "providers:\n" + providers
                        + "upstreams:\n" + upstreams);
        server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                .configDir(dir)
                .start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        for (AutoCloseable c : fakes.values()) {
            c.close();
        }
        for (AutoCloseable c : new AutoCloseable[] {origin, tlsOrigin}) {
            if (c != null) {
                c.close();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"brightdata", "oxylabs", "iproyal", "soax"})
    void sessionsServeRequestsAndTunnelsStickAreExtractedAndAreReplacedWhenTheyFail(String preset) throws Exception {
        Vendor v = VENDORS.get(preset);
        FakeHttpProxy fake = fakes.get(preset);
        try (HttpClient gateway = gatewayClient(v)) {
            List<Proxy> first = Await.atMost(Duration.ofSeconds(20))
                    .until(SESSIONS + " sessions of " + v.upstream(), () -> sessions(v), l -> l.size() == SESSIONS);
            assertEquals(SESSIONS, first.stream().map(Proxy::key).distinct().count(), "distinct sessions");
            for (Proxy p : first) {
                assertEquals(fake.port(), p.port(), "every session dials the vendor's endpoint");
                assertTrue(p.expires(), "a session has its lifetime as TTL");
                assertTrue(p.key().credentialRef().name().startsWith("inline-"), "the account stays in the store");
            }

            // plain requests spread over the sessions, each with a login in the vendor's grammar
            Set<String> exits = new HashSet<>();
            for (int i = 0; i < 8; i++) {
                HttpResponse<String> r = get(gateway, origin.uri("/echo"), null);
                assertEquals(200, r.statusCode(), r.body());
                exits.add(r.headers().firstValue(FakeHttpProxy.EXIT_IDENTITY).orElseThrow());
            }
            assertTrue(exits.size() >= 2, "requests spread over the sessions' exits: " + exits);
            List<String> users = fake.acceptedUsernames();
            assertFalse(users.isEmpty());
            for (String u : users) {
                assertTrue(v.user().matcher(u).matches(), "a login in " + preset + "'s grammar: " + u);
            }

            // a tunnel carries a session login too (the vendor refuses anything else with 407)
            long tunnels = fake.tunnels();
            int logins = fake.acceptedUsernames().size();
            HttpResponse<String> tunnelled = get(gateway, tlsOrigin.uri("/echo"), null);
            assertEquals(200, tunnelled.statusCode(), tunnelled.body());
            assertEquals(tunnels + 1, fake.tunnels(), "the CONNECT went through the vendor's gateway");
            assertTrue(fake.acceptedUsernames().size() > logins, "the tunnel's login was accepted");

            // a sticky session keeps its vendor session
            Set<String> sticky = new HashSet<>();
            for (int i = 0; i < 4; i++) {
                HttpResponse<String> r = get(gateway, origin.uri("/echo"), "keep-" + preset);
                assertEquals(200, r.statusCode(), r.body());
                sticky.add(r.headers().firstValue(FakeHttpProxy.EXIT_IDENTITY).orElseThrow());
            }
            assertEquals(1, sticky.size(), "a sticky session keeps its vendor session: " + sticky);

            // the fake enforces the grammar: a login outside it is refused
            assertEquals(407, direct(fake.port(), "someone:" + "pw", origin).status(), "a malformed login");

            // an extracted session's URL works directly against the vendor, and a fresh session takes its place
            HttpResponse<String> extracted = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(
                                            URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/extractions"))
                                    .header("Authorization", "Bearer token-" + v.client() + "-0123456789")
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString(
                                            "{\"count\": 1, \"filter\": {\"upstream\": \"" + v.upstream() + "\"}}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(200, extracted.statusCode(), extracted.body());
            Matcher url = Pattern.compile("\"url\"\\s*:\\s*\"http://([^@\"]+)@127\\.0\\.0\\.1:(\\d+)\"")
                    .matcher(extracted.body());
            assertTrue(url.find(), extracted.body());
            Matcher id = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"").matcher(extracted.body());
            assertTrue(id.find(), extracted.body());
            String extractedId = id.group(1);
            String userInfo = URLDecoder.decode(url.group(1), StandardCharsets.UTF_8);
            int colon = userInfo.indexOf(':');
            String session = v.session(userInfo.substring(0, colon), userInfo.substring(colon + 1));
            assertTrue(session != null, "the extracted URL's login is in " + preset + "'s grammar");
            RawHttp.Response viaUrl = direct(Integer.parseInt(url.group(2)), userInfo, origin);
            assertEquals(200, viaUrl.status(), "the extracted URL works against the vendor directly");
            assertEquals("exit-" + session, viaUrl.header(FakeHttpProxy.EXIT_IDENTITY));
            List<Proxy> afterExtraction = Await.atMost(Duration.ofSeconds(20))
                    .until(
                            "the pool refilled to " + SESSIONS + " sessions without the extracted one",
                            () -> sessions(v),
                            l -> l.size() == SESSIONS && l.stream().noneMatch(p -> p.id().equals(extractedId)));
            assertEquals(
                    SESSIONS - 1,
                    afterExtraction.stream()
                            .filter(p -> first.stream().anyMatch(f -> f.id().equals(p.id())))
                            .count(),
                    "the other sessions keep their ids");

            // a session the vendor starts refusing fails, and a fresh session id replaces it, the others untouched
            HttpResponse<String> doomedAnswer = get(gateway, origin.uri("/echo"), "doomed-" + preset);
            assertEquals(200, doomedAnswer.statusCode(), doomedAnswer.body());
            String doomedId =
                    doomedAnswer.headers().firstValue("X-ProxyPool-Proxy").orElseThrow();
            String doomedExit = doomedAnswer
                    .headers()
                    .firstValue(FakeHttpProxy.EXIT_IDENTITY)
                    .orElseThrow();
            dead.add(doomedExit.substring("exit-".length()));
            Set<String> others = new HashSet<>();
            afterExtraction.stream()
                    .map(Proxy::id)
                    .filter(i -> !i.equals(doomedId))
                    .forEach(others::add);
            assertEquals(SESSIONS - 1, others.size(), "the doomed session is one of the pool's: " + doomedId);
            // its sticky client goes on using it: the vendor's 407 marks it failed
            Await.atMost(Duration.ofSeconds(20))
                    .until(
                            "the refused session held out by health",
                            () -> {
                                get(gateway, origin.uri("/echo"), "doomed-" + preset);
                                return EmbeddedProxyPool.engineOf(server.pool())
                                        .runtime(doomedId)
                                        .map(rt -> rt.health().state())
                                        .orElse(HealthState.HEALTHY);
                            },
                            s -> s != HealthState.HEALTHY);
            List<Proxy> replaced = Await.atMost(Duration.ofSeconds(20))
                    .until(
                            "a fresh session in place of the failed one",
                            () -> sessions(v),
                            l -> l.size() == SESSIONS && l.stream().noneMatch(p -> p.id().equals(doomedId)));
            Set<String> now = new HashSet<>();
            replaced.forEach(p -> now.add(p.id()));
            assertTrue(now.containsAll(others), "the others keep their sessions: " + others + " in " + now);
            String fresh = replaced.stream()
                    .map(Proxy::id)
                    .filter(i -> !others.contains(i))
                    .findFirst()
                    .orElseThrow();
            assertNotEquals(doomedId, fresh);
            // the fresh session serves: a new sticky session lands on a live exit, never the refused one
            for (int i = 0; i < 6; i++) {
                HttpResponse<String> r = get(gateway, origin.uri("/echo"), null);
                assertEquals(200, r.statusCode(), r.body());
                assertNotEquals(
                        doomedExit,
                        r.headers().firstValue(FakeHttpProxy.EXIT_IDENTITY).orElseThrow());
            }
            assertEquals(SESSIONS, sessions(v).size(), "the pool holds " + SESSIONS + " sessions after the refills");
        }
    }

    private static HttpClient gatewayClient(Vendor v) {
        return HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                .authenticator(new Authenticator() {
                    @Override
                    protected PasswordAuthentication getPasswordAuthentication() {
                        return getRequestorType() == RequestorType.PROXY
                                ? new PasswordAuthentication(v.client(), ("secret-" + v.client()).toCharArray())
                                : null;
                    }
                })
                .sslContext(TestTls.clientContext())
                .build();
    }

    private static HttpResponse<String> get(HttpClient gateway, URI uri, String stickySession) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10));
        if (stickySession != null) {
            b.header("X-ProxyPool-Session", stickySession);
        }
        return gateway.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<Proxy> sessions(Vendor v) {
        return EmbeddedProxyPool.engineOf(server.pool()).snapshot().proxies().stream()
                .filter(p -> p.upstream().equals(v.upstream()))
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
