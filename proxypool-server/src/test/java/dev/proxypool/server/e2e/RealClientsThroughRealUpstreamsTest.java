package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.PrivateRedisServer;
import dev.proxypool.testkit.RealProxy;
import dev.proxypool.testkit.TestTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The gateway as users meet it: real clients (curl, the JDK's HttpClient, Python's requests, headless
 * Chromium) through the real server, whose only upstream is a real proxy daemon from Debian's packages
 * (squid, squid with Basic authentication, dante as SOCKS5, tinyproxy), to a plain and a TLS origin on
 * loopback: plain HTTP forwarding, HTTPS through {@code CONNECT}, and the SOCKS5 listener. Each answer's
 * body is checked byte for byte where its size is known, so a truncated relay fails.
 */
@Timeout(300)
class RealClientsThroughRealUpstreamsTest {

    private static final int BODY = 200_000;
    private static final String PAGE = "proxypool test kit origin";

    enum Upstream {
        SQUID,
        SQUID_WITH_AUTH,
        DANTE,
        TINYPROXY;

        RealProxy start() throws IOException {
            return switch (this) {
                case SQUID -> RealProxy.squid();
                case SQUID_WITH_AUTH -> RealProxy.squidWithAuth("bob", "b0b-s3cret");
                case DANTE -> RealProxy.dante();
                case TINYPROXY -> RealProxy.tinyproxy();
            };
        }
    }

    @TempDir
    static Path dir;

    private static FakeOrigin plain;
    private static FakeOrigin tls;

    @BeforeAll
    static void origins() {
        plain = FakeOrigin.start();
        tls = FakeOrigin.builder().tls().start();
    }

    @AfterAll
    static void stopOrigins() {
        plain.close();
        tls.close();
    }

    @ParameterizedTest
    @EnumSource(Upstream.class)
    void everyClientIsServedThroughTheRealUpstream(Upstream upstream) throws Exception {
        Path run = Files.createTempDirectory(dir, upstream.name().toLowerCase() + "-");
        try (RealProxy proxy = upstream.start();
                ProxyPoolServer server = serve(run, proxy)) {
            String gw = "http://127.0.0.1:" + server.gatewayPort();
            String socks = "socks5h://127.0.0.1:" + server.socksPort();
            String bytes = "/bytes?n=" + BODY;

            // curl: forwarded HTTP, HTTPS through CONNECT, and both through the SOCKS5 listener
            assertPattern(curl(run, "-x", gw, plain.url(bytes)), "curl http via " + upstream);
            assertPattern(curl(run, "-k", "-x", gw, tls.url(bytes)), "curl https via " + upstream);
            assertPattern(curl(run, "-x", socks, plain.url(bytes)), "curl socks5 http via " + upstream);
            assertPattern(curl(run, "-k", "-x", socks, tls.url(bytes)), "curl socks5 https via " + upstream);

            // the JDK's HttpClient
            try (HttpClient jdk = HttpClient.newBuilder()
                    .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                    .sslContext(TestTls.clientContext()) // trusts the test CA that signed the origin's certificate
                    .connectTimeout(Duration.ofSeconds(10))
                    .build()) {
                for (FakeOrigin origin : List.of(plain, tls)) {
                    HttpResponse<byte[]> r = jdk.send(
                            HttpRequest.newBuilder(URI.create(origin.url(bytes)))
                                    .timeout(Duration.ofSeconds(30))
                                    .build(),
                            HttpResponse.BodyHandlers.ofByteArray());
                    assertEquals(200, r.statusCode(), "JDK " + origin.url("/") + " via " + upstream);
                    assertPattern(r.body(), "JDK " + origin.url("/") + " via " + upstream);
                }
            }

            // Python's requests, keep-alive session: two requests on each origin
            String py = run(run, List.of(python(), "-c", """
                            import sys, requests, urllib3
                            urllib3.disable_warnings()
                            s = requests.Session()
                            s.proxies = {"http": sys.argv[1], "https": sys.argv[1]}
                            for url in sys.argv[2:]:
                                for _ in range(2):
                                    r = s.get(url, verify=False, timeout=30)
                                    print(r.status_code, len(r.content))
                            """, gw, plain.url(bytes), tls.url(bytes)));
            assertEquals(("200 " + BODY + "\n").repeat(4), py, "python requests via " + upstream);

            // headless Chromium, the page over HTTP and over HTTPS
            for (FakeOrigin origin : List.of(plain, tls)) {
                String dom = run(
                        run,
                        List.of(
                                "/usr/bin/chromium",
                                "--headless",
                                "--no-sandbox",
                                "--disable-gpu",
                                "--disable-quic",
                                "--no-first-run",
                                "--disable-background-networking",
                                "--disable-component-update",
                                "--disable-sync",
                                "--user-data-dir=" + Files.createTempDirectory(run, "chromium-"),
                                "--proxy-server=" + gw,
                                "--proxy-bypass-list=<-loopback>",
                                "--ignore-certificate-errors",
                                "--dump-dom",
                                origin.url("/")));
                assertTrue(dom.contains(PAGE), "chromium " + origin.url("/") + " via " + upstream + ": " + dom);
            }
            assertEquals(
                    0, EmbeddedProxyPool.engineOf(server.pool()).inFlight(), "every attempt released its capacity");
        }
    }

