package dev.proxypool.server.nodes;

import static dev.proxypool.server.nodes.NodeFixture.ADMIN;
import static dev.proxypool.server.nodes.NodeFixture.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The node API beyond registration, over a real server: update, one node, health, label filter, weight. */
class NodeApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final NodeFixture f = new NodeFixture();

    @AfterEach
    void close() {
        f.close();
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body());
    }

    @Test
    void weightAndMetadataAreAcceptedAtRegistration() throws Exception {
        HttpResponse<String> r = f.register(
                f.issue("a"),
                "203.0.113.10",
                3128,
                "{\"region\": \"eu\"}",
                "\"weight\": 3, \"metadata\": {\"agent\": \"1.4.2\"}");
        assertEquals(201, r.statusCode(), r.body());
        assertEquals("30", field(r.body(), "livenessTimeoutSeconds"));
        String id = field(r.body(), "nodeId");

        assertEquals(3, f.inSnapshot().getFirst().weight());
        JsonNode node = json(f.send("GET", "/" + id, ADMIN, null));
        assertEquals(3, node.get("weight").asInt());
        assertEquals("1.4.2", node.get("metadata").get("agent").asText());

        HttpResponse<String> bad = f.register(f.issue("b"), "203.0.113.11", 3128, "{}", "\"weight\": 0");
        assertEquals(400, bad.statusCode());
        assertTrue(json(bad).get("message").asText().startsWith("weight"), bad.body());
        HttpResponse<String> badMeta = f.register(f.issue("c"), "203.0.113.12", 3128, "{}", "\"metadata\": {\"v\": 1}");
        assertEquals(400, badMeta.statusCode());
        assertTrue(json(badMeta).get("message").asText().startsWith("metadata.v"), badMeta.body());
    }

    @Test
    void putChangesLabelsWeightAndMetadataAndThePoolFollows() throws Exception {
        HttpResponse<String> r = f.register(f.issue("a"), "203.0.113.10", 3128, "{\"region\": \"eu\"}", "");
        String id = field(r.body(), "nodeId");
        String credential = field(r.body(), "credential");
        String proxyId = f.registry.node(id).orElseThrow().proxyId();

        HttpResponse<String> put = f.send(
                "PUT",
                "/" + id,
                ADMIN,
                "{\"labels\": {\"region\": \"us\", \"type\": \"dc\"}, \"weight\": 5, \"metadata\": {\"site\": \"fra-1\"}}");

        assertEquals(200, put.statusCode(), put.body());
        JsonNode answer = json(put);
        assertEquals("us", answer.get("labels").get("region").asText());
        assertEquals(5, answer.get("weight").asInt());
        assertEquals(10, answer.get("maxConcurrency").asInt(), "absent fields stay as they were");
        Proxy p = f.inSnapshot(proxyId);
        assertEquals("us", p.labels().get("region"));
        assertEquals("dc", p.labels().get("type"));
        assertEquals(5, p.weight());
        assertEquals(
                "fra-1",
                json(f.send("GET", "/" + id, ADMIN, null))
                        .get("metadata")
                        .get("site")
                        .asText());

        // the node itself may change its own advert with its credential
        HttpResponse<String> own = f.send("PUT", "/" + id, "Bearer " + credential, "{\"maxConcurrency\": 7}");
        assertEquals(200, own.statusCode(), own.body());
        assertEquals(7, f.inSnapshot(proxyId).maxConcurrency());
        assertEquals(5, f.inSnapshot(proxyId).weight());
    }

    @Test
    void putRefusesBadInputUnknownIdsAndStrangers() throws Exception {
        HttpResponse<String> r = f.register(f.issue("a"), "203.0.113.10", 3128);
        String id = field(r.body(), "nodeId");

        String[][] cases = {
            {"{\"weight\": 0}", "weight"},
            {"{\"weight\": \"x\"}", "weight"},
            {"{\"maxConcurrency\": 0}", "maxConcurrency"},
            {"{\"labels\": [1]}", "labels"},
            {"{\"labels\": {\"region\": 1}}", "labels.region"},
            {"{\"host\": \"198.51.100.1\"}", "host cannot be changed"},
            {"{\"colour\": \"red\"}", "unknown field 'colour'"},
            {"[]", "body"},
        };
        for (String[] c : cases) {
            HttpResponse<String> put = f.send("PUT", "/" + id, ADMIN, c[0]);
            assertEquals(400, put.statusCode(), c[0] + " " + put.body());
            assertTrue(json(put).get("message").asText().startsWith(c[1]), c[0] + " " + put.body());
        }
        assertEquals(1, f.inSnapshot().getFirst().weight(), "nothing changed");

        assertEquals(404, f.send("PUT", "/n-nope", ADMIN, "{\"weight\": 2}").statusCode());
        assertEquals(404, f.send("GET", "/n-nope", ADMIN, null).statusCode());
        assertEquals(404, f.send("GET", "/n-nope/health", ADMIN, null).statusCode());
        assertEquals(401, f.send("PUT", "/" + id, null, "{\"weight\": 2}").statusCode());
        assertEquals(
                401, f.send("PUT", "/" + id, "Bearer wrong", "{\"weight\": 2}").statusCode());
        assertEquals(401, f.send("GET", "/" + id + "/health", null, null).statusCode());
    }

    @Test
    void healthShowsStateReasonStageCountersHistoryAndTheLastHeartbeat() throws Exception {
        HttpResponse<String> r = f.register(f.issue("a"), "203.0.113.10", 3128);
        String id = field(r.body(), "nodeId");
        String credential = field(r.body(), "credential");
        f.clock.advance(Duration.ofSeconds(7));
        assertEquals(200, f.heartbeat(id, credential, null).statusCode());
        f.clock.advance(Duration.ofSeconds(4));

        JsonNode fresh = json(f.send("GET", "/" + id + "/health", "Bearer " + credential, null));
        assertTrue(fresh.get("alive").asBoolean());
        assertEquals(
                NodeFixture.START.plusSeconds(7).toString(),
                fresh.get("lastHeartbeat").asText());
        assertEquals(4, fresh.get("secondsSinceHeartbeat").asInt());
        assertEquals("HEALTHY", fresh.get("health").get("state").asText());
        assertEquals("created", fresh.get("health").get("reason").asText());

        // three failures in a row through the node (the passive rule) cool it
        String proxyId = f.registry.node(id).orElseThrow().proxyId();
        ProxyHealth health = EmbeddedProxyPool.engineOf(f.pool)
                .runtime(proxyId)
                .orElseThrow()
                .health();
        long now = EmbeddedProxyPool.engineOf(f.pool).ticker().read();
        for (int i = 0; i < 3; i++) {
            Admission a = health.tryAdmit(now);
            health.recordFailure(a, FailureKind.CONNECT_TIMEOUT, now);
        }

        JsonNode cooled = json(f.send("GET", "/" + id + "/health", ADMIN, null)).get("health");
        assertEquals("COOLING", cooled.get("state").asText(), cooled.toString());
        assertEquals("connect_timeout", cooled.get("reason").asText());
        assertEquals("passive", cooled.get("stage").asText());
        assertEquals(f.clock.instant().toString(), cooled.get("since").asText());
        assertEquals(
                f.clock.instant().plus(Duration.ofMinutes(3)).toString(),
                cooled.get("cooldownUntil").asText());
        assertEquals(1, cooled.get("backoffStep").asInt());
        assertEquals(3, cooled.get("counters").get("windowFailures").asInt());
        List<String> states = new ArrayList<>();
        cooled.get("transitions")
                .forEach(t -> states.add(
                        t.get("state").asText() + "/" + t.get("reason").asText()));
        assertEquals(List.of("HEALTHY/created", "COOLING/connect_timeout"), states);
    }

    @Test
    void listingFiltersByEveryGivenLabel() throws Exception {
        String token = f.issue("a");
        f.register(token, "203.0.113.10", 3128, "{\"region\": \"eu\", \"type\": \"dc\"}", "");
        f.register(token, "203.0.113.11", 3128, "{\"region\": \"eu\", \"type\": \"residential\"}", "");
        f.register(token, "203.0.113.12", 3128, "{\"region\": \"us\", \"type\": \"dc\"}", "");

        assertEquals(List.of("203.0.113.10", "203.0.113.11"), hosts("?label.region=eu"));
        assertEquals(List.of("203.0.113.10"), hosts("?label.region=eu&label.type=dc"));
        assertEquals(List.of(), hosts("?label.region=eu&label.type=mobile"));
        assertEquals(3, hosts("").size());

        HttpResponse<String> bad = f.send("GET", "?region=eu", ADMIN, null);
        assertEquals(400, bad.statusCode());
        assertTrue(json(bad).get("message").asText().contains("region"), bad.body());
        assertEquals(
                400,
                f.send("GET", "?label.region=eu&label.region=us", ADMIN, null).statusCode());
        assertEquals(401, f.send("GET", "?label.region=eu", null, null).statusCode());
    }

    private List<String> hosts(String query) throws Exception {
        HttpResponse<String> r = f.send("GET", query, ADMIN, null);
        assertEquals(200, r.statusCode(), r.body());
        List<String> hosts = new ArrayList<>();
        json(r).get("nodes").forEach(n -> hosts.add(n.get("host").asText()));
        hosts.sort(null);
        return hosts;
    }
}
