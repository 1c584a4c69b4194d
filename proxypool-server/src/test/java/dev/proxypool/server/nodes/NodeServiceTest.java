package dev.proxypool.server.nodes;

import static dev.proxypool.server.nodes.NodeFixture.ADMIN;
import static dev.proxypool.server.nodes.NodeFixture.field;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The node registration API over a real server: registration, heartbeats, liveness, revocation, errors. */
class NodeServiceTest {

    private final NodeFixture f = new NodeFixture();

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void registeredNodeIsInTheNextSnapshot() throws Exception {
        String token = f.issue("edge-eu");
        HttpResponse<String> r = f.register(token, "203.0.113.10", 3128);

        assertEquals(201, r.statusCode(), r.body());
        assertTrue(field(r.body(), "nodeId").startsWith("n-"));
        assertEquals(43, field(r.body(), "credential").length(), "32 bytes base64url");
        assertEquals(NodeFixture.START.plus(Duration.ofMinutes(10)).toString(), field(r.body(), "expiresAt"));
        assertEquals("10", field(r.body(), "heartbeatIntervalSeconds"));
        List<Proxy> nodes = f.inSnapshot();
        assertEquals(1, nodes.size());
        Proxy p = nodes.getFirst();
        assertEquals("203.0.113.10", p.host());
        assertEquals(3128, p.port());
        assertEquals("nodes", p.provider());
        assertEquals("eu", p.labels().get("region"));
        assertEquals(5, p.maxConcurrency());
        assertTrue(p.id().startsWith("p-"));
    }

    @Test
    void heartbeatsKeepTheNodeAlivePastTheTimeout() throws Exception {
        HttpResponse<String> r = f.register(f.issue("a"), "203.0.113.10", 3128);
        String id = field(r.body(), "nodeId");
        String credential = field(r.body(), "credential");

        for (int i = 0; i < 6; i++) {
            f.clock.advance(Duration.ofSeconds(20));
            HttpResponse<String> hb = f.heartbeat(id, credential, null);
            assertEquals(200, hb.statusCode(), hb.body());
            assertEquals(f.clock.instant().plus(Duration.ofMinutes(10)).toString(), field(hb.body(), "expiresAt"));
            assertEquals(0, f.registry.sweep());
            assertEquals(1, f.inSnapshot().size(), "alive after " + (i + 1) * 20 + " s of heartbeats");
        }
    }

    @Test
    void missedHeartbeatsRemoveTheNodeAtTheNextSweep() throws Exception {
        HttpResponse<String> r = f.register(f.issue("a"), "203.0.113.10", 3128);
        String id = field(r.body(), "nodeId");

        f.clock.advance(Duration.ofSeconds(30));
        assertEquals(0, f.registry.sweep(), "exactly the timeout is still alive");
        assertEquals(1, f.inSnapshot().size());
        f.clock.advance(Duration.ofSeconds(1));
        assertEquals(1, f.registry.sweep());

        assertEquals(List.of(), f.inSnapshot());
        assertEquals(401, f.heartbeat(id, field(r.body(), "credential"), null).statusCode(), "dropped: register again");
    }

    @Test
    void lateHeartbeatBeforeTheSweepIsRefusedAndRemovesTheNode() throws Exception {
        HttpResponse<String> r = f.register(f.issue("a"), "203.0.113.10", 3128);
        f.clock.advance(Duration.ofSeconds(31));

        assertEquals(
                401,
                f.heartbeat(field(r.body(), "nodeId"), field(r.body(), "credential"), null)
                        .statusCode());
        assertEquals(List.of(), f.inSnapshot());
    }

    @Test
    void revokingTheTokenRemovesItsNodesAtOnce() throws Exception {
        String token = f.issue("edge-eu");
        String other = f.issue("edge-us");
        HttpResponse<String> a = f.register(token, "203.0.113.10", 3128);
        f.register(token, "203.0.113.11", 3128);
        f.register(other, "198.51.100.20", 8080);
        assertEquals(3, f.inSnapshot().size());

        HttpResponse<String> revoke = f.send("DELETE", "/tokens/edge-eu", ADMIN, null);

        assertEquals(204, revoke.statusCode(), revoke.body());
        List<Proxy> left = f.inSnapshot();
        assertEquals(1, left.size(), "no sweep needed");
        assertEquals("198.51.100.20", left.getFirst().host());
        assertEquals(
                401,
                f.heartbeat(field(a.body(), "nodeId"), field(a.body(), "credential"), null)
                        .statusCode());
        assertEquals(401, f.register(token, "203.0.113.10", 3128).statusCode(), "a revoked token registers nothing");
        assertEquals(404, f.send("DELETE", "/tokens/edge-eu", ADMIN, null).statusCode());
    }

