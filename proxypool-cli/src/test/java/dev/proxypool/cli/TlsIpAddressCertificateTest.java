package dev.proxypool.cli;

import static dev.proxypool.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.TestCertificateAuthority;
import dev.proxypool.testkit.TestCertificateAuthority.KeyType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code server.apiTls} with a certificate whose only subject alternative name is the address
 * {@code IP:127.0.0.1} (no {@code localhost}, as for a server reached by its address): the CLI's
 * commands with {@code --api https://127.0.0.1:PORT --cacert} verify the certificate against the
 * address given, never against a name the address resolves back to.
 */
@Tag("slow")
class TlsIpAddressCertificateTest {

    static final String TOKEN = "alice-token-0123456789";
    static final String ADMIN = "admin-0123456789abcdef";

    @TempDir
    static Path dir;

    static TestCertificateAuthority ca;
    static ProxyPoolServer server;

    @BeforeAll
    static void start() throws Exception {
        ca = TestCertificateAuthority.create(dir);
        ca.issue("api", KeyType.EC, 81, "IP:127.0.0.1");
        StringBuilder inv = new StringBuilder();
        for (int i = 1; i <= 20; i++) {
            inv.append("{\"host\": \"192.0.2.")
                    .append(i)
                    .append("\", \"port\": 3128, \"protocol\": \"http\", \"labels\": {\"country\": \"US\"}}\n");
        }
        Files.writeString(dir.resolve("sessions.jsonl"), inv.toString());
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server:
                  host: 127.0.0.1
                  gatewayPort: 0
                  apiPort: 0
                  apiTls: { certFile: api.pem, keyFile: api.key }
                store: { type: memory }
                admin: { token: %s }
                clients:
                  - { name: alice, secret: alice-secret, token: %s }
                providers:
                  - { name: sessions, type: jsonl_inventory, path: sessions.jsonl }
                upstreams:
                  - { name: sessions, provider: sessions, validate: false }
                health: { active: { enabled: false } }
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
    }

    static String api() {
        return "https://127.0.0.1:" + server.apiPort();
    }

    @Test
    void extractVerifiesTheCertificateAgainstTheAddressGiven() {
        CliRunner.Run r = run(
                "extract",
                "--api",
                api(),
                "--cacert",
                ca.caFile().toString(),
                "--token",
                TOKEN,
                "--count",
                "1",
                "--upstream",
                "sessions",
                "--json");
        assertEquals(Main.EXIT_OK, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("192.0.2."), r.out());
        assertFalse(r.err().contains("No name matching"), r.err());
    }

    @Test
    void adminAndAcquireVerifyAgainstTheAddressToo() {
        CliRunner.Run admin = run(
                "admin",
                "upstreams",
                "list",
                "--api",
                api(),
                "--cacert",
                ca.caFile().toString(),
                "--token",
                ADMIN);
        assertEquals(Main.EXIT_OK, admin.exit(), admin.out() + admin.err());
        assertTrue(admin.out().contains("sessions"), admin.out());
        CliRunner.Run lease =
                run("acquire", "--api", api(), "--cacert", ca.caFile().toString(), "--token", TOKEN, "--json");
        assertEquals(Main.EXIT_OK, lease.exit(), lease.out() + lease.err());
    }

    @Test
    void theRemoteExtractionExampleTakesACacert() {
        CliRunner.Run r = run(
                "example",
                "remote-extraction",
                "--api",
                api(),
                "--cacert",
                ca.caFile().toString(),
                "--token",
                TOKEN,
                "--upstream",
                "sessions");
        assertEquals(Main.EXIT_OK, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("extracted for exclusive use"), r.out());
        // without --cacert the JVM trust store does not know the CA: verification stays on
        CliRunner.Run untrusted = run("example", "remote-extraction", "--api", api(), "--token", TOKEN);
        assertEquals(Main.EXIT_ERROR, untrusted.exit(), untrusted.out() + untrusted.err());
    }
}
