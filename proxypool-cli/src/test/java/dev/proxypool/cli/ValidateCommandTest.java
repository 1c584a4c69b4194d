package dev.proxypool.cli;

import static dev.proxypool.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.TestPorts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code proxypool validate} over test-kit proxies on loopback. The proxies connect out from
 * 127.0.0.2, so the command's own echo endpoint (on 127.0.0.1) sees an exit address that is not
 * the validator's.
 */
@Tag("slow")
class ValidateCommandTest {

    static final InetAddress EXIT = InetAddress.ofLiteral("127.0.0.2");

    @TempDir
    static Path dir;

    static FakeHttpProxy elite;
    static FakeHttpProxy anonymous;
    static FakeHttpProxy withAuth;
    static int dead;

    @BeforeAll
    static void start() {
        elite = FakeHttpProxy.builder().outboundFrom(EXIT).start();
        anonymous = FakeHttpProxy.builder()
                .outboundFrom(EXIT)
                .headers(FakeHttpProxy.HeaderBehaviour.ADD_VIA)
                .start();
        withAuth = FakeHttpProxy.builder()
                .outboundFrom(EXIT)
                .basicAuth("lab-user", "lab-pass")
                .start();
        dead = TestPorts.closedPort();
    }

    @AfterAll
    static void stop() {
        elite.close();
        anonymous.close();
        withAuth.close();
    }

    private static String line(int port, String extra) {
        return "{\"host\": \"127.0.0.1\", \"port\": " + port + ", \"protocol\": \"http\"" + extra + "}\n";
    }

    private static Path inventory() throws IOException {
        Path f = dir.resolve("inventory.jsonl");
        Files.writeString(
                f,
                "# lab proxies\n" + line(elite.port(), "") + line(anonymous.port(), "")
                        + line(withAuth.port(), ", \"credentialRef\": \"lab\"") + line(dead, "")
                        + "this line is not JSON\n");
        Files.writeString(dir.resolve("credentials.properties"), "lab.username=lab-user\nlab.password=lab-pass\n");
        return f;
    }

    private static Map<Integer, JsonNode> byPort(String json) {
        JsonNode v = JsonCodec.read(json, JsonCodec.Nesting.FEED);
        assertTrue(v.isArray(), json);
        Map<Integer, JsonNode> out = new HashMap<>();
        for (JsonNode e : v) {
            JsonNode o = e;
            out.put(o.path("port").asInt(-1), o);
        }
        return out;
    }

    @Test
    void jsonIsOneArrayWithAVerdictPerCandidate() throws IOException {
        CliRunner.Run r = run(
                "validate",
                inventory().toString(),
                "--json",
                "--timeout",
                "5s",
                "--credentials",
                dir.resolve("credentials.properties").toString());
        assertEquals(Main.EXIT_OK, r.exit(), r.err());
        Map<Integer, JsonNode> v = byPort(r.out());
        assertEquals(4, v.size(), r.out());
        for (JsonNode o : v.values()) {
            assertEquals("127.0.0.1", o.path("host").asText(""));
            assertEquals("http", o.path("protocol").asText(""));
            assertTrue(o.has("reason") && o.has("latencyMs") && o.has("exitIp"), o.toString());
        }
        assertEquals("elite", v.get(elite.port()).path("verdict").asText(""));
        assertEquals("127.0.0.2", v.get(elite.port()).path("exitIp").asText(""));
        assertTrue(v.get(elite.port()).get("reason").isNull());
        assertEquals("anonymous", v.get(anonymous.port()).path("verdict").asText(""));
        assertEquals(
                "elite",
                v.get(withAuth.port()).path("verdict").asText(""),
                v.get(withAuth.port()).toString());
        assertEquals("rejected", v.get(dead).path("verdict").asText(""));
        assertEquals("connection_refused", v.get(dead).path("reason").asText(""));
        assertTrue(v.get(dead).get("exitIp").isNull());
        // drops and the summary go to stderr; stdout is only the array
        assertTrue(r.err().contains("skipped 1 record(s) {malformed_record=1}: line 6 malformed_record"), r.err());
        assertTrue(r.err().contains("validated 4 in "), r.err());
        assertTrue(r.err().contains("rejected 1 (connection_refused 1)"), r.err());
    }