    /** The server with the real proxy as its only upstream (credentials inline in a text_list line). */
    private static ProxyPoolServer serve(Path run, RealProxy proxy) throws Exception {
        Files.writeString(run.resolve("proxies.txt"), proxy.url() + "\n");
        Path cfg = run.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: %d, apiPort: %d, socksPort: %d }
                providers: [{ name: lab, type: text_list, path: proxies.txt }]
                upstreams: [{ name: lab, provider: lab, validate: false, resolveDestinations: false }]
                health: { active: { enabled: false } }
                routings: [{ name: proxied }]
                security: { allowDestinations: ["127.0.0.1/32"], connectPorts: [%d, %d] }
                """.formatted(
                        PrivateRedisServer.freePort(),
                        PrivateRedisServer.freePort(),
                        PrivateRedisServer.freePort(),
                        plain.port(),
                        tls.port()));
        ProxyPoolServer s =
                ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).start();
        try {
            Await.atMost(Duration.ofSeconds(20))
                    .until(
                            proxy.kind() + " in the pool",
                            () -> !EmbeddedProxyPool.engineOf(s.pool())
                                    .snapshot()
                                    .proxies()
                                    .isEmpty());
        } catch (RuntimeException | Error e) {
            s.close();
            throw e;
        }
        return s;
    }

    private static byte[] curl(Path run, String... args) throws Exception {
        Path out = Files.createTempFile(run, "curl-", ".body");
        List<String> cmd = new ArrayList<>(List.of(
                "curl",
                "-sS",
                "--fail",
                "--max-time",
                "30",
                "-o",
                out.toString(),
                "-w",
                "%{http_code}%header{x-proxypool-error}"));
        cmd.addAll(List.of(args));
        String code = run(run, cmd);
        assertEquals("200", code, String.join(" ", cmd));
        return Files.readAllBytes(out);
    }

    /** Runs a command (bounded to 60 s); its standard output; fails on a non-zero exit. */
    private static String run(Path run, List<String> cmd) throws Exception {
        Path err = Files.createTempFile(run, "stderr-", ".txt");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(cmd.getFirst() + " did not finish in 60 s");
        }
        String stdout = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            fail(String.join(" ", cmd) + " exited " + p.exitValue() + ": " + stdout + Files.readString(err));
        }
        return stdout;
    }

    /** A Python with requests: the one on PATH, else Debian's (package python3-requests). */
    private static String python() throws Exception {
        for (String candidate : List.of("python3", "/usr/bin/python3")) {
            try {
                Process p = new ProcessBuilder(candidate, "-c", "import requests")
                        .redirectErrorStream(true)
                        .start();
                p.getInputStream().readAllBytes();
                if (p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    return candidate;
                }
            } catch (IOException notThere) {
                // try the next one
            }
        }
        return fail("no python3 with the requests package: apt-get install python3-requests (.ci/run does this)");
    }

    private static void assertPattern(byte[] body, String what) {
        assertEquals(BODY, body.length, what + ": body length");
        for (int i = 0; i < body.length; i++) {
            if (body[i] != FakeOrigin.patternByte(i)) {
                fail(what + ": byte " + i + " differs");
            }
        }
    }
}
