package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.security.SecretHash;
import dev.proxypool.server.persistence.ChangeKind;
import dev.proxypool.server.persistence.ClientDocs;
import dev.proxypool.server.persistence.ConfigChange;
import dev.proxypool.server.persistence.ConfigStore;
import dev.proxypool.server.persistence.EntityType;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The admin configuration API, run over every {@link ConfigStore} implementation: CRUD round trips
 * of all four entity types, audit rows with masked before/after, conflict and validation answers,
 * versions and the change hook. Subclasses say which store.
 */
abstract class AdminContract {

    static final String LOW_COST_HASH = SecretHash.hash("alice-secret".toCharArray(), 1000);
    static final String ALICE_TOKEN = "alice-token-0123456789";

    AdminFixture f;

    /** A fresh, empty store for one test. */
    abstract ConfigStore newStore(InstantSource clock);

    /** Called after the fixture closed (drop a schema). */
    void cleanUp() {}

    @BeforeEach
    void start() {
        f = AdminFixture.options().store(this::newStore).start();
    }

    @AfterEach
    void stop() {
        if (f != null) {
            f.close();
        }
        cleanUp();
    }

    // ---- helpers --------------------------------------------------------------------------------

    void created(AdminFixture.Response r) {
        assertEquals(201, r.status(), r.body());
    }

    void baseline() {
        created(f.post(
                "/providers", "{\"name\": \"lab\", \"type\": \"jsonl_inventory\", \"path\": \"inventory/lab.jsonl\"}"));
        created(f.post(
                "/upstreams", "{\"name\": \"lab-us\", \"provider\": \"lab\", \"params\": {\"country\": \"US\"}}"));
        created(f.post(
                "/upstreams", "{\"name\": \"lab-de\", \"provider\": \"lab\", \"params\": {\"country\": \"DE\"}}"));
    }

    List<String> routingOrder() {
        List<String> out = new ArrayList<>();
        for (Map<String, Object> r : f.get("/routings").list("routings")) {
            out.add((String) r.get("name"));
            assertEquals(out.size() - 1, ((Number) r.get("position")).intValue(), "positions are dense and ordered");
        }
        return out;
    }

    List<Map<String, Object>> audit() {
        return f.get("/audit?limit=1000").list("entries");
    }

    // ---- CRUD -----------------------------------------------------------------------------------

    @Test
    void providersRoundTrip() {
        AdminFixture.Response c = f.post(
                "/providers",
                "{\"name\": \"vendor-a\", \"type\": \"http_json_feed\", \"url\": \"https://u:pw@feed.example/list\","
                        + " \"fields\": {\"host\": \"ip\"}, \"labels\": {\"type\": \"residential\"}}");
        created(c);
        assertEquals(
                "/v1/admin/providers/vendor-a",
                c.headers().firstValue("Location").orElseThrow());
        assertEquals("https://***@feed.example/list", c.json().get("url"), "user info in URLs is masked");
        Map<String, Object> got = f.get("/providers/vendor-a").json();
        assertEquals("http_json_feed", got.get("type"));
        assertEquals(Map.of("host", "ip"), got.get("fields"));
        assertEquals(1, f.get("/providers").list("providers").size());

        AdminFixture.Response u =
                f.put("/providers/vendor-a", "{\"type\": \"http_json_feed\", \"url\": \"https://feed.example/v2\"}");
        assertEquals(200, u.status(), u.body());
        assertEquals(
                "https://feed.example/v2", f.get("/providers/vendor-a").json().get("url"));
        assertNull(f.get("/providers/vendor-a").json().get("fields"), "PUT replaces the whole document");

        assertEquals(204, f.delete("/providers/vendor-a").status());
        assertEquals(404, f.get("/providers/vendor-a").status());
        assertEquals(List.of(), f.get("/providers").list("providers"));
    }

