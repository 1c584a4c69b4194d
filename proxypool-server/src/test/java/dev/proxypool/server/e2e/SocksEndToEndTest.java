package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.TestTls;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Authenticator;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PasswordAuthentication;
import java.net.Proxy;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SOCKS5 listener ({@code server.socksPort}) of a whole server, with real clients: curl
 * ({@code --socks5-hostname}, with and without credentials, wrong password, HTTP and HTTPS origins,
 * a denied address and the gateway's own port), the JDK's SOCKS client with an
 * {@link Authenticator}, and username options choosing a session and a label, all through the
 * same engine as CONNECT (fake upstream HTTP proxies from the test kit).
 */
@Tag("slow")
class SocksEndToEndTest {

    @TempDir
    static Path dir;

    static FakeOrigin origin;
    static FakeOrigin tlsOrigin;
    static FakeHttpProxy us1;
    static FakeHttpProxy us2;
    static FakeHttpProxy de;
    static ProxyPoolServer server;
    static int socksPort;
    static Path ca;

    @BeforeAll
    static void start() throws Exception {
        origin = FakeOrigin.start();
        tlsOrigin = FakeOrigin.builder().tls().start();
        us1 = FakeHttpProxy.start();
        us2 = FakeHttpProxy.start();
        de = FakeHttpProxy.start();
        socksPort = freePort();
        ca = dir.resolve("ca.pem");
        Files.writeString(
                ca,
                "-----BEGIN CERTIFICATE-----\n"
                        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                                .encodeToString(TestTls.certificate().getEncoded())
                        + "\n-----END CERTIFICATE-----\n");
        Files.writeString(
                dir.resolve("inventory.jsonl"),
                line(us1.port(), "US") + line(us2.port(), "US") + line(de.port(), "DE"));
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0, socksPort: %d }
                clients: [{ name: alice, secret: alice-secret }]
                admin: { token: admin-token-0123456789 }
                security: { allowDestinations: ["127.0.0.0/8", "localhost"], connectPorts: [%d, %d, %d] }
                providers: [{ name: lab, type: jsonl_inventory, path: inventory.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                health: { active: { enabled: false } }
                routings:
                  - { name: all, strategy: roundRobin, sticky: { enabled: true } }
                """.formatted(socksPort, origin.port(), tlsOrigin.port(), socksPort));
        server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).start();
    }

    /** A port free now (its number must be in the config, which needs it in connectPorts). */
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String line(int port, String country) {
        return "{\"host\": \"127.0.0.1\", \"port\": " + port + ", \"protocol\": \"http\", \"labels\": {\"country\": \""
                + country + "\"}}\n";
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        for (AutoCloseable c : new AutoCloseable[] {origin, tlsOrigin, us1, us2, de}) {
            if (c != null) {
                c.close();
            }
        }
    }

    /** Runs curl through the SOCKS5 listener; returns [exit code, stdout, stderr]. */
    static String[] curl(String proxyUser, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(
                List.of("/usr/bin/curl", "-sS", "--max-time", "20", "--socks5-hostname", "127.0.0.1:" + socksPort));
        if (proxyUser != null) {
            cmd.addAll(List.of("--proxy-user", proxyUser));
        }
        cmd.addAll(List.of(args));
        File err = File.createTempFile("curl", ".err");
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectInput(new File("/dev/null"))
                    .redirectError(err)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "curl finished");
            return new String[] {
                Integer.toString(p.exitValue()), out, Files.readString(err.toPath(), StandardCharsets.UTF_8)
            };
        } finally {
            Files.deleteIfExists(err.toPath());
        }
    }

    @Test
    void theServerReportsItsSocksPort() {
        assertEquals(socksPort, server.socksPort());
    }

    @Test
    void curlWithCredentialsReachesHttpAndHttpsOrigins() throws Exception {
        String[] plain = curl("alice:alice-secret", origin.url("/echo"));
        assertEquals("0", plain[0], plain[2]);
        assertTrue(plain[1].contains("\"headers\""), plain[1]);
        String[] tls = curl(
                "alice:alice-secret", "--cacert", ca.toString(), "https://localhost:" + tlsOrigin.port() + "/echo");
        assertEquals("0", tls[0], tls[2]);
        assertTrue(tls[1].contains("\"headers\""), tls[1]);
    }

    @Test
    void curlWithoutCredentialsOrWithAWrongPasswordIsRefused() throws Exception {
        String[] none = curl(null, origin.url("/echo"));
        assertEquals("97", none[0], "curl's CURLE_PROXY: " + none[2]);
        assertTrue(none[2].contains("No authentication method was acceptable"), none[2]);
        String[] wrong = curl("alice:wrong", origin.url("/echo"));
        assertEquals("97", wrong[0], wrong[2]);
        assertTrue(wrong[2].contains("User was rejected by the SOCKS5 server"), wrong[2]);
        String[] unknown = curl("mallory:alice-secret", origin.url("/echo"));
        assertEquals("97", unknown[0], unknown[2]);
    }

    /** Issue 37 item 17: a refused SOCKS5 login shows in the request log with the username it named, never the password. */
    @Test
    void aRefusedLoginShowsItsUsernameInTheRequestLogNeverThePassword() throws Exception {
        String[] refused = curl("mallory:wrong-pass-5e7a1c", origin.url("/echo"));
        assertEquals("97", refused[0], refused[2]);
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest read = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/admin/requests?kind=socks&status=407"))
                .header("Authorization", "Bearer admin-token-0123456789")
                .build();
        String body = Await.standard()
                .until(
                        "the refused login in the request log",
                        () -> http.send(read, HttpResponse.BodyHandlers.ofString())
                                .body(),
                        b -> ATTEMPTED_MALLORY.matcher(b).find());
        assertFalse(body.contains("wrong-pass-5e7a1c"), body);
    }

    private static final Pattern ATTEMPTED_MALLORY = Pattern.compile("\"attemptedUser\"\\s*:\\s*\"mallory\"");

    @Test
    void deniedDestinationsGetNotAllowedByRuleset() throws Exception {
        String[] metadata = curl("alice:alice-secret", "http://169.254.169.254/latest/meta-data/");
        assertEquals("97", metadata[0], metadata[2]);
        assertTrue(metadata[2].contains("(2)") || metadata[2].contains("not allowed"), metadata[2]);
        // the gateway's own SOCKS5 port, although its port is in connectPorts: never proxied to itself
        String[] self = curl("alice:alice-secret", "http://127.0.0.1:" + socksPort + "/");
        assertEquals("97", self[0], self[2]);
        assertTrue(self[2].contains("(2)") || self[2].contains("not allowed"), self[2]);
        // a port outside connectPorts
        String[] port = curl("alice:alice-secret", "http://127.0.0.1:" + server.apiPort() + "/");
        assertEquals("97", port[0], port[2]);
    }

    @Test
    void theUsernameSessionKeepsOneProxyAndTheCountryLabelChoosesIt() throws Exception {
        long before = us1.tunnels() + us2.tunnels();
        long us1Before = us1.tunnels();
        for (int i = 0; i < 4; i++) {
            String[] r = curl("alice-session-s1-country-us:alice-secret", origin.url("/echo"));
            assertEquals("0", r[0], r[2]);
        }
        long us1Gained = us1.tunnels() - us1Before;
        long usGained = us1.tunnels() + us2.tunnels() - before;
        assertEquals(4, usGained, "every tunnel went through a 'us' proxy");
        assertTrue(us1Gained == 0 || us1Gained == 4, "one session, one proxy: us1 carried " + us1Gained + " of 4");
        long deBefore = de.tunnels();
        String[] r = curl("alice-country-de:alice-secret", origin.url("/echo"));
        assertEquals("0", r[0], r[2]);
        assertEquals(deBefore + 1, de.tunnels(), "country-de chose the de proxy");
    }

    @Test
    void theJdkSocksClientWithAnAuthenticator() throws Exception {
        Authenticator previous = Authenticator.getDefault();
        Authenticator.setDefault(new Authenticator() {
            @Override
            protected PasswordAuthentication getPasswordAuthentication() {
                return new PasswordAuthentication("alice-country-de", "alice-secret".toCharArray());
            }
        });
        try {
            long deBefore = de.tunnels();
            Proxy proxy = new Proxy(Proxy.Type.SOCKS, new InetSocketAddress("127.0.0.1", socksPort));
            try (Socket s = new Socket(proxy)) {
                s.setSoTimeout(10_000);
                s.connect(InetSocketAddress.createUnresolved("localhost", origin.port()), 10_000);
                OutputStream out = s.getOutputStream();
                out.write(("GET /echo HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = s.getInputStream();
                String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
                assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            }
            assertEquals(deBefore + 1, de.tunnels(), "the username options came through the JDK's RFC 1929 login");
        } finally {
            Authenticator.setDefault(previous);
        }
    }

    @Test
    void socksTunnelsAreCountedUnderTheirOwnKind() throws Exception {
        assertEquals("0", curl("alice:alice-secret", origin.url("/echo"))[0]);
        HttpResponse<String> metrics = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + "/observe/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertTrue(
                metrics.body()
                        .lines()
                        .anyMatch(l -> l.startsWith("proxypool_gateway_requests_total")
                                && l.contains("kind=\"socks\"")
                                && l.contains("result=\"ok\"")
                                && !l.endsWith(" 0.0")),
                "socks requests metric");
    }
}
