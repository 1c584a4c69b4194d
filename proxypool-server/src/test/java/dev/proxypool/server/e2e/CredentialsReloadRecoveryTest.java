package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.persistence.JsonTree;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 37 item 9: a proxy disabled by {@code proxy_auth_rejected} (a real upstream proxy with Basic
 * auth answering 407 to a wrong password from {@code credentials.file}) gets one recovery check when
 * the file is fixed, and is back to HEALTHY after it passes, without an operator's enable.
 */
class CredentialsReloadRecoveryTest {

    private static final String ADMIN = "admin-token-0123456789";
    private static final String CLIENT_SECRET = "client-secret-0123456789";

    @TempDir
    Path dir;

    @Test
    void fixingTheCredentialsFileBringsAnAuthDisabledProxyBackAfterOneCheck() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy upstream = FakeHttpProxy.builder()
                        .basicAuth("vendor-user", "right-pass")
                        .start()) {
            Path credentials = dir.resolve("credentials.properties");
            Files.writeString(credentials, "vendor.username=vendor-user\nvendor.password=wrong-password\n");
            Files.writeString(
                    dir.resolve("inventory.jsonl"),
                    "{\"host\": \"127.0.0.1\", \"port\": " + upstream.port()
                            + ", \"protocol\": \"http\", \"credentialRef\": \"vendor\"}\n");
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    admin: { token: %s }
                    clients: [{ name: alice, secret: %s }]
                    credentials: { file: credentials.properties }
                    security: { allowDestinations: ["127.0.0.0/8"], connectPorts: [%d] }
                    providers: [{ name: lab, type: jsonl_inventory, path: inventory.jsonl }]
                    upstreams: [{ name: lab, provider: lab, validate: false }]
                    health: { active: { enabled: false } }
                    """.formatted(ADMIN, CLIENT_SECRET, origin.port()));
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .start();
                    HttpClient api = HttpClient.newHttpClient();
                    HttpClient gateway = HttpClient.newBuilder()
                            .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                            .build()) {
                String id = Await.standard()
                        .until("the proxy is listed", () -> proxies(api, server), l -> !l.isEmpty())
                        .getFirst();

                HttpResponse<String> rejected = fetch(gateway, origin);
                assertNotEquals(200, rejected.statusCode(), "the upstream refuses the wrong password");
                Map<String, Object> disabled = record(api, server, id);
                assertEquals("DISABLED", disabled.get("state"), disabled.toString());
                assertEquals("proxy_auth_rejected", disabled.get("reason"));
                assertNotEquals(200, fetch(gateway, origin).statusCode(), "disabled: no traffic");

                // the vendor's password is fixed in the file (rename into place, as an editor or a secret agent does)
                Path next = dir.resolve("credentials.properties.new");
                Files.writeString(next, "vendor.username=vendor-user\nvendor.password=right-pass\n");
                Files.move(next, credentials, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

                Map<String, Object> check = Await.atMost(Duration.ofSeconds(15))
                        .until(
                                "the reload gives the proxy a recovery check",
                                () -> record(api, server, id),
                                r -> "COOLING".equals(r.get("state")));
                assertEquals("credentials_reloaded", check.get("reason"), check.toString());

                HttpResponse<String> ok = fetch(gateway, origin);
                assertEquals(200, ok.statusCode(), ok.body());
                Map<String, Object> healthy = record(api, server, id);
                assertEquals("HEALTHY", healthy.get("state"), healthy.toString());
                assertEquals("probe_succeeded", healthy.get("reason"));
                @SuppressWarnings("unchecked")
                List<Map<String, Object>> transitions = (List<Map<String, Object>>) healthy.get("transitions");
                List<String> reasons =
                        transitions.stream().map(t -> (String) t.get("reason")).toList();
                assertEquals(
                        List.of(
                                "created",
                                "proxy_auth_rejected",
                                "credentials_reloaded",
                                "cooldown_elapsed",
                                "probe_succeeded"),
                        reasons,
                        "one recovery check, no operator enable");
                assertTrue(
                        audit(api, server).stream().noneMatch(a -> "proxy.enable".equals(a.get("action"))),
                        "no operator action was needed");
            }
        }
    }

    private static HttpResponse<String> fetch(HttpClient gateway, FakeOrigin origin) throws Exception {
        return gateway.send(
                HttpRequest.newBuilder(origin.uri("/echo"))
                        .timeout(Duration.ofSeconds(15))
                        .header(
                                "Proxy-Authorization",
                                "Basic "
                                        + Base64.getEncoder()
                                                .encodeToString(
                                                        ("alice:" + CLIENT_SECRET).getBytes(StandardCharsets.UTF_8)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static Map<String, Object> get(HttpClient api, ProxyPoolServer server, String path) throws Exception {
        HttpResponse<String> r = api.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + path))
                        .header("Authorization", "Bearer " + ADMIN)
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return JsonTree.parseObject(r.body());
    }

    @SuppressWarnings("unchecked")
    private static List<String> proxies(HttpClient api, ProxyPoolServer server) throws Exception {
        return ((List<Map<String, Object>>)
                        get(api, server, "/v1/admin/proxies").get("proxies"))
                .stream().map(p -> (String) p.get("id")).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> record(HttpClient api, ProxyPoolServer server, String id) throws Exception {
        return (Map<String, Object>) get(api, server, "/v1/admin/proxies/" + id).get("healthRecord");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> audit(HttpClient api, ProxyPoolServer server) throws Exception {
        return (List<Map<String, Object>>) get(api, server, "/v1/admin/audit").get("entries");
    }
}