    @Test
    void upstreamsRoundTrip() {
        created(f.post("/providers", "{\"name\": \"lab\", \"type\": \"jsonl_inventory\", \"path\": \"lab.jsonl\"}"));
        created(f.post(
                "/upstreams",
                "{\"name\": \"lab-us\", \"provider\": \"lab\", \"params\": {\"country\": \"US\"},"
                        + " \"fetch\": {\"interval\": \"45s\", \"lowWaterMark\": 5}, \"validate\": false}"));
        Map<String, Object> got = f.get("/upstreams/lab-us").json();
        assertEquals("lab", got.get("provider"));
        assertEquals(Map.of("interval", "45s", "lowWaterMark", new java.math.BigDecimal(5)), got.get("fetch"));

        assertEquals(
                200,
                f.put(
                                "/upstreams/lab-us",
                                "{\"name\": \"lab-us\", \"provider\": \"lab\", \"fetch\": {\"interval\": \"2m\"}}")
                        .status());
        assertEquals("2m", ((Map<?, ?>) f.get("/upstreams/lab-us").json().get("fetch")).get("interval"));
        assertEquals(204, f.delete("/upstreams/lab-us").status());
        assertEquals(404, f.get("/upstreams/lab-us").status());
    }

    @Test
    void routingsKeepTheirOrderByPosition() {
        baseline();
        created(f.post("/routings", "{\"name\": \"a\", \"match\": {\"hosts\": [\"a.example\"]}}"));
        created(f.post("/routings", "{\"name\": \"b\", \"match\": {\"hosts\": [\"b.example\"]}}"));
        created(f.post("/routings", "{\"name\": \"c\", \"upstreams\": [\"lab-us\"]}"));
        assertEquals(List.of("a", "b", "c"), routingOrder());

        AdminFixture.Response first = f.post(
                "/routings",
                "{\"name\": \"shop\", \"position\": 0, \"strategy\": \"sequential\","
                        + " \"upstreams\": [\"lab-us\", \"lab-de\"], \"exhaustion\": \"loop\"}");
        created(first);
        assertEquals(0, ((Number) first.json().get("position")).intValue());
        assertEquals(List.of("shop", "a", "b", "c"), routingOrder());

        assertEquals(
                200,
                f.put(
                                "/routings/shop",
                                "{\"strategy\": \"sequential\", \"upstreams\": [\"lab-de\", \"lab-us\"], \"position\": 3}")
                        .status());
        assertEquals(List.of("a", "b", "c", "shop"), routingOrder());
        assertEquals(List.of("lab-de", "lab-us"), f.get("/routings/shop").json().get("upstreams"));

        assertEquals(200, f.put("/routings/c", "{\"upstreams\": [\"lab-de\"]}").status());
        assertEquals(List.of("a", "b", "c", "shop"), routingOrder(), "an update without position stays put");

        assertEquals(204, f.delete("/routings/a").status());
        assertEquals(List.of("b", "c", "shop"), routingOrder());
        assertEquals(
                200,
                f.put(
                                "/routings/shop",
                                "{\"strategy\": \"sequential\", \"upstreams\": [\"lab-de\", \"lab-us\"], \"position\": 0}")
                        .status());
        assertEquals(List.of("shop", "b", "c"), routingOrder());
        assertEquals(List.of("shop", "b", "c"), f.store.state().names(EntityType.ROUTING));
    }

    @Test
    void clientsNeverShowTheirSecrets() {
        AdminFixture.Response c = f.post(
                "/clients",
                "{\"name\": \"alice\", \"secretHash\": \"" + LOW_COST_HASH + "\", \"token\": \"" + ALICE_TOKEN
                        + "\", \"quota\": {\"extractionsPerHour\": 1000}, \"rateLimit\": {\"rps\": 200}}");
        created(c);
        assertEquals(
                Map.of(
                        "name",
                        "alice",
                        "hasSecret",
                        true,
                        "hasToken",
                        true,
                        "quota",
                        Map.of("extractionsPerHour", new java.math.BigDecimal(1000)),
                        "rateLimit",
                        Map.of("rps", new java.math.BigDecimal(200))),
                c.json());
        for (String leak :
                List.of(LOW_COST_HASH, ALICE_TOKEN, ClientDocs.tokenHash(ALICE_TOKEN), "secretHash", "tokenHash")) {
            assertFalse(c.body().contains(leak), leak);
            assertFalse(f.get("/clients").body().contains(leak), leak);
            assertFalse(f.get("/clients/alice").body().contains(leak), leak);
        }
        ClientTokens tokens = new ClientTokens(f.store.state());
        assertEquals("alice", tokens.clientForBearer("Bearer " + ALICE_TOKEN).orElseThrow());
        assertTrue(tokens.clientForBearer("Bearer wrong-token-0123456789").isEmpty());

        // secret and token left out: kept; null: removed
        assertEquals(
                200,
                f.put("/clients/alice", "{\"quota\": {\"extractionsPerHour\": 5}}")
                        .status());
        Map<String, Object> kept = f.get("/clients/alice").json();
        assertEquals(true, kept.get("hasSecret"));
        assertEquals(true, kept.get("hasToken"));
        assertEquals(Map.of("extractionsPerHour", new java.math.BigDecimal(5)), kept.get("quota"));
        assertEquals(200, f.put("/clients/alice", "{\"token\": null}").status());
        assertEquals(false, f.get("/clients/alice").json().get("hasToken"));
        assertTrue(new ClientTokens(f.store.state())
                .clientForBearer("Bearer " + ALICE_TOKEN)
                .isEmpty());
        assertEquals(true, f.get("/clients/alice").json().get("hasSecret"));

        assertEquals(204, f.delete("/clients/alice").status());
        assertEquals(404, f.get("/clients/alice").status());
    }