    @Test
    void farFutureTimestampsFromTheNodeChangeNothing() throws Exception {
        HttpResponse<String> r = f.register(f.issue("a"), "203.0.113.10", 3128);
        String id = field(r.body(), "nodeId");
        String credential = field(r.body(), "credential");
        f.clock.advance(Duration.ofSeconds(10));

        HttpResponse<String> hb = f.heartbeat(
                id,
                credential,
                "{\"timestamp\": \"2999-01-01T00:00:00Z\", \"lastHeartbeat\": 32503680000000, \"expiresAt\": \"2999-01-01T00:00:00Z\"}");

        assertEquals(200, hb.statusCode(), hb.body());
        Instant now = f.clock.instant();
        assertEquals(now.plus(Duration.ofMinutes(10)).toString(), field(hb.body(), "expiresAt"));
        assertEquals(now, f.registry.nodes().getFirst().lastHeartbeat());
        f.clock.advance(Duration.ofSeconds(31));
        assertEquals(1, f.registry.sweep(), "dead by the control plane's clock whatever the node claimed");
        assertEquals(List.of(), f.inSnapshot());
    }

    @Test
    void unknownTokenIs401() throws Exception {
        f.issue("a");
        HttpResponse<String> r = f.register("not-a-token", "203.0.113.10", 3128);

        assertEquals(401, r.statusCode());
        assertEquals(
                "Bearer realm=\"proxypool\"",
                r.headers().firstValue("WWW-Authenticate").orElse(""));
        assertEquals(
                401,
                f.send("POST", "", null, "{\"host\": \"203.0.113.10\", \"port\": 3128, \"protocol\": \"http\"}")
                        .statusCode(),
                "no token at all");
        assertEquals(List.of(), f.inSnapshot());
    }

