package dev.proxypool.server.admin;

import dev.proxypool.server.persistence.AuditRecord;
import dev.proxypool.server.persistence.ClientDocs;
import dev.proxypool.server.persistence.ConfigStore;
import dev.proxypool.server.persistence.JsonTree;
import dev.proxypool.server.persistence.StoredOperator;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Named operators: admin API identities with a role, each with its own bearer token.
 *
 * <pre>
 * GET    /v1/admin/whoami             200 {"name": "alice", "role": "viewer", "bootstrap": false}
 * GET    /v1/admin/operators          200 {"operators": [{"name": "admin", "role": "admin", "bootstrap": true, ...},
 *                                              {"name": "alice", "role": "viewer", "bootstrap": false,
 *                                               "createdAt": "...", "createdBy": "admin"}]}
 * POST   /v1/admin/operators          {"name": "alice", "role": "viewer"}
 *                                     201 {"name", "role", "bootstrap": false, "createdAt", "createdBy", "token"}
 * GET    /v1/admin/operators/{name}   200 the operator (never its token)
 * DELETE /v1/admin/operators/{name}   204: its token stops working
 * </pre>
 * The token (32 random bytes, base64url) is in the creation's answer only; the store keeps its
 * SHA-256. {@code admin} (the bootstrap identity of {@code admin.token}) and {@code config} (the
 * actor of configuration seeding) are reserved names. Creations and revocations are audited
 * ({@code operator.create}, {@code operator.delete}) with the name and role, never the token.
 */
final class OperatorResource {

    static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    static final Set<String> RESERVED = Set.of(AdminService.ACTOR, "config");
    private static final Set<String> KEYS = Set.of("name", "role");

    private final ConfigStore store;
    private final AdminAuth auth;
    private final InstantSource clock;
    private final SecureRandom random = new SecureRandom();

    OperatorResource(ConfigStore store, AdminAuth auth, InstantSource clock) {
        this.store = store;
        this.auth = auth;
        this.clock = clock;
    }

    void whoami(ServerRequest req, ServerResponse res) {
        AdminIdentity who = AdminIdentity.of(req);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", who.name());
        m.put("role", who.role().wireName());
        m.put("bootstrap", who.bootstrap());
        AdminJson.send(res, 200, m);
    }

    void list(ServerRequest req, ServerResponse res) {
        List<Object> items = new ArrayList<>();
        if (auth.bootstrapEnabled()) {
            items.add(bootstrapView());
        }
        for (StoredOperator o : store.operators()) {
            items.add(view(o));
        }
        AdminJson.send(res, 200, Map.of("operators", items));
    }

    void get(ServerRequest req, ServerResponse res) {
        String name = name(req);
        if (name.equals(AdminService.ACTOR) && auth.bootstrapEnabled()) {
            AdminJson.send(res, 200, bootstrapView());
            return;
        }
        AdminJson.send(res, 200, view(find(name)));
    }

    void create(ServerRequest req, ServerResponse res) {
        Map<String, Object> body = AdminJson.object(req);
        for (String k : body.keySet()) {
            if (!KEYS.contains(k)) {
                throw AdminException.invalid("operators[]." + k + ": unknown key (known here: name, role)");
            }
        }
        if (!(body.get("name") instanceof String name)) {
            throw AdminException.invalid("operators[].name: is required"
                    + (body.get("name") == null ? "" : " as a string, got " + JsonTree.typeName(body.get("name"))));
        }
        if (!NAME.matcher(name).matches()) {
            throw AdminException.invalid("operators[].name: must be 1 to 64 letters, digits, '.', '_' or '-', got '"
                    + (name.length() > 80 ? name.substring(0, 80) + "..." : name) + "'");
        }
        String key = "operators[" + name + "]";
        if (RESERVED.contains(name)) {
            throw AdminException.conflict(key + ".name: '" + name + "' is reserved ("
                    + (name.equals(AdminService.ACTOR)
                            ? "the bootstrap identity of admin.token"
                            : "configuration seeding")
                    + "); choose another name");
        }
        OperatorRole role;
        Object r = body.get("role");
        if (!(r instanceof String rs)) {
            throw AdminException.invalid(
                    key + ".role: is required: admin or viewer" + (r == null ? "" : ", got " + JsonTree.typeName(r)));
        }
        try {
            role = OperatorRole.parse(rs);
        } catch (IllegalArgumentException e) {
            throw AdminException.invalid(key + ".role: must be admin or viewer, got '" + rs + "'");
        }
        String token = newToken();
        StoredOperator o = new StoredOperator(
                name, role.wireName(), ClientDocs.tokenHash(token), clock.instant(), AdminIdentity.actor(req));
        if (!store.createOperator(
                o, AuditRecord.of(o.createdBy(), "operator.create", "operator", name, null, auditView(o)))) {
            throw AdminException.conflict("operator '" + name + "' already exists");
        }
        auth.reloadNow();
        Map<String, Object> m = view(o);
        m.put("token", token);
        res.header(HeaderNames.LOCATION, AdminService.PATH + "/operators/" + name);
        AdminJson.send(res, 201, m);
    }

    void delete(ServerRequest req, ServerResponse res) {
        String name = name(req);
        if (name.equals(AdminService.ACTOR)) {
            throw AdminException.conflict("operator 'admin' is the bootstrap identity of admin.token: remove"
                    + " admin.token from the configuration (or PROXYPOOL_ADMIN_TOKEN) and restart to retire it");
        }
        StoredOperator o = find(name);
        if (!store.deleteOperator(
                name,
                AuditRecord.of(AdminIdentity.actor(req), "operator.delete", "operator", name, auditView(o), null))) {
            throw notFound(name);
        }
        auth.reloadNow();
        res.status(204);
        res.send();
    }

    private StoredOperator find(String name) {
        return store.operators().stream()
                .filter(o -> o.name().equals(name))
                .findFirst()
                .orElseThrow(() -> notFound(name));
    }

    private static AdminException notFound(String name) {
        return AdminException.notFound("no operator named '" + name + "'");
    }

    private static String name(ServerRequest req) {
        return req.path().pathParameters().get("name");
    }

    private String newToken() {
        byte[] b = new byte[32];
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private static Map<String, Object> bootstrapView() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", AdminService.ACTOR);
        m.put("role", OperatorRole.ADMIN.wireName());
        m.put("bootstrap", true);
        m.put("createdAt", null);
        m.put("createdBy", null);
        return m;
    }

    private static Map<String, Object> view(StoredOperator o) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", o.name());
        m.put("role", o.role());
        m.put("bootstrap", false);
        m.put("createdAt", o.createdAt().toString());
        m.put("createdBy", o.createdBy());
        return m;
    }

    private static Map<String, Object> auditView(StoredOperator o) {
        return Map.of("name", o.name(), "role", o.role());
    }
}
