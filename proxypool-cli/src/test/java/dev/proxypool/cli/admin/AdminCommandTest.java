package dev.proxypool.cli.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.persistence.JsonTree;
import dev.proxypool.testkit.TestPorts;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code proxypool admin ...} against a real {@link ProxyPoolServer}: upstream {@code lab} holds 250
 * proxies (198.51.100.x / 192.0.2.x), {@code lab2} three, and the sequential routing {@code seq}
 * goes lab then lab2 (the routing {@code plain2} uses lab2 too, so the pipeline fetches it at once:
 * an upstream only sequential routings name is fetched only while it is their current one).
 */
@Tag("slow")
class AdminCommandTest {

    static final String TOKEN = "admin-token-0123456789";

    @TempDir
    static Path dir;

    static ProxyPoolServer server;

    @BeforeAll
    static void start() throws IOException {
        StringBuilder lab = new StringBuilder();
        for (int i = 0; i < 250; i++) {
            String host = i < 200 ? "198.51.100." + (i + 1) : "192.0.2." + (i - 199);
            lab.append("{\"host\": \"")
                    .append(host)
                    .append("\", \"port\": ")
                    .append(8000 + i % 7)
                    .append(", \"protocol\": \"")
                    .append(i % 2 == 0 ? "http" : "socks5")
                    .append("\", \"labels\": {\"country\": \"")
                    .append(i % 5 == 0 ? "DE" : "US")
                    .append("\"}, \"ttlSeconds\": 3600}\n");
        }
        Files.writeString(dir.resolve("lab.jsonl"), lab.toString());
        Files.writeString(dir.resolve("lab2.jsonl"), """
                {"host": "203.0.113.1", "port": 3128, "protocol": "http"}
                {"host": "203.0.113.2", "port": 3128, "protocol": "http"}
                {"host": "203.0.113.3", "port": 3128, "protocol": "http"}
                """);
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                store: { type: memory }
                admin: { token: %s }
                providers:
                  - { name: lab, type: jsonl_inventory, path: lab.jsonl }
                  - { name: lab2, type: jsonl_inventory, path: lab2.jsonl }
                upstreams:
                  - { name: lab, provider: lab, validate: false }
                  - { name: lab2, provider: lab2, validate: false }
                routings:
                  - { name: seq, strategy: sequential, upstreams: [lab, lab2], exhaustion: loop }
                  - { name: plain2, match: { hosts: [lab2.example] }, upstreams: [lab2] }
                health: { active: { enabled: false } }
                """.formatted(TOKEN));
        server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                .configDir(dir)
                .start();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    static String api() {
        return "http://127.0.0.1:" + server.apiPort();
    }

    /** {@code proxypool admin <args> --api <server> --token <admin token>}. */
    static AdminRun admin(String... args) {
        List<String> all = new ArrayList<>();
        all.add("admin");
        all.addAll(List.of(args));
        all.addAll(List.of("--api", api(), "--token", TOKEN));
        return AdminRun.run(all.toArray(String[]::new));
    }

    static Map<String, Object> json(AdminRun r) {
        return JsonTree.parseObject(r.out().strip());
    }

    static void ok(AdminRun r) {
        assertEquals(0, r.exit(), r.toString());
        assertEquals("", r.err(), r.toString());
    }

    /** An error: the exit code and exactly one stderr line, no stack trace. */
    static String oneLineError(AdminRun r, int exit) {
        assertEquals(exit, r.exit(), r.toString());
        assertEquals(1, r.errLines().size(), r.toString());
        assertFalse(r.err().contains("\tat "), r.toString());
        return r.errLines().getFirst();
    }

    // ---- configuration CRUD -----------------------------------------------------------------------

    @Test
    void routingRoundTripListCreateGetUpdateDelete() throws IOException {
        AdminRun before = admin("routings", "list");
        ok(before);
        assertTrue(
                before.outLines().getFirst().matches("NAME\\s+POSITION\\s+STRATEGY\\s+MATCH\\s+UPSTREAMS"),
                before.out());
        assertTrue(before.out().contains("seq"), before.out());

        Path file = dir.resolve("shop.json");
        Files.writeString(
                file, "{\"name\": \"shop\", \"match\": {\"hosts\": [\"*.shop.example\"]}, \"upstreams\": [\"lab2\"]}");
        AdminRun created = admin("routings", "create", "--file", file.toString());
        ok(created);
        assertEquals("shop", json(created).get("name"));
        assertEquals(new BigDecimal(2), json(created).get("position"), "appended");

        AdminRun got = admin("routings", "get", "shop");
        ok(got);
        assertEquals(List.of("lab2"), json(got).get("upstreams"));

        AdminRun listed = admin("routings", "list");
        ok(listed);
        assertTrue(
                listed.out().matches("(?s).*\\bshop\\s+2\\s+roundRobin\\s+hosts=\\*\\.shop\\.example\\s+lab2.*"),
                listed.out());

        AdminRun updated =
                admin("routings", "update", "shop", "--json", "{\"upstreams\": [\"lab\", \"lab2\"], \"position\": 0}");
        ok(updated);
        assertEquals(List.of("lab", "lab2"), json(updated).get("upstreams"));
        assertEquals(new BigDecimal(0), json(admin("routings", "get", "shop")).get("position"));

        AdminRun asJson = admin("routings", "list", "--json");
        ok(asJson);
        List<?> names = ((List<?>) json(asJson).get("routings"))
                .stream().map(m -> ((Map<?, ?>) m).get("name")).toList();
        assertEquals(List.of("shop", "seq", "plain2"), names);

        AdminRun deleted = admin("routings", "delete", "shop");
        ok(deleted);
        assertEquals("deleted routing 'shop'", deleted.out().strip());
        String gone = oneLineError(admin("routings", "get", "shop"), 1);
        assertTrue(gone.startsWith("proxypool admin routings get: 404 not_found: "), gone);

        AdminRun audit = admin("audit", "--limit", "3");
        ok(audit);
        assertTrue(audit.out().matches("(?s).*routing\\.delete\\s+routing shop.*"), audit.out());
    }

    @Test
    void deletingAnUpstreamARoutingUsesIsAConflictExit1OneLine() {
        String line = oneLineError(admin("upstreams", "delete", "lab2"), 1);
        assertTrue(line.startsWith("proxypool admin upstreams delete: 409 conflict: "), line);
        assertTrue(line.contains("plain2") || line.contains("seq"), line);
        ok(admin("upstreams", "get", "lab2"));
    }

    @Test
    void anInvalidDocumentIs400Exit2NamingTheField() {
        String line = oneLineError(
                admin("routings", "create", "--json", "{\"name\": \"bad\", \"upstreams\": [\"nope\"]}"), 2);
        assertTrue(
                line.startsWith("proxypool admin routings create: 400 invalid_request: routings[bad].upstreams"), line);
        assertTrue(line.contains("nope"), line);
        assertEquals(2, admin("routings", "create", "--json", "not json").exit());
    }

    @Test
    void bodyProblemsAreUsageErrorsBeforeAnyRequest() {
        String none = oneLineError(admin("routings", "create"), 2);
        assertTrue(none.contains("--file") && none.contains("--json"), none);
        oneLineError(admin("routings", "update", "seq", "--json", "{}", "--file", "x.json"), 2);
        String missing = oneLineError(
                admin(
                        "providers",
                        "create",
                        "--file",
                        dir.resolve("absent.json").toString()),
                2);
        assertTrue(missing.contains("absent.json") && missing.contains("no such file"), missing);
        oneLineError(AdminRun.run("admin", "routings", "list", "--bogus"), 2);
        assertEquals(2, AdminRun.run("admin").exit(), "a group alone is a missing subcommand");
        String noToken = oneLineError(AdminRun.run("admin", "snapshot", "--api", api(), "--token", " "), 2);
        assertEquals("proxypool admin snapshot: no admin token: pass --token or set PROXYPOOL_ADMIN_TOKEN", noToken);
        oneLineError(admin("snapshot", "--timeout", "soon"), 2);
        oneLineError(AdminRun.run("admin", "snapshot", "--api", "localhost:9090", "--token", TOKEN), 2);
    }

    // ---- proxies ----------------------------------------------------------------------------------

    @Test
    void proxiesAreMaskedByDefaultAndShownOnRequest() {
        AdminRun r = admin("proxies", "list", "--upstream", "lab", "--limit", "5");
        ok(r);
        assertTrue(
                r.outLines()
                        .getFirst()
                        .matches("ID\\s+HOST\\s+PROTOCOL\\s+UPSTREAM\\s+STATE\\s+HEALTH\\s+IN-FLIGHT\\s+TTL"),
                r.out());
        assertEquals(7, r.outLines().size(), r.out());
        assertFalse(r.out().matches("(?s).*(198\\.51\\.100\\.|192\\.0\\.2\\.)\\d.*"), r.out());
        assertTrue(r.out().matches("(?s).*(198\\.51|192\\.0)\\.x\\.x:80\\d\\d\\s.*"), r.out());
        assertTrue(r.out().matches("(?s).*\\s0/\\d+\\s+(59m\\d\\ds|1h00m).*"), r.out());
        assertTrue(r.outLines().getLast().startsWith("5 proxies; more: add --cursor "), r.out());

        AdminRun shown = admin("proxies", "list", "--upstream", "lab", "--limit", "5", "--show-addresses");
        ok(shown);
        assertTrue(shown.out().matches("(?s).*(198\\.51\\.100\\.|192\\.0\\.2\\.)\\d+:80\\d\\d.*"), shown.out());
    }

    @Test
    void allFollowsTheCursorsOverEveryProxy() {
        AdminRun r = admin("proxies", "list", "--upstream", "lab", "--limit", "100", "--all", "--json");
        ok(r);
        Map<String, Object> body = json(r);
        assertNull(body.get("nextCursor"));
        List<?> proxies = (List<?>) body.get("proxies");
        Set<Object> ids = new HashSet<>();
        Set<Object> hosts = new HashSet<>();
        for (Object o : proxies) {
            ids.add(((Map<?, ?>) o).get("id"));
            hosts.add(((Map<?, ?>) o).get("host"));
        }
        assertEquals(250, proxies.size());
        assertEquals(250, ids.size(), "every proxy once");
        assertEquals(250, hosts.size());

        AdminRun table = admin("proxies", "list", "--upstream", "lab", "--limit", "100", "--all");
        ok(table);
        assertEquals(252, table.outLines().size(), "header, 250 rows, total");
        assertEquals("250 proxies", table.outLines().getLast());

        AdminRun filtered = admin("proxies", "list", "--label", "country=DE", "--protocol", "http", "--all", "--json");
        ok(filtered);
        assertEquals(25, ((List<?>) json(filtered).get("proxies")).size(), "i % 10 == 0 of 250");
        String bad = oneLineError(admin("proxies", "list", "--state", "sleepy"), 2);
        assertTrue(bad.startsWith("proxypool admin proxies list: 400 invalid_request"), bad);
    }

    @Test
    void disableAndEnableAProxy() {
        Map<String, Object> page = json(admin("proxies", "list", "--upstream", "lab2", "--limit", "1", "--json"));
        String id = (String) ((Map<?, ?>) ((List<?>) page.get("proxies")).getFirst()).get("id");

        AdminRun off = admin("proxies", "disable", id);
        ok(off);
        assertTrue(off.out().matches("proxy " + id + " \\(203\\.0\\.x\\.x:3128, lab2\\) is disabled\\s*"), off.out());
        AdminRun disabled = admin("proxies", "list", "--state", "disabled", "--json");
        List<?> ids = ((List<?>) json(disabled).get("proxies"))
                .stream().map(m -> ((Map<?, ?>) m).get("id")).toList();
        assertEquals(List.of(id), ids);

        AdminRun on = admin("proxies", "enable", id, "--json");
        ok(on);
        assertEquals("available", json(on).get("state"));
        assertEquals(
                List.of(),
                json(admin("proxies", "list", "--state", "disabled", "--json")).get("proxies"));
        String unknown = oneLineError(admin("proxies", "disable", "no-such-id"), 1);
        assertTrue(unknown.startsWith("proxypool admin proxies disable: 404 not_found"), unknown);
    }

    // ---- sequential, snapshot, fetch --------------------------------------------------------------

    @Test
    void sequentialAdvanceMovesToTheNextUpstreamAndResetGoesBack() {
        ok(admin("sequential", "reset", "seq"));
        AdminRun got = admin("sequential", "get", "seq");
        ok(got);
        assertTrue(
                got.outLines().get(1).matches("seq\\s+lab\\s+0\\s+false\\s+lab,lab2\\s+loop\\s+admin_reset\\s.*"),
                got.out());

        AdminRun adv = admin("sequential", "advance", "seq", "--json");
        ok(adv);
        assertEquals("lab2", json(adv).get("upstream"));
        assertEquals("admin_advance", json(adv).get("reason"));
        assertEquals("lab2", json(admin("sequential", "get", "seq", "--json")).get("upstream"));
        AdminRun back = admin("sequential", "reset", "seq", "--json");
        assertEquals("lab", json(back).get("upstream"));

        String none = oneLineError(admin("sequential", "get", "nope"), 1);
        assertEquals("proxypool admin sequential get: 404 not_found: no routing named 'nope'", none);
    }

    @Test
    void snapshotAndFetch() {
        AdminRun s = admin("snapshot");
        ok(s);
        assertTrue(
                s.outLines().getFirst().matches("snapshot version \\d+, generated .* \\d+ (proxy|proxies).*"), s.out());
        assertTrue(s.out().matches("(?s).*\\nlab\\s+\\d+\\s+\\d+\\s+\\d+\\n.*"), s.out());
        assertTrue(json(admin("snapshot", "--json")).containsKey("sizesByUpstream"));

        AdminRun f = admin("fetch", "lab2");
        ok(f);
        assertEquals(
                "fetch of upstream 'lab2' requested (it runs in the background)",
                f.out().strip());
        assertTrue(oneLineError(admin("fetch", "nope"), 1).contains("404"));
    }

    // ---- access and transport ---------------------------------------------------------------------

    @Test
    void aWrongTokenIsExit1Naming401() {
        AdminRun r = AdminRun.run("admin", "routings", "list", "--api", api(), "--token", "wrong-token-0123456789");
        String line = oneLineError(r, 1);
        assertEquals("proxypool admin routings list: 401 unauthorized: a valid admin bearer token is required", line);
        assertFalse(r.err().contains("wrong-token"));
    }

    @Test
    void anUnreachableServerIsExit1OneLineWithoutTrace() {
        String api = "http://127.0.0.1:" + TestPorts.closedPort();
        AdminRun r = AdminRun.run("admin", "snapshot", "--api", api, "--token", TOKEN, "--timeout", "3s");
        String line = oneLineError(r, 1);
        assertTrue(line.startsWith("proxypool admin snapshot: cannot reach " + api), line);

        AdminRun verbose = AdminRun.run("--verbose", "admin", "snapshot", "--api", api, "--token", TOKEN);
        assertEquals(1, verbose.exit());
        assertTrue(verbose.err().contains("\tat "), "--verbose adds the stack trace");
    }

    @Test
    void helpShowsExamplesOnEverySubcommand() {
        for (String[] cmd : List.of(
                new String[] {"admin"},
                new String[] {"admin", "routings", "create"},
                new String[] {"admin", "clients", "update"},
                new String[] {"admin", "proxies", "list"},
                new String[] {"admin", "sequential", "advance"},
                new String[] {"admin", "audit"},
                new String[] {"admin", "fetch"},
                new String[] {"admin", "upstreams", "delete"})) {
            List<String> args = new ArrayList<>(List.of(cmd));
            args.add("--help");
            AdminRun r = AdminRun.run(args.toArray(String[]::new));
            assertEquals(0, r.exit(), r.toString());
            assertTrue(r.out().contains("Examples"), String.join(" ", cmd) + "\n" + r.out());
            assertTrue(r.out().contains("proxypool admin"), r.out());
        }
        AdminRun del = AdminRun.run("admin", "upstreams", "delete", "--help");
        assertTrue(del.out().contains("proxypool admin upstreams delete NAME"), del.out());
        assertTrue(del.out().contains("Exit codes"), del.out());
    }

    // ---- operators ----------------------------------------------------------------------------------

    @Test
    void operatorsAreCreatedWithATokenShownOnceUsedAndRevoked() {
        AdminRun created = admin("operators", "create", "olga", "--role", "viewer");
        ok(created);
        assertEquals(
                "created operator 'olga' (role viewer); its token, shown only now:",
                created.outLines().get(0));
        String token = created.outLines().get(1).strip();
        assertTrue(token.matches("[A-Za-z0-9_-]{43}"), token);

        AdminRun list = admin("operators", "list");
        ok(list);
        assertTrue(list.outLines().getFirst().matches("NAME\\s+ROLE\\s+CREATED\\s+BY"), list.out());
        assertTrue(list.out().contains("admin.token"), list.out());
        assertTrue(list.outLines().stream().anyMatch(l -> l.matches("olga\\s+viewer\\s+\\S+\\s+admin")), list.out());
        assertFalse(list.out().contains(token), "the token is never listed");

        // the top-level alias, with the operator's own token
        AdminRun who = AdminRun.run("operators", "whoami", "--api", api(), "--token", token);
        ok(who);
        assertEquals("olga (role viewer)", who.out().strip());
        AdminRun denied = AdminRun.run("admin", "fetch", "lab2", "--api", api(), "--token", token);
        assertTrue(oneLineError(denied, 1).contains("403 forbidden"), denied.toString());

        AdminRun audit = admin("audit", "--limit", "5");
        ok(audit);
        assertTrue(audit.out().contains("operator.create"), audit.out());

        ok(admin("operators", "revoke", "olga"));
        AdminRun after = AdminRun.run("operators", "whoami", "--api", api(), "--token", token);
        assertTrue(oneLineError(after, 1).contains("401"), after.toString());
        assertTrue(oneLineError(admin("operators", "revoke", "olga"), 1).contains("404"));
        assertEquals(2, admin("operators", "create", "x y", "--role", "viewer").exit(), "400: a usage error");
    }
}
