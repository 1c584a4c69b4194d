package dev.proxypool.server.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.GatewayServer;
import dev.proxypool.server.ProxyPoolServer;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.io.IOException;
import java.io.InputStream;
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
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The OpenAPI document itself: valid OpenAPI 3.1 by a real parser, served at {@code /openapi} (YAML, and
 * JSON on {@code Accept: application/json}) exactly as kept in the repository, and describing every route
 * the server's sources register. The fixtures of the API tests check their exchanges against it
 * ({@link OpenApiContract}); here the endpoints no fixture covers are exercised on a live server.
 */
@Tag("slow")
class OpenApiDocumentTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ADMIN = "openapi-admin-0123456789";
    private static final String CLIENT_TOKEN = "openapi-client-0123456789";

    @TempDir
    Path dir;

    @Test
    void theDocumentIsValidOpenApi31() throws IOException {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(document(), null, options);
        assertEquals(List.of(), result.getMessages(), "swagger-parser's messages about META-INF/openapi.yaml");
        assertTrue(
                result.getOpenAPI().getOpenapi().startsWith("3.1"),
                result.getOpenAPI().getOpenapi());
        assertTrue(
                result.getOpenAPI().getPaths().size() >= 20,
                "paths: " + result.getOpenAPI().getPaths().keySet());
    }

    /** Every route registered in the server's main sources has its path in the document. */
    @Test
    void everyRouteTheServerRegistersIsDocumented() throws IOException {
        Path main = serverMainSources();
        Map<String, String> prefixes = Map.of(
                "AdminService.java", "/v1/admin",
                "NodeService.java", "/v1/nodes",
                "DistributionService.java", "/v1/extractions",
                "ProxyLeaseService.java", "/v1/proxy");
        Pattern route = Pattern.compile("\\b(?:rules|r)\\.(get|post|put|delete|patch)\\(\\s*\"(/[^\"]*)\"");
        Set<String> documented = new TreeSet<>();
        for (OpenApiContract.Operation op : OpenApiContract.get().operations()) {
            documented.add(op.method() + " " + normalise(op.template()));
        }
        List<String> missing = new ArrayList<>();
        int routes = 0;
        try (Stream<Path> files = Files.walk(main)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String source = Files.readString(f, StandardCharsets.UTF_8);
                String prefix = prefixes.getOrDefault(f.getFileName().toString(), "");
                Matcher m = route.matcher(source);
                while (m.find()) {
                    routes++;
                    String path = m.group(2).startsWith("/v1/") || m.group(2).startsWith("/observe")
                            ? m.group(2)
                            : prefix + (m.group(2).equals("/") ? "" : m.group(2));
                    String key = m.group(1).toUpperCase() + " " + normalise(path);
                    if (!documented.contains(key) && !documentedByTemplate(key)) {
                        missing.add(key + " (" + f.getFileName() + ")");
                    }
                }
            }
        }
        assertTrue(routes >= 20, "found only " + routes + " routes under " + main);
        assertEquals(List.of(), missing, "routes the server registers but META-INF/openapi.yaml does not describe");
    }

    @Test
    void theCheckerRejectsWhatTheDocumentDoesNotSay() {
        OpenApiContract contract = OpenApiContract.get();
        URI echo = URI.create("http://127.0.0.1:1/v1/echo");
        AssertionError wrongShape = assertThrows(
                AssertionError.class, () -> contract.check("GET", echo, null, 200, "application/json", "{\"ip\": 5}"));
        assertTrue(wrongShape.getMessage().contains("does not conform"), wrongShape.getMessage());
        AssertionError wrongStatus = assertThrows(
                AssertionError.class, () -> contract.check("GET", echo, null, 418, "application/json", "{}"));
        assertTrue(wrongStatus.getMessage().contains("does not list"), wrongStatus.getMessage());
        AssertionError unknown = assertThrows(
                AssertionError.class,
                () -> contract.check(
                        "POST", URI.create("http://127.0.0.1:1/v1/nothing"), null, 200, "application/json", "{}"));
        assertTrue(unknown.getMessage().contains("no such operation"), unknown.getMessage());
        AssertionError missingField = assertThrows(
                AssertionError.class,
                () -> contract.check(
                        "POST",
                        URI.create("http://127.0.0.1:1/v1/extractions"),
                        "{\"count\": 1}",
                        200,
                        "application/json",
                        "{\"requested\": 1, \"proxies\": []}"));
        assertTrue(missingField.getMessage().contains("extracted"), missingField.getMessage());
    }

    @Test
    void aLiveServerServesTheDocumentAndItsUndocumentedCornersConform() throws Exception {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: {host: 127.0.0.1, gatewayPort: 0, apiPort: 0}
                admin: {token: %s}
                clients:
                  - {name: alice, secret: alice-secret-1, token: %s}
                health: {active: {enabled: false}}
                """.formatted(ADMIN, CLIENT_TOKEN));
        HttpClient http = HttpClient.newBuilder()
                .proxy(HttpClient.Builder.NO_PROXY)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        OpenApiContract contract = OpenApiContract.get();
        try (ProxyPoolServer server =
                ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).start()) {
            String base = "http://127.0.0.1:" + server.apiPort();

            HttpResponse<String> yaml = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/openapi")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, yaml.statusCode());
            assertTrue(
                    yaml.headers()
                            .firstValue("Content-Type")
                            .orElse("")
                            .matches("application/(vnd\\.oai\\.openapi|yaml).*"),
                    "content type " + yaml.headers().map());
            Object served = new Yaml().load(yaml.body());
            assertEquals(contract.document(), JSON.valueToTree(served), "the YAML served is the repository's document");

            HttpResponse<String> json = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/openapi"))
                            .header("Accept", "application/json")
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, json.statusCode());
            assertTrue(
                    json.headers().firstValue("Content-Type").orElse("").contains("json"),
                    "content type " + json.headers().map());
            JsonNode servedJson = JSON.readTree(json.body());
            assertEquals(contract.document().path("info"), servedJson.path("info"));
            assertEquals(
                    contract.document().path("paths").size(),
                    servedJson.path("paths").size());

            exchange(http, contract, HttpRequest.newBuilder(URI.create(base + "/v1/echo")), null, 200);
            exchange(http, contract, HttpRequest.newBuilder(URI.create(base + "/observe/health")), null, 200);
            exchange(http, contract, HttpRequest.newBuilder(URI.create(base + "/observe/health/ready")), null, 200);
            exchange(
                    http,
                    contract,
                    HttpRequest.newBuilder(URI.create(base + "/observe/metrics"))
                            .header("Accept", "text/plain"),
                    null,
                    200);
            String feedback = "{\"proxy\": \"p-unknown\", \"domain\": \"shop.example\", \"kind\": \"banned\"}";
            exchange(
                    http,
                    contract,
                    HttpRequest.newBuilder(URI.create(base + "/v1/feedback"))
                            .header("Authorization", "Bearer " + CLIENT_TOKEN)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(feedback)),
                    feedback,
                    404);
            exchange(
                    http,
                    contract,
                    HttpRequest.newBuilder(URI.create(base + "/v1/feedback"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(feedback)),
                    feedback,
                    401);
            for (String path : List.of("/v1/admin/snapshot", "/v1/admin/pipeline", "/v1/admin/audit?limit=5")) {
                exchange(
                        http,
                        contract,
                        HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + ADMIN),
                        null,
                        200);
            }
            exchange(http, contract, HttpRequest.newBuilder(URI.create(base + "/v1/admin/snapshot")), null, 401);
        }
    }

    private static void exchange(
            HttpClient http, OpenApiContract contract, HttpRequest.Builder b, String body, int expected)
            throws Exception {
        HttpRequest request = b.timeout(Duration.ofSeconds(20)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(expected, response.statusCode(), request.uri() + ": " + response.body());
        contract.check(request, body, response);
    }

    private static boolean documentedByTemplate(String key) {
        int space = key.indexOf(' ');
        return OpenApiContract.get()
                .find(key.substring(0, space), key.substring(space + 1).replace("{}", "x"))
                .isPresent();
    }

    private static String normalise(String path) {
        String p = path.replaceAll("\\{[^}]+}", "{}");
        return p.length() > 1 && p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    }

    private static Path serverMainSources() {
        Path p = Path.of("src/main/java/dev/proxypool/server");
        if (!Files.isDirectory(p)) {
            p = Path.of("proxypool-server").resolve(p);
        }
        assertTrue(
                Files.isDirectory(p),
                "server main sources not found from " + Path.of("").toAbsolutePath());
        return p;
    }

    private static String document() throws IOException {
        try (InputStream in =
                GatewayServer.class.getClassLoader().getResourceAsStream(GatewayServer.OPENAPI_DOCUMENT)) {
            assertTrue(in != null, GatewayServer.OPENAPI_DOCUMENT + " on the class path");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