    @Test
    void whatAGetAnswersCanBePutBackAsItIsForEveryEntity() {
        baseline();
        created(f.post(
                "/providers",
                "{\"name\": \"vendor-a\", \"type\": \"http_json_feed\", \"url\": \"https://u:pw@feed.example/list\"}"));
        created(f.post("/routings", "{\"name\": \"shop\", \"upstreams\": [\"lab-us\"]}"));
        created(f.post(
                "/clients",
                "{\"name\": \"alice\", \"secretHash\": \"" + LOW_COST_HASH + "\", \"token\": \"" + ALICE_TOKEN
                        + "\", \"quota\": {\"extractionsPerHour\": 1000}}"));
        for (String path : List.of(
                "/providers/lab", "/providers/vendor-a", "/upstreams/lab-us", "/routings/shop", "/clients/alice")) {
            AdminFixture.Response read = f.get(path);
            assertEquals(200, read.status(), read.body());
            AdminFixture.Response put = f.put(path, read.body());
            assertEquals(200, put.status(), path + ": " + put.body());
            assertEquals(read.json(), f.get(path).json(), path + " is unchanged by its own answer");
        }
        // the read-only fields are ignored, not applied: the client keeps its secret and token
        assertEquals(
                200,
                f.put(
                                "/clients/alice",
                                "{\"hasSecret\": false, \"hasToken\": false, \"quota\": {\"extractionsPerHour\": 7}}")
                        .status());
        Map<String, Object> alice = f.get("/clients/alice").json();
        assertEquals(true, alice.get("hasSecret"));
        assertEquals(true, alice.get("hasToken"));
        assertTrue(new ClientTokens(f.store.state())
                .clientForBearer("Bearer " + ALICE_TOKEN)
                .isPresent());
        assertTrue(
                f.put("/upstreams/lab-us", "{\"provider\": \"lab\", \"hasSecret\": true}")
                                .status()
                        == 400,
                "a field no answer of this type carries is still refused");
    }

    @Test
    void aPlainSecretIsStoredAsAVerifiableHash() {
        created(f.post("/clients", "{\"name\": \"bob\", \"secret\": \"bob-plain-secret\"}"));
        Object stored = f.store
                .state()
                .find(EntityType.CLIENT, "bob")
                .orElseThrow()
                .doc()
                .get("secretHash");
        assertTrue(SecretHash.verify("bob-plain-secret".toCharArray(), (String) stored));
        for (Map<String, Object> e : audit()) {
            assertFalse(String.valueOf(e).contains("bob-plain-secret"));
            assertFalse(String.valueOf(e).contains((String) stored));
        }
    }

    // ---- audit ----------------------------------------------------------------------------------

