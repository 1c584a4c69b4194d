package dev.proxypool.server.nodes;

import static dev.proxypool.server.nodes.NodeFixture.ADMIN;
import static dev.proxypool.server.nodes.NodeFixture.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.server.persistence.Database;
import dev.proxypool.server.persistence.Migrator;
import dev.proxypool.server.persistence.PgSchema;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Registered nodes and tokens survive a control-plane restart with the real PostgreSQL: a second
 * control plane (new pool, new registry, new HTTP server) over the same schema serves them.
 */
class NodeRestartTest {

    private PgSchema schema;
    private Database db;
    private final ManualClock clock = new ManualClock(NodeFixture.START);

    @BeforeEach
    void setUp() {
        schema = PgSchema.create();
        db = Database.open(schema.settings());
        Migrator.classpath().migrate(db.dataSource());
    }

    @AfterEach
    void tearDown() {
        db.close();
        schema.close();
    }

    @Test
    void nodesAndTokensSurviveARestart() throws Exception {
        String token;
        String nodeId;
        String credential;
        String proxyId;
        try (NodeFixture first = new NodeFixture(new PostgresNodeStore(db), clock)) {
            token = first.issue("edge-eu");
            first.issue("edge-us");
            HttpResponse<String> r = first.register(
                    token,
                    "203.0.113.10",
                    3128,
                    "{\"region\": \"eu\"}",
                    "\"weight\": 4, \"metadata\": {\"agent\": \"1.4.2\"}");
            assertEquals(201, r.statusCode(), r.body());
            nodeId = field(r.body(), "nodeId");
            credential = field(r.body(), "credential");
            proxyId = first.registry.node(nodeId).orElseThrow().proxyId();
            assertEquals(
                    200,
                    first.send("PUT", "/" + nodeId, ADMIN, "{\"labels\": {\"region\": \"eu\", \"type\": \"dc\"}}")
                            .statusCode());
        }
        assertTrue(
                schema.scalar("SELECT string_agg(token_digest, ',') FROM node_tokens")
                                .indexOf(token)
                        < 0,
                "only digests are stored");

        // the control plane is down for 5 minutes (longer than the liveness timeout, shorter than the credential)
        clock.advance(Duration.ofMinutes(5));
        try (NodeFixture second = new NodeFixture(new PostgresNodeStore(db), clock)) {
            List<Proxy> pooled = second.inSnapshot();
            assertEquals(1, pooled.size(), "the restored node is in the new pool at once");
            Proxy p = pooled.getFirst();
            assertEquals(proxyId, p.id());
            assertEquals("dc", p.labels().get("type"), "the update survived too");
            assertEquals(4, p.weight());

            HttpResponse<String> hb = second.heartbeat(nodeId, credential, null);
            assertEquals(200, hb.statusCode(), "the agent heartbeats on with the credential it holds: " + hb.body());
            clock.advance(Duration.ofSeconds(1)); // then it stops: after the restart's heartbeat, nothing more
            HttpResponse<String> list = second.send("GET", "/tokens", ADMIN, null);
            assertTrue(list.body().contains("edge-eu") && list.body().contains("edge-us"), list.body());
            HttpResponse<String> node = second.send("GET", "/" + nodeId, ADMIN, null);
            assertEquals(200, node.statusCode());
            assertTrue(node.body().contains("\"agent\":\"1.4.2\""), node.body());
            HttpResponse<String> other = second.register(token, "203.0.113.11", 3128);
            assertEquals(201, other.statusCode(), "the token still registers");

            // a node that does not heartbeat after the restart leaves after one liveness timeout
            clock.advance(Duration.ofSeconds(20));
            assertEquals(
                    200,
                    second.heartbeat(field(other.body(), "nodeId"), field(other.body(), "credential"), null)
                            .statusCode());
            clock.advance(Duration.ofSeconds(11));
            second.registry.sweep();
            assertEquals(
                    0,
                    second.inSnapshot().stream()
                            .filter(x -> x.id().equals(proxyId))
                            .count());
            assertEquals(
                    "1", schema.scalar("SELECT count(*) FROM node_members"), "the dead node is gone from the table");

            assertEquals(
                    204, second.send("DELETE", "/tokens/edge-eu", ADMIN, null).statusCode());
        }
        try (NodeFixture third = new NodeFixture(new PostgresNodeStore(db), clock)) {
            assertEquals(List.of("edge-us"), third.registry.tokenNames(), "a revocation survives too");
            assertEquals(List.of(), third.inSnapshot());
            assertFalse(third.send("GET", "/tokens", ADMIN, null).body().contains("edge-eu"));
        }
    }
}
