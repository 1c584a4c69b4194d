package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Design S1 through the real gateway, driven by curl: a sticky session named in the proxy username
 * ({@code alice-session-u1}) and, differently, in the session header is refused with {@code 400
 * session_conflict} on plain requests and on {@code CONNECT}, before any proxy is used; the same
 * id named both ways, or either way alone, is served.
 */
class SessionConflictTest {

    @TempDir
    static Path dir;

    static FakeOrigin origin;
    static FakeHttpProxy proxy;
    static ProxyPoolServer server;

    @BeforeAll
    static void start() throws IOException {
        origin = FakeOrigin.start();
        proxy = FakeHttpProxy.start();
        Files.writeString(
                dir.resolve("inventory.jsonl"),
                "{\"host\": \"127.0.0.1\", \"port\": " + proxy.port() + ", \"protocol\": \"http\"}\n");
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                clients: [{ name: alice, secret: alice-secret, token: alice-token-0123456789 }]
                security: { allowDestinations: ["127.0.0.0/8"], connectPorts: [%d] }
                providers: [{ name: lab, type: jsonl_inventory, path: inventory.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                health: { active: { enabled: false } }
                routings:
                  - { name: sticky, sticky: { enabled: true } }
                """.formatted(origin.port()));
        server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).start();
        Await.atMost(Duration.ofSeconds(10))
                .until(
                        "the inventory's proxy in the pool",
                        () -> EmbeddedProxyPool.engineOf(server.pool())
                                .snapshot()
                                .size(),
                        n -> n == 1);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (origin != null) {
            origin.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void aPlainRequestNamingTwoSessionsIsRefusedBeforeAnyProxyIsUsed() throws Exception {
        long before = proxy.requests();
        Curl r = curl("-i", "-U", "alice-session-u1:alice-secret", "-H", "X-ProxyPool-Session: other", plainUrl());
        assertEquals(400, r.status(), r.out());
        assertEquals("session_conflict", r.header("x-proxypool-error"), r.out());
        assertEquals(before, proxy.requests(), "no proxy was used for a refused request");
    }

    @Test
    void aTunnelNamingTwoSessionsIsRefused() throws Exception {
        long before = proxy.requests();
        Curl r = curl(
                "-p",
                "-U",
                "alice-session-u1:alice-secret",
                "--proxy-header",
                "X-ProxyPool-Session: other",
                "-w",
                "connect=%{http_connect}",
                plainUrl());
        assertTrue(r.out().endsWith("connect=400"), r.out() + r.err());
        assertTrue(r.exit() != 0, "curl reports the refused tunnel");
        assertEquals(before, proxy.requests(), "no proxy was used for a refused tunnel");
    }

    @Test
    void aHeaderTheUsernameCouldNotCarryConflictsWithTheUsernamesSession() throws Exception {
        // a dash cannot be part of a username's session: such a header can only name another session
        Curl r = curl("-i", "-U", "alice-session-u1:alice-secret", "-H", "X-ProxyPool-Session: u1-x", plainUrl());
        assertEquals(400, r.status(), r.out());
        assertEquals("session_conflict", r.header("x-proxypool-error"), r.out());
    }

    @Test
    void theSameSessionNamedBothWaysIsServed() throws Exception {
        Curl plain = curl("-i", "-U", "alice-session-u2:alice-secret", "-H", "X-ProxyPool-Session: u2", plainUrl());
        assertEquals(200, plain.status(), plain.out());
        Curl tunnel = curl(
                "-p",
                "-U",
                "alice-session-u2:alice-secret",
                "--proxy-header",
                "X-ProxyPool-Session: u2",
                "-w",
                "connect=%{http_connect}",
                plainUrl());
        assertEquals(0, tunnel.exit(), tunnel.err());
        assertTrue(tunnel.out().endsWith("connect=200"), tunnel.out());
    }

    @Test
    void eitherWayAloneIsServed() throws Exception {
        assertEquals(
                200,
                curl("-i", "-U", "alice-session-u3:alice-secret", plainUrl()).status());
        assertEquals(
                200,
                curl("-i", "-U", "alice:alice-secret", "-H", "X-ProxyPool-Session: u3", plainUrl())
                        .status());
        // without a session in the username a header keeps being taken as given, dash and all
        assertEquals(
                200,
                curl("-i", "-U", "alice:alice-secret", "-H", "X-ProxyPool-Session: cart-7", plainUrl())
                        .status());
    }

    private static String plainUrl() {
        return origin.uri("/echo").toString();
    }

    private record Curl(int exit, String out, String err) {
        /** The final response's status (the last status line in {@code -i} output). */
        int status() {
            int at = out.lastIndexOf("HTTP/1.1 ");
            return at < 0 ? -1 : Integer.parseInt(out.substring(at + 9, at + 12));
        }

        String header(String lowerName) {
            for (String line : out.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0
                        && line.substring(0, colon).toLowerCase(Locale.ROOT).equals(lowerName)) {
                    return line.substring(colon + 1).strip();
                }
            }
            return null;
        }
    }

    private static Curl curl(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                "/usr/bin/curl",
                "-sS",
                "--max-time",
                "20",
                "--noproxy",
                "",
                "-x",
                "http://127.0.0.1:" + server.gatewayPort()));
        cmd.addAll(List.of(args));
        File err = File.createTempFile("curl", ".err");
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectInput(new File("/dev/null"))
                    .redirectError(err)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "curl finished");
            return new Curl(p.exitValue(), out, Files.readString(err.toPath(), StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(err.toPath());
        }
    }
}
