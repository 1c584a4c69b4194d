package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.server.contract.OpenApiContract;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Admin API's entities are typed in the OpenAPI document: each of providers, upstreams, routings
 * and clients has its own paths and its own schema (closed: {@code additionalProperties: false}),
 * and a live server's answers carry exactly those properties. Every exchange below also goes through
 * {@link OpenApiContract#check} (the fixture's), so an answer with a key the schema does not list fails.
 */
class AdminEntitySchemaTest {

    /** Plural path segment to schema name. */
    private static final Map<String, String> ENTITIES = Map.of(
            "providers", "Provider",
            "upstreams", "Upstream",
            "routings", "Routing",
            "clients", "Client");

    private AdminFixture f;

    @BeforeEach
    void start() {
        f = AdminFixture.options().start();
    }

    @AfterEach
    void stop() {
        f.close();
    }

    @Test
    void everyEntityHasItsOwnPathsAndClosedSchema() {
        JsonNode doc = OpenApiContract.get().document();
        JsonNode paths = doc.path("paths");
        paths.fieldNames().forEachRemaining(p -> assertFalse(p.contains("{entity}"), "an untyped path remains: " + p));
        assertTrue(doc.path("components").path("schemas").path("Entity").isMissingNode(), "the untyped Entity schema");
        for (Map.Entry<String, String> e : ENTITIES.entrySet()) {
            String plural = e.getKey();
            String schema = "#/components/schemas/" + e.getValue();
            JsonNode list = paths.path("/v1/admin/" + plural);
            JsonNode one = paths.path("/v1/admin/" + plural + "/{name}");
            assertEquals(schema + "List", ref(list.path("get").path("responses").path("200")), plural);
            assertEquals(schema, ref(list.path("post").path("requestBody")), plural);
            assertEquals(schema, ref(list.path("post").path("responses").path("201")), plural);
            assertEquals(schema, ref(one.path("get").path("responses").path("200")), plural);
            assertEquals(schema, ref(one.path("put").path("requestBody")), plural);
            assertEquals(schema, ref(one.path("put").path("responses").path("200")), plural);
            assertFalse(one.path("delete").isMissingNode(), plural);

            JsonNode s = schema(e.getValue());
            assertEquals("object", s.path("type").asText(), e.getValue());
            assertFalse(s.path("additionalProperties").asBoolean(true), e.getValue() + " is closed");
            assertTrue(s.path("properties").has("name"), e.getValue());
            JsonNode listSchema = schema(e.getValue() + "List");
            assertEquals(
                    schema,
                    listSchema
                            .path("properties")
                            .path(plural)
                            .path("items")
                            .path("$ref")
                            .asText(),
                    e.getValue() + "List");
            assertEquals(Set.of(plural, "version"), names(listSchema.path("properties")), e.getValue() + "List");
        }
    }

    /**
     * Entities created with (nearly) every key of their section come back with keys from their schema
     * only, the read-only ones included and the write-only ones never.
     */
    @Test
    void liveAnswersCarryTheSchemasProperties() {
        created(f.post(
                "/providers",
                "{\"name\": \"lab\", \"type\": \"jsonl_inventory\", \"path\": \"lab.jsonl\", \"protocol\": \"http\","
                        + " \"credentialRef\": \"vendor\", \"maxBytes\": \"1000000\", \"timeout\": \"5s\","
                        + " \"fields\": {\"host\": \"ip\"}, \"labels\": {\"type\": \"residential\"}}"));
        created(f.post(
                "/providers",
                "{\"name\": \"feed\", \"type\": \"http_json_feed\", \"url\": \"https://user:pw@feed.example/list\","
                        + " \"listField\": \"data\", \"expiresAtFormat\": \"epochSeconds\"}"));
        created(f.post(
                "/upstreams",
                "{\"name\": \"lab-us\", \"provider\": \"lab\", \"params\": {\"country\": \"US\"},"
                        + " \"fetch\": {\"interval\": \"45s\", \"lowWaterMark\": 3}, \"validate\": false,"
                        + " \"resolveDestinations\": true}"));
        created(f.post("/upstreams", "{\"name\": \"lab-de\", \"provider\": \"lab\"}"));
        created(f.post(
                "/routings",
                "{\"name\": \"shop\", \"position\": 0, \"match\": {\"hosts\": [\"*.shop.example\"], \"ports\": [443],"
                        + " \"methods\": [\"CONNECT\"], \"headers\": {\"X-Team\": \"a\"}}, \"strategy\": \"sequential\","
                        + " \"upstreams\": [\"lab-us\", \"lab-de\"], \"exhaustion\": \"loop\", \"emptyThreshold\": 2,"
                        + " \"filter\": {\"protocols\": [\"http\"], \"labels\": {\"type\": \"residential\"}},"
                        + " \"minRemainingTtl\": \"30s\", \"maxHealthAge\": \"5m\","
                        + " \"sticky\": {\"enabled\": true, \"lifetime\": \"10m\", \"onLost\": \"strict\"},"
                        + " \"retry\": {\"maxAttempts\": 3, \"budgetPercent\": 10}, \"onNoCandidate\": \"wait\","
                        + " \"waitTimeout\": \"2s\"}"));
        created(f.post(
                "/routings",
                "{\"name\": \"hashed\", \"strategy\": \"consistentHash\", \"hashKey\": \"header:X-User\"}"));
        created(f.post(
                "/clients",
                "{\"name\": \"alice\", \"secret\": \"alice-secret-1\", \"token\": \"alice-token-0123456789\","
                        + " \"quota\": {\"extractionsPerHour\": 100}, \"rateLimit\": {\"rps\": 5}}"));

        for (Map.Entry<String, String> e : ENTITIES.entrySet()) {
            String plural = e.getKey();
            JsonNode s = schema(e.getValue());
            Set<String> properties = names(s.path("properties"));
            Set<String> writeOnly = flagged(s, "writeOnly");
            AdminFixture.Response list = f.get("/" + plural);
            assertEquals(200, list.status(), list.body());
            List<Map<String, Object>> items = list.list(plural);
            assertFalse(items.isEmpty(), plural);
            for (Map<String, Object> item : items) {
                String name = (String) item.get("name");
                AdminFixture.Response one = f.get("/" + plural + "/" + name);
                assertEquals(200, one.status(), one.body());
                for (Map<String, Object> answer : List.of(item, one.json())) {
                    Set<String> keys = new TreeSet<>(answer.keySet());
                    assertTrue(
                            properties.containsAll(keys),
                            plural + "/" + name + " answers keys outside " + e.getValue() + ": " + keys + " vs "
                                    + properties);
                    for (String required : required(s)) {
                        assertTrue(keys.contains(required), plural + "/" + name + " lacks " + required);
                    }
                    assertTrue(keys.contains("name"), plural + "/" + name);
                    for (String w : writeOnly) {
                        assertFalse(keys.contains(w), plural + "/" + name + " answers write-only " + w);
                    }
                    for (String r : flagged(s, "readOnly")) {
                        assertTrue(keys.contains(r), plural + "/" + name + " lacks read-only " + r);
                    }
                }
                if (plural.equals("routings")) {
                    assertTrue(one.json().containsKey("position"), "a routing answers its position");
                }
            }
        }
    }

    /** Every property a schema lists for writing is a key the server reads (a wrong value is refused by name, not as unknown). */
    @Test
    void everyWritablePropertyIsAKeyTheServerKnows() {
        created(f.post("/providers", "{\"name\": \"lab\", \"type\": \"jsonl_inventory\", \"path\": \"lab.jsonl\"}"));
        Map<String, String> base = new LinkedHashMap<>();
        base.put("providers", "\"type\": \"jsonl_inventory\", \"path\": \"lab.jsonl\"");
        base.put("upstreams", "\"provider\": \"lab\"");
        base.put("routings", "");
        base.put("clients", "\"secret\": \"alice-secret-1\"");
        List<String> unknown = new ArrayList<>();
        int probed = 0;
        for (Map.Entry<String, String> e : ENTITIES.entrySet()) {
            String plural = e.getKey();
            JsonNode s = schema(e.getValue());
            Set<String> skip = new TreeSet<>(flagged(s, "readOnly"));
            skip.add("name");
            skip.add("position");
            for (String key : names(s.path("properties"))) {
                if (skip.contains(key) || base.get(plural).contains("\"" + key + "\"")) {
                    continue;
                }
                String prefix = base.get(plural).isEmpty() ? "" : base.get(plural) + ", ";
                String body = "{\"name\": \"probe\", " + prefix + JsonCodec.quote(key) + ": [[\"not a value\"]]}";
                AdminFixture.Response r = f.post("/" + plural, body);
                probed++;
                assertNotEquals(201, r.status(), plural + "." + key + " took a nested list: " + r.body());
                String message = String.valueOf(r.message());
                if (message.contains(key + ": unknown key") || message.contains("unknown field '" + key + "'")) {
                    unknown.add(plural + "." + key + " (" + message + ")");
                }
            }
        }
        assertTrue(probed >= 40, "probed " + probed + " properties");
        assertEquals(List.of(), unknown, "properties the schemas list but the server refuses as unknown");
    }

    private static void created(AdminFixture.Response r) {
        assertEquals(201, r.status(), r.body());
    }

    private static JsonNode schema(String name) {
        JsonNode s = OpenApiContract.get()
                .document()
                .path("components")
                .path("schemas")
                .path(name);
        assertFalse(s.isMissingNode(), "schema " + name);
        return s;
    }

    private static String ref(JsonNode bodyOrResponse) {
        return bodyOrResponse
                .path("content")
                .path("application/json")
                .path("schema")
                .path("$ref")
                .asText();
    }

    private static Set<String> names(JsonNode object) {
        Set<String> out = new TreeSet<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static Set<String> required(JsonNode schema) {
        Set<String> out = new TreeSet<>();
        schema.path("required").forEach(n -> out.add(n.asText()));
        return out;
    }

    private static Set<String> flagged(JsonNode schema, String flag) {
        Set<String> out = new TreeSet<>();
        schema.path("properties").properties().forEach(p -> {
            if (p.getValue().path(flag).asBoolean(false)) {
                out.add(p.getKey());
            }
        });
        return out;
    }
}