    @Test
    void withoutCredentialsTheAuthProxyIsRejectedNotTriedBare() throws IOException {
        CliRunner.Run r = run("validate", inventory().toString(), "--json");
        assertEquals(Main.EXIT_OK, r.exit(), r.err());
        assertEquals(
                "credentials_missing",
                byPort(r.out()).get(withAuth.port()).path("reason").asText(""));
    }

    @Test
    void theTableMasksAddresses() throws IOException {
        CliRunner.Run r = run(
                "validate",
                inventory().toString(),
                "--credentials",
                dir.resolve("credentials.properties").toString());
        assertEquals(Main.EXIT_OK, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(
                lines.get(0).matches("PROTOCOL\\s+ADDRESS\\s+VERDICT\\s+LATENCY_MS\\s+EXIT_IP\\s+EXIT_ASN\\s+REASON"),
                r.out());
        assertEquals(6, lines.size(), r.out());
        assertFalse(r.out().contains("127.0.0.1"), r.out());
        assertFalse(r.out().contains("127.0.0.2"), r.out());
        assertTrue(r.out().contains("127.0.x.x:" + elite.port()), r.out());
        assertTrue(
                lines.stream()
                        .anyMatch(l ->
                                l.contains(":" + dead) && l.contains("rejected") && l.endsWith("connection_refused")),
                r.out());
        assertTrue(lines.getLast().startsWith("validated 4 in "), r.out());
    }

    @Test
    void aPlainTextListIsReadWithTheDefaultProtocol() throws IOException {
        Path list = dir.resolve("list.txt");
        Files.writeString(
                list,
                "# two proxies\n127.0.0.1:" + elite.port() + "\nhttp://127.0.0.1:" + anonymous.port()
                        + "  # with a scheme\n\n");
        CliRunner.Run r = run("validate", list.toString(), "--json", "--protocol", "http");
        assertEquals(Main.EXIT_OK, r.exit(), r.err());
        Map<Integer, JsonNode> v = byPort(r.out());
        assertEquals("elite", v.get(elite.port()).path("verdict").asText(""));
        assertEquals("anonymous", v.get(anonymous.port()).path("verdict").asText(""));
        // the same content without an extension is recognised as text, and as JSONL when it starts with '{'
        Path noExt = dir.resolve("candidates");
        Files.copy(list, noExt, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertEquals(
                2, byPort(run("validate", noExt.toString(), "--json").out()).size());
        Path jsonNoExt = dir.resolve("inventory-data");
        Files.writeString(jsonNoExt, line(elite.port(), ""));
        assertEquals(
                "elite",
                byPort(run("validate", jsonNoExt.toString(), "--json").out())
                        .get(elite.port())
                        .path("verdict")
                        .asText(""));
    }

    @Test
    void inlineCredentialsAreUsedAndAWrongPasswordIsRejectedWithItsReason() throws IOException {
        String canary = "inline-canary-" + System.nanoTime();
        try (dev.proxypool.testkit.FakeSocks5Proxy socks = dev.proxypool.testkit.FakeSocks5Proxy.builder()
                        .userPass("lab-user", canary)
                        .start();
                FakeHttpProxy otherAuth = FakeHttpProxy.builder()
                        .outboundFrom(EXIT)
                        .basicAuth("lab-user", "other-pass")
                        .start()) {
            Path list = dir.resolve("vendor.txt");
            Files.writeString(
                    list,
                    "http://lab-user:lab-pass@127.0.0.1:" + withAuth.port() + "\n"
                            + "http://lab-user:" + canary + "@127.0.0.1:" + otherAuth.port() + "\n"
                            + "socks5://lab-user:" + canary + "@127.0.0.1:" + socks.port() + "\n");
            CliRunner.Run r = run("validate", list.toString(), "--json", "--timeout", "5s");
            assertEquals(Main.EXIT_OK, r.exit(), r.err());
            JsonNode v = JsonCodec.read(r.out(), JsonCodec.Nesting.FEED);
            Map<String, JsonNode> byAddress = new HashMap<>();
            for (JsonNode e : v) {
                byAddress.put(e.path("host").asText("") + ":" + e.path("port").asInt(-1), e);
            }
            assertEquals(3, byAddress.size(), r.out());
            assertEquals(
                    "elite",
                    byAddress
                            .get("127.0.0.1:" + withAuth.port())
                            .path("verdict")
                            .asText(""),
                    r.out());
            JsonNode wrong = byAddress.get("127.0.0.1:" + otherAuth.port());
            assertEquals("rejected", wrong.path("verdict").asText(""), r.out());
            assertEquals("auth_rejected", wrong.path("reason").asText(""), r.out());
            // the SOCKS5 proxy accepted the inline credentials (its exit is the validator's own address,
            // so its verdict is about anonymity, not authentication)
            assertTrue(socks.tunnels() >= 1 && socks.authFailures() == 0, r.out());
            assertFalse(
                    byAddress
                                    .get("127.0.0.1:" + socks.port())
                                    .path("reason")
                                    .asText("")
                                    .startsWith("auth")
                            || byAddress
                                    .get("127.0.0.1:" + socks.port())
                                    .path("reason")
                                    .asText("")
                                    .startsWith("credentials"),
                    r.out());
            assertFalse(r.err().contains("skipped"), r.err());
            assertFalse(r.out().contains(canary) || r.err().contains(canary), "the password is never printed");
            assertFalse(r.out().contains("lab-pass") || r.err().contains("lab-pass"), "the password is never printed");

            CliRunner.Run table = run("validate", list.toString(), "--timeout", "5s");
            assertEquals(Main.EXIT_OK, table.exit(), table.err());
            assertTrue(
                    table.out().lines().anyMatch(l -> l.contains("rejected") && l.endsWith("auth_rejected")),
                    table.out());
            assertFalse(table.out().contains(canary) || table.out().contains("lab-pass"), table.out());
        }
    }

    /**
     * Two lines with the same user and address but different passwords: the second is a duplicate of
     * the first, and its password must not replace the first's, or the kept proxy is dialled with the
     * wrong one and rejected for auth.
     */
    @Test
    void aDuplicateLineNeverReplacesTheFirstLinesPassword() throws IOException {
        Path list = dir.resolve("duplicates.txt");
        Files.writeString(
                list,
                "http://lab-user:lab-pass@127.0.0.1:" + withAuth.port() + "\n" + "http://lab-user:stale-pass@127.0.0.1:"
                        + withAuth.port() + "\n");
        CliRunner.Run r = run("validate", list.toString(), "--json", "--timeout", "5s");
        assertEquals(Main.EXIT_OK, r.exit(), r.err());
        JsonNode v = JsonCodec.read(r.out(), JsonCodec.Nesting.FEED);
        assertTrue(v.size() >= 1, r.out());
        for (JsonNode e : v) {
            assertEquals(withAuth.port(), e.path("port").asInt(-1), r.out());
            assertEquals("elite", e.path("verdict").asText(""), "the first line's password is used: " + r.out());
        }
        assertFalse(r.out().contains("stale-pass") || r.err().contains("stale-pass"), "never printed");
    }

    /** A proxy on this host exits with the validator's own address: rejected, with what to do about it. */
    @Test
    void aSameHostProxyIsRejectedWithAHintAboutValidateFalse() throws IOException {
        try (FakeHttpProxy local = FakeHttpProxy.start()) {
            Path f = dir.resolve("same-host.jsonl");
            Files.writeString(f, line(local.port(), ""));
            CliRunner.Run table = run("validate", f.toString(), "--timeout", "5s");
            assertEquals(Main.EXIT_OK, table.exit(), table.err());
            assertTrue(table.out().lines().anyMatch(l -> l.endsWith("direct_address_seen")), table.out());
            assertTrue(
                    table.err()
                            .contains("hint: 1 proxy was rejected direct_address_seen: the echo endpoint saw this"
                                    + " machine's own address."),
                    table.err());
            assertTrue(table.err().contains("set 'validate: false' on their upstream"), table.err());
            CliRunner.Run json = run("validate", f.toString(), "--json", "--timeout", "5s");
            JsonNode v = JsonCodec.read(json.out(), JsonCodec.Nesting.FEED);
            assertEquals("direct_address_seen", v.get(0).path("reason").asText(""), json.out());
            assertTrue(v.get(0).path("detail").asText("").contains("'validate: false'"), json.out());
        }
        // a proxy that exits elsewhere gets no hint
        Path elsewhere = dir.resolve("elsewhere.jsonl");
        Files.writeString(elsewhere, line(elite.port(), ""));
        CliRunner.Run quiet = run("validate", elsewhere.toString(), "--timeout", "5s");
        assertFalse(quiet.err().contains("hint:"), quiet.err());
    }

    @Test
    void aLongRunPrintsProgressOnStderr() throws IOException {
        // a port that accepts (kernel backlog) and never answers: that candidate runs into the 1 s deadline
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Path f = dir.resolve("slow.jsonl");
            Files.writeString(f, line(elite.port(), "") + line(silent.getLocalPort(), ""));
            CliRunner.Run r = run("validate", f.toString(), "--timeout", "1500ms", "--json");
            assertEquals(Main.EXIT_OK, r.exit(), r.err());
            assertTrue(r.err().contains("validated 1/2: elite 1, anonymous 0, rejected 0"), r.err());
            assertEquals(
                    "timeout",
                    byPort(r.out()).get(silent.getLocalPort()).path("reason").asText(""));
        }
    }

    @Test
    void anUnreadableInventoryIsExitOneWithOneLine() {
        Path missing = dir.resolve("missing.jsonl");
        CliRunner.Run r = run("validate", missing.toString());
        assertEquals(Main.EXIT_ERROR, r.exit());
        assertEquals(List.of("proxypool validate: cannot read " + missing + ": no such file"), r.errLines());
        assertEquals("", r.out());
        CliRunner.Run d = run("validate", dir.toString());
        assertEquals(Main.EXIT_ERROR, d.exit());
        assertEquals(List.of("proxypool validate: cannot read " + dir + ": not a regular file"), d.errLines());
    }

    @Test
    void anAsnDatabaseIsLoadedAndABadOneIsExitOne() throws IOException {
        Path db = dev.proxypool.sdk.asn.AsnDatabaseLoader.extractDocumentationDatabase(
                Files.createDirectories(dir.resolve("asn")));
        CliRunner.Run r = run("validate", inventory().toString(), "--json", "--asn-db", db.toString());
        assertEquals(Main.EXIT_OK, r.exit(), r.err());
        // loopback exits are special addresses: no AS, whatever the database holds
        assertEquals(0, byPort(r.out()).get(elite.port()).path("exitAsn").asInt(-1));

        Files.delete(dir.resolve("asn").resolve("asn-doc.csv.sha256"));
        CliRunner.Run bad = run("validate", inventory().toString(), "--asn-db", db.toString());
        assertEquals(Main.EXIT_ERROR, bad.exit());
        assertTrue(
                bad.errLines()
                        .getLast()
                        .startsWith("proxypool validate: cannot use --asn-db " + db + ": checksum file"),
                bad.err());
        assertEquals("", bad.out());
    }

    @Test
    void anUnusableEchoEndpointIsExitOne() throws IOException {
        CliRunner.Run r = run(
                "validate",
                inventory().toString(),
                "--echo-url",
                "http://127.0.0.1:" + TestPorts.closedPort() + "/v1/echo");
        assertEquals(Main.EXIT_ERROR, r.exit());
        assertEquals(1, r.errLines().size() - 1, r.err()); // the drop notice, then the error
        assertTrue(r.errLines().getLast().startsWith("proxypool validate: echo endpoint unusable: "), r.err());
    }

    @Test
    void usageErrorsExitTwo() throws IOException {
        String file = inventory().toString();
        String[][] cases = {
            {"validate"},
            {"validate", file, "--concurrency", "0"},
            {"validate", file, "--timeout", "later"},
            {"validate", file, "--protocol", "gopher"},
            {"validate", file, "--format", "xml"},
            {"validate", file, "--echo-url", "ftp://x/v1/echo"},
        };
        for (String[] args : cases) {
            CliRunner.Run r = run(args);
            assertEquals(Main.EXIT_USAGE, r.exit(), String.join(" ", args) + " -> " + r.err());
            assertEquals(1, r.errLines().size(), r.err());
            assertTrue(r.err().startsWith("proxypool validate: "), r.err());
        }
        assertTrue(run("validate", file, "--concurrency", "0").err().contains("--concurrency"));
    }

    @Test
    void helpShowsExamplesAndExitCodes() {
        CliRunner.Run r = run("validate", "--help");
        assertEquals(0, r.exit());
        assertTrue(r.out().contains("Examples:") && r.out().contains("Exit codes:"), r.out());
    }
}
