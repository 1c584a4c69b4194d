package dev.proxypool.server.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.proxypool.server.GatewayServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.Yaml;

/**
 * The repository's OpenAPI document as a checker of real exchanges: the API tests' fixtures hand every
 * request they send and the answer they got to {@link #check}, which fails the test when the operation,
 * its status or a JSON body is not what the document says. So the document cannot drift from the code
 * without a test failing. Schemas are JSON Schema 2020-12 (OpenAPI 3.1's dialect), checked by the
 * networknt validator against the document itself, {@code $ref}s included.
 */
public final class OpenApiContract {

    private static final String DOCUMENT_URI = "urn:proxypool:openapi";
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");
    private static final OpenApiContract INSTANCE = load();

    /** One operation: method, path template and where it sits in the document. */
    public record Operation(String method, String template, Pattern pattern, String pointer, JsonNode node) {}

    private final JsonNode document;
    private final List<Operation> operations;
    private final JsonSchemaFactory factory;
    private final Map<String, JsonSchema> schemas = new ConcurrentHashMap<>();
    private final Set<String> exercised = ConcurrentHashMap.newKeySet();

    private OpenApiContract(JsonNode document, String json) {
        this.document = document;
        this.operations = operations(document);
        this.factory = JsonSchemaFactory.getInstance(
                SpecVersion.VersionFlag.V202012, b -> b.schemaLoaders(l -> l.schemas(Map.of(DOCUMENT_URI, json))));
    }

    /** The document on the server's class path (the one {@code /openapi} serves). */
    public static OpenApiContract get() {
        return INSTANCE;
    }

    /** The document as a JSON tree. */
    public JsonNode document() {
        return document;
    }

    /** Every operation the document describes. */
    public List<Operation> operations() {
        return operations;
    }

    /** {@code "METHOD template status"} of every exchange checked so far in this JVM. */
    public Set<String> exercised() {
        return Set.copyOf(exercised);
    }

    /**
     * Checks one real exchange.
     *
     * @param request     what was sent
     * @param requestBody its body as sent (null: none)
     * @param response    what came back
     * @throws AssertionError naming what does not conform
     */
    public void check(HttpRequest request, String requestBody, HttpResponse<String> response) {
        check(
                request.method(),
                request.uri(),
                requestBody,
                response.statusCode(),
                response.headers().firstValue("Content-Type").orElse(""),
                response.body());
    }

    /**
     * Checks one real exchange given by its parts.
     *
     * @throws AssertionError naming what does not conform
     */
    public void check(
            String method, URI uri, String requestBody, int status, String responseContentType, String responseBody) {
        String path = uri.getRawPath();
        Optional<Operation> found = find(method, path);
        if (found.isEmpty()) {
            if (status == 404 || status == 405 || status == 401) {
                // an unknown path answered as unknown, or refused before routing for want of a token
                // (the admin API does not tell an anonymous caller which paths exist): nothing to
                // conform to. Every route the server registers is documented (OpenApiDocumentTest).
                return;
            }
            throw new AssertionError("OpenAPI: " + method + " " + path + " answered " + status
                    + " but the document describes no such operation");
        }
        Operation op = found.get();
        String responsesPointer = op.pointer() + "/responses";
        String statusKey = Integer.toString(status);
        JsonNode responses = op.node().path("responses");
        if (!responses.has(statusKey)) {
            if (!responses.has("default")) {
                throw new AssertionError("OpenAPI: " + method + " " + op.template() + " answered " + status
                        + ", which the document does not list (it lists " + fieldNames(responses) + "); body: "
                        + abbreviate(responseBody));
            }
            statusKey = "default";
        }
        exercised.add(method.toUpperCase(Locale.ROOT) + " " + op.template() + " " + statusKey);
        String responsePointer = responsesPointer + "/" + escape(statusKey);
        JsonNode responseNode = responses.get(statusKey);
        if (responseNode.has("$ref")) {
            responsePointer = responseNode.get("$ref").asText().substring(1);
            responseNode = at(responsePointer);
        }
        if (responseContentType.toLowerCase(Locale.ROOT).startsWith("application/json")
                && responseBody != null
                && !responseBody.isEmpty()) {
            JsonNode content = responseNode.path("content").path("application/json");
            if (content.isMissingNode()) {
                throw new AssertionError("OpenAPI: " + method + " " + op.template() + " " + status
                        + " answered JSON, but the document gives no application/json content: "
                        + abbreviate(responseBody));
            }
            validate(
                    responsePointer + "/content/application~1json/schema",
                    responseBody,
                    method + " " + op.template() + " " + status + " response");
        }
        if (status >= 200 && status < 300 && requestBody != null && !requestBody.isBlank()) {
            JsonNode body = op.node().path("requestBody");
            if (body.isMissingNode()) {
                return; // a body the operation ignores (a heartbeat's)
            }
            if (!body.path("content").path("application/json").isMissingNode()) {
                validate(
                        op.pointer() + "/requestBody/content/application~1json/schema",
                        requestBody,
                        method + " " + op.template() + " request accepted with " + status);
            }
        }
    }