    @Test
    void everyChangeIsAuditedWithBeforeAndAfter() {
        baseline();
        created(f.post("/routings", "{\"name\": \"shop\", \"upstreams\": [\"lab-us\"]}"));
        assertEquals(
                200, f.put("/routings/shop", "{\"upstreams\": [\"lab-de\"]}").status());
        created(f.post(
                "/clients",
                "{\"name\": \"alice\", \"secretHash\": \"" + LOW_COST_HASH + "\", \"token\": \"" + ALICE_TOKEN
                        + "\"}"));
        assertEquals(
                200, f.put("/clients/alice", "{\"rateLimit\": {\"rps\": 5}}").status());
        assertEquals(204, f.delete("/clients/alice").status());
        assertEquals(204, f.delete("/routings/shop").status());

        List<Map<String, Object>> log = audit();
        List<String> actions = log.stream().map(e -> (String) e.get("action")).toList();
        assertEquals(
                List.of(
                        "routing.delete",
                        "client.delete",
                        "client.update",
                        "client.create",
                        "routing.update",
                        "routing.create",
                        "upstream.create",
                        "upstream.create",
                        "provider.create"),
                actions,
                "newest first");
        for (Map<String, Object> e : log) {
            assertEquals("admin", e.get("actor"));
            assertTrue(e.get("at") instanceof String);
        }
        Map<String, Object> routingUpdate = log.get(4);
        assertEquals("routing", routingUpdate.get("entityType"));
        assertEquals("shop", routingUpdate.get("entityName"));
        assertEquals(List.of("lab-us"), ((Map<?, ?>) routingUpdate.get("before")).get("upstreams"));
        assertEquals(List.of("lab-de"), ((Map<?, ?>) routingUpdate.get("after")).get("upstreams"));
        assertEquals(new java.math.BigDecimal(0), ((Map<?, ?>) routingUpdate.get("after")).get("position"));
        assertNull(log.get(5).get("before"), "a creation has no before");
        assertNull(log.get(0).get("after"), "a deletion has no after");

        Map<String, Object> clientUpdate = log.get(2);
        assertEquals(true, ((Map<?, ?>) clientUpdate.get("before")).get("hasToken"));
        String all = f.get("/audit?limit=1000").body();
        for (String leak :
                List.of(LOW_COST_HASH, ALICE_TOKEN, ClientDocs.tokenHash(ALICE_TOKEN), "secretHash", "tokenHash")) {
            assertFalse(all.contains(leak), "audit leaks " + leak);
        }
    }

    @Test
    void auditPagesCoverEveryRowOnceNewestFirst() {
        created(f.post("/providers", "{\"name\": \"lab\", \"type\": \"jsonl_inventory\", \"path\": \"x\"}"));
        for (int i = 0; i < 24; i++) {
            assertEquals(
                    200,
                    f.put("/providers/lab", "{\"type\": \"jsonl_inventory\", \"path\": \"p" + i + "\"}")
                            .status());
        }
        Set<Object> ids = new HashSet<>();
        List<Long> order = new ArrayList<>();
        String cursor = "";
        int pages = 0;
        do {
            AdminFixture.Response r = f.get("/audit?limit=10" + (cursor.isEmpty() ? "" : "&cursor=" + cursor));
            assertEquals(200, r.status(), r.body());
            for (Map<String, Object> e : r.list("entries")) {
                assertTrue(ids.add(e.get("id")), "row listed twice: " + e.get("id"));
                order.add(((Number) e.get("id")).longValue());
            }
            Object next = r.json().get("nextCursor");
            cursor = next == null ? "" : (String) next;
            pages++;
        } while (!cursor.isEmpty());
        assertEquals(25, ids.size());
        assertEquals(3, pages);
        for (int i = 1; i < order.size(); i++) {
            assertTrue(order.get(i - 1) > order.get(i), "newest first");
        }
        assertEquals(400, f.get("/audit?cursor=not-a-cursor").status());
        assertEquals(400, f.get("/audit?limit=0").status());
    }

    // ---- conflicts and validation -----------------------------------------------------------------

    @Test
    void conflictsAndUnknownNamesAreAnsweredWithWhatIsWrong() {
        baseline();
        created(f.post("/routings", "{\"name\": \"shop\", \"upstreams\": [\"lab-us\"]}"));

        AdminFixture.Response dup = f.post("/upstreams", "{\"name\": \"lab-us\", \"provider\": \"lab\"}");
        assertEquals(409, dup.status());
        assertEquals("conflict", dup.error());
        assertEquals("upstream 'lab-us' already exists", dup.message());

        AdminFixture.Response usedProvider = f.delete("/providers/lab");
        assertEquals(409, usedProvider.status());
        assertEquals(
                "provider 'lab' is used by upstreams 'lab-de', 'lab-us'; change or delete those upstreams first",
                usedProvider.message());

        AdminFixture.Response usedUpstream = f.delete("/upstreams/lab-us");
        assertEquals(409, usedUpstream.status());
        assertEquals(
                "upstream 'lab-us' is used by routing 'shop'; remove it from that routing first",
                usedUpstream.message());
        assertEquals(204, f.delete("/upstreams/lab-de").status(), "an unreferenced upstream can go");

        for (AdminFixture.Response r :
                List.of(f.get("/routings/nope"), f.put("/routings/nope", "{}"), f.delete("/routings/nope"))) {
            assertEquals(404, r.status(), r.body());
            assertEquals("not_found", r.error());
            assertEquals("no routing named 'nope'", r.message());
        }
        assertEquals(404, f.get("/clients/nobody").status());
        assertTrue(f.store.state().find(EntityType.UPSTREAM, "lab-us").isPresent(), "refused deletes changed nothing");
    }

