package dev.proxypool.cli;

import static dev.proxypool.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.Extraction;
import dev.proxypool.sdk.ExtractionResponse;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.remote.DistributionClient;
import dev.proxypool.sdk.remote.DistributionException;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.TestCertificateAuthority;
import dev.proxypool.testkit.TestCertificateAuthority.KeyType;
import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole server started from a YAML with {@code server.gatewayTls} and {@code server.apiTls}: the
 * SDK's DistributionClient against the {@code https://} API, the CLI's {@code extract} and
 * {@code admin} with {@code --cacert}, and curl through the gateway as an HTTPS proxy to a real
 * upstream proxy.
 */
@Tag("slow")
class TlsServeTest {

    static final String TOKEN = "alice-token-0123456789";
    static final String ADMIN = "admin-0123456789abcdef";

    @TempDir
    static Path dir;

    static TestCertificateAuthority ca;
    static FakeHttpProxy upstream;
    static FakeOrigin origin;
    static ProxyPoolServer server;

    @BeforeAll
    static void start() throws Exception {
        ca = TestCertificateAuthority.create(dir);
        ca.issue("gateway", KeyType.EC, 71);
        ca.issue("api", KeyType.RSA, 72);
        upstream = FakeHttpProxy.start();
        origin = FakeOrigin.start();
        StringBuilder inv = new StringBuilder();
        for (int i = 1; i <= 5; i++) {
            inv.append("{\"host\": \"192.0.2.")
                    .append(i)
                    .append("\", \"port\": 3128, \"protocol\": \"http\", \"labels\": {\"country\": \"FR\"}}\n");
        }
        Files.writeString(dir.resolve("sessions.jsonl"), inv.toString());
        Files.writeString(
                dir.resolve("gateway.jsonl"),
                "{\"host\": \"127.0.0.1\", \"port\": " + upstream.port() + ", \"protocol\": \"http\"}\n");
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server:
                  host: 127.0.0.1
                  gatewayPort: 0
                  apiPort: 0
                  gatewayTls: { certFile: gateway.pem, keyFile: gateway.key }
                  apiTls: { certFile: api.pem, keyFile: api.key }
                store: { type: memory }
                admin: { token: %s }
                clients:
                  - { name: alice, secret: alice-secret, token: %s }
                providers:
                  - { name: sessions, type: jsonl_inventory, path: sessions.jsonl }
                  - { name: local, type: jsonl_inventory, path: gateway.jsonl }
                upstreams:
                  - { name: sessions, provider: sessions, validate: false }
                  - { name: local, provider: local, validate: false }
                routings: [{ name: all, strategy: roundRobin, upstreams: [local] }]
                health: { active: { enabled: false } }
                security: { allowDestinations: ["127.0.0.0/8"] }
                """.formatted(ADMIN, TOKEN));
        server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                .configDir(dir)
                .start();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (upstream != null) {
            upstream.close();
        }
        if (origin != null) {
            origin.close();
        }
    }

    static String api() {
        return "https://127.0.0.1:" + server.apiPort();
    }

    @Test
    void distributionClientExtractsOverHttpsTrustingThePem() {
        try (DistributionClient client = DistributionClient.builder(URI.create(api()))
                .token(TOKEN)
                .trustCertificates(ca.caFile())
                .timeout(Duration.ofSeconds(10))
                .build()) {
            ExtractionResponse r = client.extract(Extraction.of(1).upstream("sessions"));
            assertEquals(1, r.proxies().size());
            assertTrue(r.proxies().getFirst().url().startsWith("http://192.0.2."), "extracted over https");
        }
        // without the CA: the JVM's default trust store does not know the test CA
        try (DistributionClient untrusting = DistributionClient.builder(URI.create(api()))
                .token(TOKEN)
                .timeout(Duration.ofSeconds(10))
                .build()) {
            DistributionException e =
                    assertThrows(DistributionException.class, () -> untrusting.extract(Extraction.of(1)));
            DistributionException.ServerUnreachable u =
                    assertInstanceOf(DistributionException.ServerUnreachable.class, e);
            assertTrue(u.getMessage().contains("TLS failed"), u.getMessage());
        }
        IllegalArgumentException missing = assertThrows(
                IllegalArgumentException.class,
                () -> DistributionClient.builder(URI.create(api())).trustCertificates(dir.resolve("nope.pem")));
        assertTrue(missing.getMessage().contains("nope.pem does not exist"), missing.getMessage());
    }

    @Test
    void cliExtractAndAdminTakeCacert() {
        CliRunner.Run r = run(
                "extract",
                "--api",
                api(),
                "--token",
                TOKEN,
                "--cacert",
                ca.caFile().toString(),
                "--count",
                "1",
                "--upstream",
                "sessions");
        assertEquals(Main.EXIT_OK, r.exit(), r.err());
        assertTrue(r.out().contains("extracted 1 of 1"), r.out());

        CliRunner.Run noCa = run("extract", "--api", api(), "--token", TOKEN, "--count", "1", "--upstream", "sessions");
        assertEquals(Main.EXIT_ERROR, noCa.exit(), noCa.out());
        assertTrue(noCa.err().contains("TLS failed"), noCa.err());

        CliRunner.Run badCa = run(
                "extract",
                "--api",
                api(),
                "--token",
                TOKEN,
                "--cacert",
                dir.resolve("api.key").toString(),
                "--count",
                "1");
        assertEquals(Main.EXIT_USAGE, badCa.exit(), badCa.out());
        assertTrue(badCa.err().contains("--cacert: ") && badCa.err().contains("holds no PEM certificate"), badCa.err());

        CliRunner.Run a = run(
                "admin",
                "snapshot",
                "--api",
                api(),
                "--token",
                ADMIN,
                "--cacert",
                ca.caFile().toString());
        assertEquals(0, a.exit(), a.err());
        assertTrue(a.out().startsWith("snapshot version"), a.out());
    }

    @Test
    void curlUsesTheGatewayAsAnHttpsProxyThroughARealUpstream() throws Exception {
        File err = Files.createTempFile(dir, "curl", ".err").toFile();
        Process p = new ProcessBuilder(List.of(
                        "/usr/bin/curl",
                        "-sS",
                        "-i",
                        "--max-time",
                        "20",
                        "--noproxy",
                        "",
                        "--proxy",
                        "https://127.0.0.1:" + server.gatewayPort(),
                        "--proxy-cacert",
                        ca.caFile().toString(),
                        "--proxy-user",
                        "alice:alice-secret",
                        origin.url("/echo")))
                .redirectInput(new File("/dev/null"))
                .redirectError(err)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "curl finished");
        assertEquals(0, p.exitValue(), Files.readString(err.toPath()));
        assertTrue(out.startsWith("HTTP/1.1 200"), out);
        assertTrue(out.contains("X-ProxyPool-Upstream: local"), out);
        assertTrue(upstream.forwardedRequests() >= 1, "the upstream proxy forwarded it");
    }
}
