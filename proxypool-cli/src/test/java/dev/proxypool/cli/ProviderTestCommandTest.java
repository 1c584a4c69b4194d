package dev.proxypool.cli;

import static dev.proxypool.cli.CliRunner.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.TestPorts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code proxypool provider test}: one fetch of a configured provider, nothing published. */
@Tag("slow")
class ProviderTestCommandTest {

    private static final Pattern SOAX = Pattern.compile("package-7-country-de-sessionid-[a-z0-9]{8}-sessionlength-600");

    @TempDir
    Path dir;

    private Path config(String providersAndUpstreams) throws IOException {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, "server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }\n" + providersAndUpstreams);
        return cfg;
    }

    @Test
    void aSessionGatewayMaterialisesItsSessionsAndTheyValidateThroughTheVendor() throws IOException {
        try (FakeHttpProxy vendor = FakeHttpProxy.builder()
                .outboundFrom(InetAddress.ofLiteral("127.0.0.2"))
                .logins((user, pass) -> SOAX.matcher(user).matches() && pass.equals("pw") ? user : null)
                .start()) {
            Files.writeString(dir.resolve("creds.properties"), "soax.username=package-7\nsoax.password=pw\n");
            Path cfg = config("""
                    credentials: { file: creds.properties }
                    providers:
                      - { name: soax, type: session_gateway, preset: soax, endpoint: "127.0.0.1:%d",
                          credentialRef: soax, sessions: 4, sessionLifetime: 600s,
                          usernameTemplate: "{user}-country-{country}-sessionid-{session}-sessionlength-{lifetime}" }
                    upstreams:
                      - { name: soax-us, provider: soax, params: { country: us } }
                      - { name: soax-de, provider: soax, params: { country: de } }
                    """.formatted(vendor.port()));

            CliRunner.Run r = run(
                    "provider", "test", "soax", "--config", cfg.toString(), "--upstream", "soax-de", "--validate", "2");

            assertEquals(Main.EXIT_OK, r.exit(), r.out() + r.err());
            List<String> lines = r.out().lines().toList();
            assertTrue(lines.get(0).matches("PROTOCOL +ADDRESS +LABELS +EXPIRES"), lines.get(0));
            assertEquals(
                    4,
                    lines.stream()
                            .filter(l -> l.startsWith("http ") && l.contains("{country=de}"))
                            .count(),
                    r.out());
            assertTrue(r.out().contains("soax/soax-de: success, 4 candidate(s), 0 dropped"), r.out());
            assertEquals(2, lines.stream().filter(l -> l.contains(" elite ")).count(), r.out());
            assertEquals(
                    2, vendor.acceptedUsernames().size(), "the validator went through the vendor with session logins");
            assertFalse(r.out().contains("pw"), "the password is never printed");
        }
    }

    @Test
    void aProviderWhoseAnswerDropsEverythingCountsEachReasonAndExitsOne() throws IOException {
        Files.writeString(dir.resolve("inv.jsonl"), """
                {"port": 8080, "protocol": "http"}
                {"host": "203.0.113.5", "port": 70000, "protocol": "http"}
                {"host": "203.0.113.6", "port": 70001, "protocol": "http"}
                {"host": "203.0.113.7", "port": 8080, "protocol": "gopher"}
                """);
        Path cfg = config("""
                providers: [{ name: lab, type: jsonl_inventory, path: inv.jsonl }]
                upstreams: [{ name: lab, provider: lab }]
                """);

        CliRunner.Run table = run("provider", "test", "lab", "--config", cfg.toString());
        assertEquals(Main.EXIT_ERROR, table.exit(), table.out() + table.err());
        List<String> lines = table.out().lines().toList();
        assertEquals(
                List.of(
                        "DROP_REASON        COUNT",
                        "invalid_protocol   1",
                        "missing_host       1",
                        "port_out_of_range  2"),
                lines.subList(0, 4),
                table.out());
        assertEquals(
                List.of("proxypool provider test: provider 'lab' gave no candidate (4 dropped: {invalid_protocol=1,"
                        + " missing_host=1, port_out_of_range=2})"),
                table.errLines());

        CliRunner.Run json = run("provider", "test", "lab", "--config", cfg.toString(), "--json");
        assertEquals(Main.EXIT_ERROR, json.exit(), json.err());
        JsonNode v = JsonCodec.read(json.out(), JsonCodec.Nesting.FEED);
        assertEquals("empty", v.path("outcome").asText());
        assertEquals(0, v.path("candidates").size());
        assertEquals(1, v.path("drops").path("missing_host").asInt());
        assertEquals(2, v.path("drops").path("port_out_of_range").asInt());
        assertEquals(1, v.path("drops").path("invalid_protocol").asInt());
    }

    @Test
    void aFetchThatFailsExitsOneWithTheErrorInWords() throws IOException {
        int closed = TestPorts.closedPort();
        Path cfg = config("""
                providers: [{ name: feed, type: text_list, url: "http://127.0.0.1:%d/list", protocol: http }]
                upstreams: [{ name: feed-us, provider: feed }]
                """.formatted(closed));

        CliRunner.Run r = run("provider", "test", "feed", "--config", cfg.toString());

        assertEquals(Main.EXIT_ERROR, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("feed/feed-us: error, 0 candidate(s)"), r.out());
        assertEquals(1, r.errLines().size(), r.err());
        assertTrue(
                r.errLines()
                        .get(0)
                        .startsWith("proxypool provider test: fetch of provider 'feed' (upstream feed-us)"
                                + " failed: network: "),
                r.err());
    }

    @Test
    void anUnknownProviderOrUpstreamIsAUsageError() throws IOException {
        Path cfg = config("""
                providers: [{ name: feed, type: text_list, url: "http://127.0.0.1:9/list", protocol: http }]
                upstreams: [{ name: feed-us, provider: feed }]
                """);
        CliRunner.Run p = run("provider", "test", "nope", "--config", cfg.toString());
        assertEquals(Main.EXIT_USAGE, p.exit());
        assertTrue(p.err().contains("no provider 'nope' in ") && p.err().contains("(providers: feed)"), p.err());
        CliRunner.Run u = run("provider", "test", "feed", "--config", cfg.toString(), "--upstream", "feed-eu");
        assertEquals(Main.EXIT_USAGE, u.exit());
        assertEquals(
                List.of(
                        "proxypool provider test: --upstream: no upstream 'feed-eu' of provider 'feed' (upstreams: feed-us)"),
                u.errLines());
    }

    @Test
    void theDocumentedListApiExampleReadsACodeDataAnswer() throws IOException {
        HttpServer api = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        api.createContext("/get_ip", exchange -> {
            byte[] body = ("{\"code\": 0, \"data\": [{\"ip\": \"203.0.113.10\", \"port\": 4001,"
                            + " \"expire_time\": 4070908800}, {\"ip\": \"203.0.113.11\", \"port\": 4002,"
                            + " \"expire_time\": 4070908800}]}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        api.start();
        try {
            Path cfg = config("""
                    providers:
                      - name: vendor-api
                        type: http_json_feed
                        url: "http://127.0.0.1:%d/get_ip?num=20&country={country}"
                        protocol: http
                        listField: data
                        expiresAtFormat: auto
                        fields: { host: ip, port: port, expiresAt: expire_time }
                    upstreams:
                      - { name: vendor-api-us, provider: vendor-api, params: { country: US } }
                    """.formatted(api.getAddress().getPort()));
            CliRunner.Run r = run("provider", "test", "vendor-api", "--config", cfg.toString(), "--json");
            assertEquals(Main.EXIT_OK, r.exit(), r.out() + r.err());
            JsonNode v = JsonCodec.read(r.out(), JsonCodec.Nesting.FEED);
            assertEquals("success", v.path("outcome").asText());
            assertEquals(2, v.path("candidates").size(), r.out());
            assertEquals(
                    "US",
                    v.path("candidates").get(0).path("labels").path("country").asText());
        } finally {
            api.stop(0);
        }
    }

    /** A list API's {@code expire_time} as {@code YYYY-MM-DD HH:MM:SS} in the vendor's zone (issue 34). */
    @Test
    void aListApiExpiryWithoutAnOffsetReadsInTheConfiguredZone() throws IOException {
        HttpServer api = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        api.createContext("/get_ip", exchange -> {
            byte[] body = ("{\"code\": 0, \"data\": [{\"ip\": \"203.0.113.10\", \"port\": 4001,"
                            + " \"expire_time\": \"2099-12-05 12:30:00\"}]}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        api.start();
        try {
            Path cfg = config("""
                    providers:
                      - name: vendor-api
                        type: http_json_feed
                        url: "http://127.0.0.1:%d/get_ip"
                        protocol: http
                        listField: data
                        expiresAtFormat: dateTime
                        expiresAtZone: Asia/Shanghai
                        fields: { host: ip, port: port, expiresAt: expire_time }
                    upstreams:
                      - { name: vendor-api-cn, provider: vendor-api }
                    """.formatted(api.getAddress().getPort()));
            CliRunner.Run r = run("provider", "test", "vendor-api", "--config", cfg.toString(), "--json");
            assertEquals(Main.EXIT_OK, r.exit(), r.out() + r.err());
            JsonNode v = JsonCodec.read(r.out(), JsonCodec.Nesting.FEED);
            assertEquals(
                    "2099-12-05T04:30:00Z",
                    v.path("candidates").get(0).path("expiresAt").asText(),
                    "12:30 in Shanghai (UTC+8) is 04:30 UTC");
        } finally {
            api.stop(0);
        }
    }

    /** One vendor: its preset's settings and the grammar its fake gateway enforces on (username, password). */
    private record Vendor(String preset, String settings, String params, Pattern user, Pattern password) {}

    @Test
    void eachPresetsLoginsPassItsVendorsGrammar() throws IOException {
        List<Vendor> vendors = List.of(
                new Vendor(
                        "brightdata",
                        "usernameTemplate: \"{user}-country-{country}-session-{session}\"",
                        "{ country: us }",
                        Pattern.compile("brd-customer-c1-zone-res-country-us-session-[a-z0-9]{8}"),
                        Pattern.compile("pw")),
                new Vendor(
                        "oxylabs",
                        "usernameTemplate: \"customer-{user}-cc-{country}-sessid-{session}-sesstime-{lifetime}\"",
                        "{ country: DE }",
                        Pattern.compile("customer-brd-customer-c1-zone-res-cc-DE-sessid-[a-z0-9]{8}-sesstime-10"),
                        Pattern.compile("pw")),
                new Vendor(
                        "iproyal",
                        "passwordTemplate: \"{password}_country-{country}_session-{session}_lifetime-{lifetime}\"",
                        "{ country: de }",
                        Pattern.compile("brd-customer-c1-zone-res"),
                        Pattern.compile("pw_country-de_session-[a-z0-9]{8}_lifetime-10m")));
        Files.writeString(
                dir.resolve("creds.properties"), "acct.username=brd-customer-c1-zone-res\nacct.password=pw\n");
        for (Vendor v : vendors) {
            try (FakeHttpProxy gateway = FakeHttpProxy.builder()
                    .outboundFrom(InetAddress.ofLiteral("127.0.0.2"))
                    .logins((user, pass) -> v.user().matcher(user).matches()
                                    && v.password().matcher(pass).matches()
                            ? user
                            : null)
                    .start()) {
                Path cfg = config(
                        """
                        credentials: { file: creds.properties }
                        providers:
                          - { name: %s, type: session_gateway, preset: %s, endpoint: "127.0.0.1:%d",
                              credentialRef: acct, sessions: 2, sessionLifetime: 10m, %s }
                        upstreams:
                          - { name: up, provider: %s, params: %s }
                        """.formatted(v.preset(), v.preset(), gateway.port(), v.settings(), v.preset(), v.params()));

                CliRunner.Run r = run("provider", "test", v.preset(), "--config", cfg.toString(), "--validate", "2");

                assertEquals(Main.EXIT_OK, r.exit(), v.preset() + ": " + r.out() + r.err());
                assertEquals(
                        2, r.out().lines().filter(l -> l.contains(" elite ")).count(), v.preset() + ": " + r.out());
                assertEquals(2, gateway.acceptedUsernames().size(), v.preset());
                assertEquals(0, gateway.authChallenges(), v.preset() + ": no login was refused");
            }
        }
    }
}