    @Test
    void invalidBodiesAreRefusedNamingTheField() {
        baseline();
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put(
                "{\"name\": \"shop\", \"upstreams\": [\"lab-us\", \"nope\"]}",
                "routings[shop].upstreams[1]: names upstream 'nope', which is not defined under upstreams");
        cases.put(
                "{\"name\": \"seq\", \"strategy\": \"sequential\", \"upstreams\": [\"lab-us\"]}",
                "routings[seq].upstreams: a sequential routing needs at least two upstreams, got 1");
        cases.put("{\"name\": \"s\", \"strategy\": \"fastest\"}", "routings[s].strategy: unknown strategy 'fastest'");
        cases.put("{\"name\": \"s\", \"colour\": \"red\"}", "routings[s].colour: unknown key");
        cases.put(
                "{\"name\": \"s\", \"match\": {\"ports\": [0]}}",
                "routings[s].match.ports[0]: port 0 is out of range 1..65535");
        cases.put("{\"name\": \"s\", \"position\": 7}", "routings[s].position: must be between 0 and 0, got 7");
        cases.put("{\"name\": \"s\", \"position\": 1.5}", "routings[s].position: must be a whole number, got 1.5");
        cases.put("{\"name\": \"bad name!\"}", "routings[bad name!].name: 'bad name!' is not a valid name");
        cases.put("{\"upstreams\": []}", "routings[].name: is required");
        cases.put("{\"name\": \"s\", \"upstreams\": ", "request body is not valid JSON");
        cases.put("[1, 2]", "request body must be a JSON object, got an array");
        cases.forEach((body, message) -> {
            AdminFixture.Response r = f.post("/routings", body);
            assertEquals(400, r.status(), body + " -> " + r.body());
            assertEquals("invalid_request", r.error());
            assertTrue(r.message().startsWith(message), body + " -> " + r.message());
        });

        AdminFixture.Response upstream = f.post("/upstreams", "{\"name\": \"x\", \"provider\": \"nope\"}");
        assertEquals(
                "upstreams[x].provider: names provider 'nope', which is not defined under providers",
                upstream.message());
        AdminFixture.Response interval =
                f.post("/upstreams", "{\"name\": \"x\", \"provider\": \"lab\", \"fetch\": {\"interval\": \"10ms\"}}");
        assertEquals("upstreams[x].fetch.interval: must be at least 1s, got 10ms", interval.message());
        AdminFixture.Response token = f.post("/clients", "{\"name\": \"c\", \"token\": \"short\"}");
        assertEquals("clients[c].token: must be at least 16 characters", token.message());
        // a client created at run time follows the config file's rule for plain secrets
        AdminFixture.Response secret = f.post("/clients", "{\"name\": \"c\", \"secret\": \"x\"}");
        assertEquals(400, secret.status(), secret.body());
        assertEquals("clients[c].secret: must be at least 8 characters", secret.message());
        assertEquals(
                "clients[c].secret: must be at least 8 characters",
                f.post("/clients", "{\"name\": \"c\", \"secret\": \"1234567\"}").message());
        AdminFixture.Response hash = f.post("/clients", "{\"name\": \"c\", \"secretHash\": \"plain\"}");
        assertTrue(hash.message().startsWith("clients[c].secretHash: secret hash must look like"), hash.message());
        AdminFixture.Response rename = f.put("/upstreams/lab-us", "{\"name\": \"lab-fr\", \"provider\": \"lab\"}");
        assertTrue(rename.message().startsWith("upstreams[lab-us].name: cannot be changed"), rename.message());
        AdminFixture.Response position = f.post("/providers", "{\"name\": \"p\", \"type\": \"x\", \"position\": 0}");
        assertEquals("providers[p].position: only routings have a position", position.message());

        assertEquals(List.of(), f.get("/routings").list("routings"), "nothing invalid was stored");
        assertEquals(3, audit().size(), "refused writes are not audited");
    }