    /** The operation a request reaches: literal segments win over parameters. */
    public Optional<Operation> find(String method, String path) {
        for (Operation op : operations) {
            if (op.method().equalsIgnoreCase(method)
                    && op.pattern().matcher(path).matches()) {
                return Optional.of(op);
            }
        }
        return Optional.empty();
    }

    private void validate(String pointer, String json, String what) {
        JsonSchema schema = schemas.computeIfAbsent(pointer, p -> {
            SchemaValidatorsConfig config = SchemaValidatorsConfig.builder().build();
            return factory.getSchema(SchemaLocation.of(DOCUMENT_URI + "#" + p), config);
        });
        JsonNode value;
        try {
            value = MAPPER.readTree(json);
        } catch (IOException e) {
            throw new AssertionError("OpenAPI: " + what + " is not JSON: " + abbreviate(json), e);
        }
        Set<ValidationMessage> errors = schema.validate(value);
        if (!errors.isEmpty()) {
            throw new AssertionError("OpenAPI: " + what + " does not conform to " + pointer + ": " + errors + "\nbody: "
                    + abbreviate(json));
        }
    }

    private JsonNode at(String pointer) {
        JsonNode n = document.at(pointer);
        if (n.isMissingNode()) {
            throw new AssertionError("OpenAPI: dangling $ref " + pointer);
        }
        return n;
    }

    private static List<Operation> operations(JsonNode document) {
        List<Operation> ops = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> paths =
                document.path("paths").properties().iterator();
        while (paths.hasNext()) {
            Map.Entry<String, JsonNode> p = paths.next();
            String template = p.getKey();
            Pattern pattern =
                    Pattern.compile("^" + Pattern.quote(template).replaceAll("\\{[^}]+}", "\\\\E[^/]+\\\\Q") + "/?$");
            for (Map.Entry<String, JsonNode> m : p.getValue().properties()) {
                if (METHODS.contains(m.getKey())) {
                    ops.add(new Operation(
                            m.getKey().toUpperCase(Locale.ROOT),
                            template,
                            pattern,
                            "/paths/" + escape(template) + "/" + m.getKey(),
                            m.getValue()));
                }
            }
        }
        ops.sort(Comparator.comparingInt((Operation o) -> parameters(o.template()))
                .thenComparing(o -> -o.template().length()));
        return List.copyOf(ops);
    }

    private static int parameters(String template) {
        return (int) template.chars().filter(c -> c == '{').count();
    }

    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> names = new ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String abbreviate(String s) {
        return s == null ? "(none)" : s.length() <= 600 ? s : s.substring(0, 600) + "...";
    }

    private static OpenApiContract load() {
        try (InputStream in =
                GatewayServer.class.getClassLoader().getResourceAsStream(GatewayServer.OPENAPI_DOCUMENT)) {
            if (in == null) {
                throw new IllegalStateException(GatewayServer.OPENAPI_DOCUMENT + " is not on the class path");
            }
            Object yaml = new Yaml().load(in);
            String json = MAPPER.writeValueAsString(yaml);
            return new OpenApiContract(MAPPER.readTree(json), json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