    @Test
    void badCredentialIs401() throws Exception {
        String token = f.issue("a");
        HttpResponse<String> a = f.register(token, "203.0.113.10", 3128);
        HttpResponse<String> b = f.register(token, "203.0.113.11", 3128);
        String id = field(a.body(), "nodeId");

        assertEquals(
                401,
                f.heartbeat(id, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", null)
                        .statusCode(),
                "wrong secret");
        assertEquals(
                401, f.heartbeat(id, field(b.body(), "credential"), null).statusCode(), "another node's credential");
        assertEquals(401, f.heartbeat(id, null, null).statusCode(), "no Authorization");
        assertEquals(
                401,
                f.send("POST", "/" + id + "/heartbeat", "Basic " + field(a.body(), "credential"), null)
                        .statusCode(),
                "not a bearer credential");
        assertEquals(
                401,
                f.heartbeat("n-unknown", field(a.body(), "credential"), null).statusCode(),
                "unknown node");
        assertEquals(401, f.heartbeat(id, token, null).statusCode(), "the registration token is not a credential");
        assertEquals(2, f.inSnapshot().size(), "failed heartbeats remove nothing");
    }

    @Test
    void badInputIs400NamingTheField() throws Exception {
        String token = f.issue("a");
        String[][] cases = {
            {"{\"host\": \"203.0.113.10\", \"port\": 3128}", "protocol"},
            {"{\"port\": 3128, \"protocol\": \"http\"}", "host"},
            {"{\"host\": \"bad host/x\", \"port\": 3128, \"protocol\": \"http\"}", "host"},
            {"{\"host\": 12, \"port\": 3128, \"protocol\": \"http\"}", "host"},
            {"{\"host\": \"203.0.113.10\", \"protocol\": \"http\"}", "port"},
            {"{\"host\": \"203.0.113.10\", \"port\": 0, \"protocol\": \"http\"}", "port"},
            {"{\"host\": \"203.0.113.10\", \"port\": 65536, \"protocol\": \"http\"}", "port"},
            {"{\"host\": \"203.0.113.10\", \"port\": \"3128\", \"protocol\": \"http\"}", "port"},
            {"{\"host\": \"203.0.113.10\", \"port\": 3128.5, \"protocol\": \"http\"}", "port"},
            {"{\"host\": \"203.0.113.10\", \"port\": 3128, \"protocol\": \"ftp\"}", "protocol"},
            {
                "{\"host\": \"203.0.113.10\", \"port\": 3128, \"protocol\": \"http\", \"maxConcurrency\": 0}",
                "maxConcurrency"
            },
            {"{\"host\": \"203.0.113.10\", \"port\": 3128, \"protocol\": \"http\", \"labels\": [1]}", "labels"},
            {"{\"host\": \"203.0.113.10\", \"port\": 3128, \"protocol\": \"http\", \"labels\": {\"a\": 1}}", "labels.a"
            },
            {"{\"host\": \"203.0.113.10\", \"port\": 3128, \"protocol\": \"http\", \"weight\": 0}", "weight"},
            {
                "{\"host\": \"203.0.113.10\", \"port\": 3128, \"protocol\": \"http\", \"colour\": 3}",
                "unknown field 'colour'"
            },
            {"[1, 2]", "JSON object"},
            {"{not json", "JSON object"},
        };
        for (String[] c : cases) {
            String body = c[0].startsWith("{\"") ? "{\"token\": \"" + token + "\", " + c[0].substring(1) : c[0];
            HttpResponse<String> r = f.send("POST", "", null, body);
            assertEquals(400, r.statusCode(), c[0] + " -> " + r.body());
            assertTrue(field(r.body(), "message").contains(c[1]), c[0] + " should name " + c[1] + ": " + r.body());
        }
        assertEquals(List.of(), f.inSnapshot());
    }

    @Test
    void adminEndpointsNeedTheAdminCheck() throws Exception {
        assertEquals(401, f.send("POST", "/tokens", null, "{\"name\": \"a\"}").statusCode());
        assertEquals(
                401,
                f.send("POST", "/tokens", "Bearer wrong", "{\"name\": \"a\"}").statusCode());
        f.issue("a");
        assertEquals(401, f.send("DELETE", "/tokens/a", "Bearer wrong", null).statusCode());
        assertEquals(401, f.send("GET", "/tokens", null, null).statusCode());
        assertEquals(401, f.send("GET", "", null, null).statusCode());
        assertEquals(List.of("a"), f.registry.tokenNames(), "nothing revoked without the admin");
        assertEquals(409, f.send("POST", "/tokens", ADMIN, "{\"name\": \"a\"}").statusCode(), "names are unique");
        HttpResponse<String> bad = f.send("POST", "/tokens", ADMIN, "{\"name\": \"no spaces\"}");
        assertEquals(400, bad.statusCode());
        assertTrue(field(bad.body(), "message").contains("name"), bad.body());
    }

    @Test
    void credentialsAndTokensAreNeverInGetsNorToString() throws Exception {
        String token = f.issue("edge-eu");
        HttpResponse<String> r = f.register(token, "203.0.113.10", 3128);
        String credential = field(r.body(), "credential");

        HttpResponse<String> nodes = f.send("GET", "", ADMIN, null);
        HttpResponse<String> tokens = f.send("GET", "/tokens", ADMIN, null);

        assertEquals(200, nodes.statusCode());
        assertEquals(200, tokens.statusCode());
        assertTrue(nodes.body().contains(field(r.body(), "nodeId")), nodes.body());
        assertTrue(tokens.body().contains("edge-eu"), tokens.body());
        for (String body : List.of(nodes.body(), tokens.body())) {
            assertFalse(body.contains(credential), body);
            assertFalse(body.contains(token), body);
        }
        NodeCredential c = new NodeCredential("n-1", credential, Instant.EPOCH);
        IssuedToken t = new IssuedToken("edge-eu", token);
        for (String s : List.of(c.toString(), t.toString(), f.registry.nodes().toString())) {
            assertFalse(s.contains(credential), s);
            assertFalse(s.contains(token), s);
        }
    }

    @Test
    void anAddressHeldByAnotherTokensLiveNodeIsAConflict() throws Exception {
        String a = f.issue("a");
        String b = f.issue("b");
        HttpResponse<String> first = f.register(a, "203.0.113.10", 3128);

        assertEquals(409, f.register(b, "203.0.113.10", 3128).statusCode());
        f.clock.advance(Duration.ofSeconds(31));
        assertEquals(201, f.register(b, "203.0.113.10", 3128).statusCode(), "a dead holder gives way");
        assertEquals(
                401,
                f.heartbeat(field(first.body(), "nodeId"), field(first.body(), "credential"), null)
                        .statusCode());
        assertEquals(1, f.inSnapshot().size());
    }

    @Test
    void reRegisteringWithTheSameTokenSupersedesTheOldNode() throws Exception {
        String token = f.issue("a");
        HttpResponse<String> first = f.register(token, "203.0.113.10", 3128);
        HttpResponse<String> second = f.register(token, "203.0.113.10", 3128);

        assertEquals(201, second.statusCode());
        assertEquals(1, f.registry.nodes().size());
        assertEquals(1, f.inSnapshot().size());
        assertEquals(
                401,
                f.heartbeat(field(first.body(), "nodeId"), field(first.body(), "credential"), null)
                        .statusCode());
        assertEquals(
                200,
                f.heartbeat(field(second.body(), "nodeId"), field(second.body(), "credential"), null)
                        .statusCode());
    }

    @Test
    void aNodeMayLeaveWithItsCredential() throws Exception {
        HttpResponse<String> r = f.register(f.issue("a"), "203.0.113.10", 3128);
        String id = field(r.body(), "nodeId");

        assertEquals(401, f.send("DELETE", "/" + id, "Bearer wrong", null).statusCode());
        assertEquals(
                204,
                f.send("DELETE", "/" + id, "Bearer " + field(r.body(), "credential"), null)
                        .statusCode());
        assertEquals(List.of(), f.inSnapshot());
    }
}