    // ---- versions and the hook ------------------------------------------------------------------

    @Test
    void everyWriteBumpsTheVersionOnceAndReachesTheHook() {
        long v0 = f.store.state().version();
        baseline();
        assertEquals(v0 + 3, f.store.state().version());
        assertEquals(
                409,
                f.post("/providers", "{\"name\": \"lab\", \"type\": \"x\"}").status());
        assertEquals(
                400,
                f.post("/routings", "{\"name\": \"r\", \"upstreams\": [\"nope\"]}")
                        .status());
        assertEquals(v0 + 3, f.store.state().version(), "refused writes change no version");
        created(f.post("/routings", "{\"name\": \"r\", \"upstreams\": [\"lab-de\"]}"));
        assertEquals(v0 + 4, ((Number) f.get("/routings").json().get("version")).longValue());

        assertEquals(4, f.changes.size());
        ConfigChange last = f.changes.getLast();
        assertEquals(v0 + 4, last.version());
        assertEquals(ChangeKind.CREATE, last.kind());
        assertEquals(EntityType.ROUTING, last.type());
        assertEquals("r", last.name());
        assertEquals(List.of("r"), last.state().names(EntityType.ROUTING));
        assertEquals(
                List.of("lab-de"),
                last.state()
                        .validate(java.nio.file.Path.of("."))
                        .routings()
                        .getFirst()
                        .upstreams(),
                "the hook gets a state it can build the routing table from");
        for (int i = 0; i < f.changes.size(); i++) {
            assertEquals(v0 + 1 + i, f.changes.get(i).version());
        }
    }

    @Test
    void sequentialStatesAreStoredAndReadBack() {
        var s1 = new dev.proxypool.core.sequential.SequentialState(
                "shop",
                1,
                "b",
                false,
                2,
                7,
                dev.proxypool.core.sequential.SwitchReason.EMPTY_THRESHOLD,
                AdminFixture.START);
        var s2 = new dev.proxypool.core.sequential.SequentialState(
                "other",
                0,
                "x",
                true,
                0,
                1,
                dev.proxypool.core.sequential.SwitchReason.ADMIN_RESET,
                AdminFixture.START.plusSeconds(5));
        f.store.saveSequential(List.of(s1, s2));
        var s1b = new dev.proxypool.core.sequential.SequentialState(
                "shop",
                0,
                "a",
                false,
                0,
                8,
                dev.proxypool.core.sequential.SwitchReason.ADMIN_RESET,
                AdminFixture.START.plusSeconds(9));
        f.store.saveSequential(
                s1b,
                dev.proxypool.server.persistence.AuditRecord.of(
                        "admin",
                        "routing.sequential.reset",
                        "routing",
                        "shop",
                        Map.of("index", 1),
                        Map.of("index", 0)));
        Set<Object> states = new HashSet<>(f.store.sequentialStates());
        assertEquals(Set.of(s1b, s2), states);
        assertEquals("routing.sequential.reset", audit().getFirst().get("action"));
    }

    @Test
    void concurrentWritersNeitherLoseNorDuplicateAWrite() throws Exception {
        baseline();
        long v0 = f.store.state().version();
        int threads = 6;
        int each = 8;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    go.await();
                    int ok = 0;
                    for (int i = 0; i < each; i++) {
                        // every other write inserts at the top, so positions shift under concurrent appends
                        String position = i % 2 == 0 ? ", \"position\": 0" : "";
                        if (f.post(
                                                "/routings",
                                                "{\"name\": \"r" + thread + "-" + i + "\", \"upstreams\": [\"lab-us\"]"
                                                        + position + "}")
                                        .status()
                                == 201) {
                            ok++;
                        }
                    }
                    return ok;
                }));
            }
            go.countDown();
            int created = 0;
            for (var d : done) {
                created += d.get(60, java.util.concurrent.TimeUnit.SECONDS);
            }
            assertEquals(threads * each, created);
        } finally {
            pool.shutdownNow();
        }
        List<String> order = routingOrder();
        assertEquals(threads * each, order.size());
        assertEquals(threads * each, new HashSet<>(order).size());
        assertEquals(v0 + threads * each, f.store.state().version(), "one version per write");
        Set<Long> versions = new HashSet<>();
        f.changes.forEach(c -> versions.add(c.version()));
        assertEquals(3 + threads * each, versions.size(), "every write got its own version");
        assertEquals(3 + threads * each, audit().size(), "one audit row per write");
    }

    // ---- named operators ------------------------------------------------------------------------

    Map<String, Object> createOperator(String name, String role) {
        AdminFixture.Response r = f.post("/operators", "{\"name\": \"" + name + "\", \"role\": \"" + role + "\"}");
        created(r);
        return r.json();
    }

    @Test
    void anOperatorsTokenIsShownOnceAndWorksUntilRevoked() {
        Map<String, Object> alice = createOperator("alice", "viewer");
        String token = (String) alice.get("token");
        assertTrue(token.length() >= 43, token);
        assertEquals("viewer", alice.get("role"));
        assertEquals("admin", alice.get("createdBy"));
        // never again: not in the list, not in one operator, not in the audit log, not stored plain
        for (String body : List.of(
                f.get("/operators").body(),
                f.get("/operators/alice").body(),
                f.get("/audit?limit=1000").body())) {
            assertFalse(body.contains(token), body);
            assertFalse(body.contains(ClientDocs.tokenHash(token)), "not even its digest: " + body);
        }
        assertFalse(f.store.operators().toString().contains(token));
        assertEquals(ClientDocs.tokenHash(token), f.store.operators().getFirst().tokenDigest());
        assertEquals(
                List.of("admin", "alice"),
                f.get("/operators").list("operators").stream()
                        .map(o -> o.get("name"))
                        .toList(),
                "the bootstrap identity is listed first");

        AdminFixture.Response who = f.send("GET", "/whoami", null, token);
        assertEquals(200, who.status(), who.body());
        assertEquals(Map.of("name", "alice", "role", "viewer", "bootstrap", false), who.json());
        assertEquals(
                Map.of("name", "admin", "role", "admin", "bootstrap", true),
                f.get("/whoami").json());
        assertEquals(200, f.send("GET", "/providers", null, token).status());

        assertEquals(
                409,
                f.post("/operators", "{\"name\": \"alice\", \"role\": \"admin\"}")
                        .status());
        assertEquals(204, f.delete("/operators/alice").status());
        AdminFixture.Response gone = f.send("GET", "/providers", null, token);
        assertEquals(401, gone.status(), "a revoked token is refused at once");
        assertEquals("unauthorized", gone.error());
        assertEquals(404, f.delete("/operators/alice").status());
        assertEquals(List.of(), f.store.operators());

        List<Map<String, Object>> rows = audit();
        assertEquals("operator.delete", rows.get(0).get("action"));
        assertEquals(Map.of("name", "alice", "role", "viewer"), rows.get(0).get("before"));
        assertEquals("operator.create", rows.get(1).get("action"));
        assertEquals("admin", rows.get(1).get("actor"));
    }

    @Test
    void theAuditLogNamesTheOperatorWhoActed() {
        String bob = (String) createOperator("bob", "admin").get("token");
        AdminFixture.Response c = f.send(
                "POST",
                "/providers",
                "{\"name\": \"lab\", \"type\": \"jsonl_inventory\", \"path\": \"lab.jsonl\"}",
                bob);
        created(c);
        String carol = (String) f.send("POST", "/operators", "{\"name\": \"carol\", \"role\": \"viewer\"}", bob)
                .json()
                .get("token");
        assertEquals(204, f.send("DELETE", "/providers/lab", null, bob).status());
        List<Map<String, Object>> rows = audit();
        assertEquals(
                List.of("provider.delete bob", "operator.create bob", "provider.create bob", "operator.create admin"),
                rows.stream().map(r -> r.get("action") + " " + r.get("actor")).toList());
        assertEquals("bob", f.get("/operators/carol").json().get("createdBy"));
        assertEquals("carol", f.send("GET", "/whoami", null, carol).json().get("name"));
    }

    @Test
    void operatorInputIsCheckedAndTheBootstrapIdentityIsReserved() {
        AdminFixture.Response bad = f.post("/operators", "{\"name\": \"dave\", \"role\": \"root\"}");
        assertEquals(400, bad.status());
        assertEquals("operators[dave].role: must be admin or viewer, got 'root'", bad.message());
        bad = f.post("/operators", "{\"name\": \"a b\", \"role\": \"viewer\"}");
        assertEquals(400, bad.status());
        assertTrue(bad.message().startsWith("operators[].name: must be 1 to 64 letters"), bad.message());
        bad = f.post("/operators", "{\"name\": \"dave\", \"role\": \"viewer\", \"token\": \"mine\"}");
        assertEquals(400, bad.status());
        assertEquals("operators[].token: unknown key (known here: name, role)", bad.message());
        AdminFixture.Response reserved = f.post("/operators", "{\"name\": \"admin\", \"role\": \"viewer\"}");
        assertEquals(409, reserved.status());
        assertTrue(reserved.message().contains("reserved"), reserved.message());
        AdminFixture.Response bootstrap = f.delete("/operators/admin");
        assertEquals(409, bootstrap.status());
        assertTrue(bootstrap.message().contains("admin.token"), bootstrap.message());
        assertEquals(List.of(), f.store.operators());
        assertEquals(List.of(), audit(), "nothing refused is audited");
    }

    // ---- secrets in provider URLs ---------------------------------------------------------------

    static final String KEY = "K3Y-5ecret-0123456789";
    static final String FEED = "https://acct:pa55w0rd@feed.example/v1/list?apikey=" + KEY + "&country={country}";

    @Test
    void aProviderUrlsApiKeyIsNeverAnsweredInClearAndAMaskedEditKeepsIt() {
        AdminFixture.Response c =
                f.post("/providers", "{\"name\": \"vendor\", \"type\": \"http_json_feed\", \"url\": \"" + FEED + "\"}");
        created(c);
        String masked = "https://***@feed.example/v1/list?apikey=***&country={country}";
        assertEquals(masked, c.json().get("url"));
        Map<String, Object> doc = f.get("/providers/vendor").json();
        assertEquals(masked, doc.get("url"));

        // the console's edit: the document as answered, one field changed, the masked URL sent back
        AdminFixture.Response u = f.put(
                "/providers/vendor",
                "{\"type\": \"http_json_feed\", \"url\": \"" + masked + "\", \"labels\": {\"tier\": \"gold\"}}");
        assertEquals(200, u.status(), u.body());
        assertEquals(masked, u.json().get("url"));
        assertEquals(
                FEED,
                f.store
                        .state()
                        .find(EntityType.PROVIDER, "vendor")
                        .orElseThrow()
                        .doc()
                        .get("url"),
                "the stored configuration keeps the real key");
        assertEquals(Map.of("tier", "gold"), f.get("/providers/vendor").json().get("labels"));

        // a new path with the key kept by its mask; a mask with nothing behind it is refused
        assertEquals(
                200,
                f.put(
                                "/providers/vendor",
                                "{\"type\": \"http_json_feed\", \"url\": \"https://***@feed.example/v2/list?apikey=***\"}")
                        .status());
        assertEquals(
                "https://acct:pa55w0rd@feed.example/v2/list?apikey=" + KEY,
                f.store
                        .state()
                        .find(EntityType.PROVIDER, "vendor")
                        .orElseThrow()
                        .doc()
                        .get("url"));
        AdminFixture.Response bad = f.put(
                "/providers/vendor",
                "{\"type\": \"http_json_feed\", \"url\": \"https://feed.example/v2/list?token=***\"}");
        assertEquals(400, bad.status());
        assertEquals(
                "providers[vendor].url: the query parameter 'token' is masked (***) but the stored url has no value"
                        + " for it: send the real value",
                bad.message());
        assertEquals(
                400,
                f.post("/providers", "{\"name\": \"copy\", \"type\": \"http_json_feed\", \"url\": \"" + masked + "\"}")
                        .status(),
                "a copied masked URL cannot create a provider without its key");

        for (String body : List.of(
                f.get("/providers").body(),
                f.get("/providers/vendor").body(),
                f.get("/audit?limit=1000").body(),
                u.body(),
                c.body())) {
            assertFalse(body.contains(KEY), body);
            assertFalse(body.contains("pa55w0rd"), body);
            assertFalse(body.contains("acct"), body);
        }
        assertTrue(f.get("/audit?limit=1000").body().contains("apikey=***"));
    }
}
