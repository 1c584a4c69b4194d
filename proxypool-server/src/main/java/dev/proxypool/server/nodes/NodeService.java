package dev.proxypool.server.nodes;

import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.server.api.Json;
import dev.proxypool.server.api.distribution.BearerAuth;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import dev.proxypool.sdk.json.JsonDuplicateKeys;
import io.helidon.json.JsonException;
import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;
import io.helidon.json.JsonValueType;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The node registration API (docs/design.md#security, X11), registered at {@value #PATH}:
 * <ul>
 *   <li>{@code POST /v1/nodes} {@code {"token", "host", "port", "protocol", "labels", "maxConcurrency"}}
 *       → 201 {@code {"nodeId", "credential", "expiresAt", "heartbeatIntervalSeconds"}}; 401 for an
 *       unknown or revoked token; 400 naming the bad field; 409 when the address is taken.</li>
 *   <li>{@code POST /v1/nodes/{id}/heartbeat} with {@code Authorization: Bearer <credential>} → 200
 *       {@code {"expiresAt"}}; 401 when the credential is wrong or lapsed or the node was dropped
 *       (register again). Any body is read and ignored: liveness is the control plane's clock.</li>
 *   <li>{@code DELETE /v1/nodes/{id}} with the credential → 204: the node leaves.</li>
 *   <li>Admin (the admin check): {@code POST /v1/nodes/tokens} {@code {"name"}} → 201
 *       {@code {"name", "token"}} (the only time the token is shown); {@code DELETE
 *       /v1/nodes/tokens/{name}} → 204 (revoked; its nodes leave the pool now) or 404;
 *       {@code GET /v1/nodes/tokens} → names; {@code GET /v1/nodes} → nodes without credentials.</li>
 * </ul>
 * Errors are {@code {"error", "message"}}. Tokens and credentials are never logged.
 */
public final class NodeService implements HttpService {

    /** Where the composition registers this service. */
    public static final String PATH = "/v1/nodes";

    private static final int MAX_BODY = 16 * 1024;
    private static final Set<String> REGISTER_KEYS = Set.of("token", "host", "port", "protocol", "labels", "maxConcurrency");

    private final NodeRegistry registry;
    private final Predicate<String> admin;

    /**
     * @param registry the registry behind the API
     * @param admin    whether an {@code Authorization} header value (empty string when absent) is the
     *                 admin's; must compare in constant time
     */
    public NodeService(NodeRegistry registry, Predicate<String> admin) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.admin = Objects.requireNonNull(admin, "admin");
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/tokens", this::issueToken);
        rules.get("/tokens", this::listTokens);
        rules.delete("/tokens/{name}", this::revokeToken);
        rules.post("/", this::register);
        rules.get("/", this::listNodes);
        rules.post("/{id}/heartbeat", this::heartbeat);
        rules.delete("/{id}", this::deregister);
    }

    private void register(ServerRequest req, ServerResponse res) {
        JsonObject o = body(req, res);
        if (o == null) {
            return;
        }
        NodeAdvert advert;
        String token;
        try {
            for (String k : o.keysAsStrings()) {
                if (!REGISTER_KEYS.contains(k)) {
                    throw new IllegalArgumentException("unknown field '" + k + "'");
                }
            }
            token = Json.string(o, "token");
            String protocol = Json.string(o, "protocol");
            advert = new NodeAdvert(Json.string(o, "host"), integer(o, "port", -1),
                    protocol == null ? null : Protocol.parse(protocol), labels(o),
                    integer(o, "maxConcurrency", NodeAdvert.DEFAULT_MAX_CONCURRENCY));
            advert.key();
        } catch (IllegalArgumentException | IllegalStateException e) {
            bad(res, e.getMessage());
            return;
        }
        if (token == null || token.isEmpty()) {
            unauthorized(res, "token is required: a registration token issued by the operator");
            return;
        }
        try {
            var credential = registry.register(token, advert);
            if (credential.isEmpty()) {
                unauthorized(res, "the registration token is unknown or revoked");
                return;
            }
            NodeCredential c = credential.get();
            res.status(Status.CREATED_201);
            Json.send(res, "{\"nodeId\": " + Json.quote(c.nodeId()) + ", \"credential\": " + Json.quote(c.secret())
                    + ", \"expiresAt\": " + Json.quote(c.expiresAt().toString()) + ", \"heartbeatIntervalSeconds\": "
                    + registry.settings().heartbeatInterval().toSeconds() + "}");
        } catch (IllegalStateException e) {
            res.status(Status.CONFLICT_409);
            Json.error(res, "conflict", e.getMessage());
        }
    }

    private void heartbeat(ServerRequest req, ServerResponse res) {
        drain(req);
        String id = req.path().pathParameters().get("id");
        String secret = credential(req);
        Instant expiresAt = secret == null ? null : registry.heartbeat(id, secret).orElse(null);
        if (expiresAt == null) {
            unauthorized(res, "the node credential is wrong or lapsed, or the node was dropped: register again");
            return;
        }
        Json.send(res, "{\"expiresAt\": " + Json.quote(expiresAt.toString()) + "}");
    }

    private void deregister(ServerRequest req, ServerResponse res) {
        drain(req);
        String secret = credential(req);
        if (secret == null || !registry.deregister(req.path().pathParameters().get("id"), secret)) {
            unauthorized(res, "the node credential is wrong or the node is unknown");
            return;
        }
        res.status(Status.NO_CONTENT_204).send();
    }

    private void issueToken(ServerRequest req, ServerResponse res) {
        if (!isAdmin(req, res)) {
            return;
        }
        JsonObject o = body(req, res);
        if (o == null) {
            return;
        }
        try {
            for (String k : o.keysAsStrings()) {
                if (!k.equals("name")) {
                    throw new IllegalArgumentException("unknown field '" + k + "'");
                }
            }
            IssuedToken t = registry.issueToken(Json.string(o, "name"));
            res.status(Status.CREATED_201);
            Json.send(res, "{\"name\": " + Json.quote(t.name()) + ", \"token\": " + Json.quote(t.token()) + "}");
        } catch (IllegalArgumentException e) {
            bad(res, e.getMessage());
        } catch (IllegalStateException e) {
            res.status(Status.CONFLICT_409);
            Json.error(res, "conflict", e.getMessage());
        }
    }

    private void revokeToken(ServerRequest req, ServerResponse res) {
        drain(req);
        if (!isAdmin(req, res)) {
            return;
        }
        if (registry.revokeToken(req.path().pathParameters().get("name"))) {
            res.status(Status.NO_CONTENT_204).send();
        } else {
            res.status(Status.NOT_FOUND_404);
            Json.error(res, "not_found", "no registration token of that name");
        }
    }

    private void listTokens(ServerRequest req, ServerResponse res) {
        if (!isAdmin(req, res)) {
            return;
        }
        StringBuilder sb = new StringBuilder("{\"tokens\": [");
        List<String> names = registry.tokenNames();
        for (int i = 0; i < names.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append("{\"name\": ").append(Json.quote(names.get(i))).append('}');
        }
        Json.send(res, sb.append("]}").toString());
    }

    private void listNodes(ServerRequest req, ServerResponse res) {
        if (!isAdmin(req, res)) {
            return;
        }
        StringBuilder sb = new StringBuilder("{\"nodes\": [");
        List<NodeView> nodes = registry.nodes();
        for (int i = 0; i < nodes.size(); i++) {
            NodeView n = nodes.get(i);
            sb.append(i == 0 ? "" : ", ")
                    .append("{\"nodeId\": ").append(Json.quote(n.nodeId()))
                    .append(", \"tokenName\": ").append(Json.quote(n.tokenName()))
                    .append(", \"proxyId\": ").append(Json.quote(n.proxyId()))
                    .append(", \"protocol\": ").append(Json.quote(n.protocol().wireName()))
                    .append(", \"host\": ").append(Json.quote(n.host()))
                    .append(", \"port\": ").append(n.port())
                    .append(", \"labels\": {");
            int j = 0;
            for (var e : n.labels().values().entrySet()) {
                sb.append(j++ == 0 ? "" : ", ").append(Json.quote(e.getKey())).append(": ").append(Json.quote(e.getValue()));
            }
            sb.append("}, \"maxConcurrency\": ").append(n.maxConcurrency())
                    .append(", \"registeredAt\": ").append(Json.quote(n.registeredAt().toString()))
                    .append(", \"lastHeartbeat\": ").append(Json.quote(n.lastHeartbeat().toString()))
                    .append(", \"credentialExpiresAt\": ").append(Json.quote(n.credentialExpiresAt().toString()))
                    .append('}');
        }
        Json.send(res, sb.append("]}").toString());
    }

    private boolean isAdmin(ServerRequest req, ServerResponse res) {
        String auth = req.headers().first(HeaderNames.AUTHORIZATION).orElse("");
        if (admin.test(auth)) {
            return true;
        }
        res.status(Status.UNAUTHORIZED_401).header("WWW-Authenticate", "Bearer");
        Json.error(res, "unauthorized", "admin credentials are required");
        return false;
    }

    private static String credential(ServerRequest req) {
        return req.headers().first(HeaderNames.AUTHORIZATION).flatMap(BearerAuth::bearerToken).orElse(null);
    }

    /** The JSON object body, or null after answering 400. */
    private static JsonObject body(ServerRequest req, ServerResponse res) {
        byte[] body;
        try (InputStream in = req.content().inputStream()) {
            body = in.readNBytes(MAX_BODY + 1);
        } catch (IOException e) {
            bad(res, "could not read the request body");
            return null;
        }
        if (body.length > MAX_BODY) {
            bad(res, "body is larger than " + MAX_BODY + " bytes");
            return null;
        }
        try {
            JsonValue v = JsonParser.create(new String(body, StandardCharsets.UTF_8)).readJsonValue();
            if (v.type() != JsonValueType.OBJECT) {
                throw new JsonException("not an object");
            }
            String duplicate = JsonDuplicateKeys.problem(body);
            if (duplicate != null) {
                bad(res, duplicate);
                return null;
            }
            return v.asObject();
        } catch (JsonException | IllegalStateException e) {
            bad(res, "body must be a JSON object");
            return null;
        }
    }

    /** Reads and discards a body nobody looks at (a node may send stats or its own clock). */
    private static void drain(ServerRequest req) {
        try (InputStream in = req.content().inputStream()) {
            in.readNBytes(MAX_BODY);
        } catch (IOException | RuntimeException ignored) {
            // the answer does not depend on the body
        }
    }

    private static int integer(JsonObject o, String key, int absent) {
        JsonValue v = o.value(key, null);
        if (v == null || v.type() == JsonValueType.NULL) {
            if (absent < 0) {
                throw new IllegalArgumentException(key + " is missing");
            }
            return absent;
        }
        if (v.type() != JsonValueType.NUMBER) {
            throw new IllegalArgumentException(key + " must be an integer");
        }
        BigDecimal n = v.asNumber().bigDecimalValue();
        try {
            return n.intValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(key + " " + n.toPlainString() + " is not an integer in range");
        }
    }

    private static Labels labels(JsonObject o) {
        JsonValue v = o.value("labels", null);
        if (v == null || v.type() == JsonValueType.NULL) {
            return Labels.EMPTY;
        }
        if (v.type() != JsonValueType.OBJECT) {
            throw new IllegalArgumentException("labels must be an object of string values");
        }
        JsonObject lo = v.asObject();
        TreeMap<String, String> m = new TreeMap<>();
        for (String k : lo.keysAsStrings()) {
            JsonValue lv = lo.value(k, null);
            if (lv == null || lv.type() != JsonValueType.STRING) {
                throw new IllegalArgumentException("labels." + k + " must be a string");
            }
            m.put(k, lv.asString().value());
        }
        if (m.size() > 64) {
            throw new IllegalArgumentException("labels has " + m.size() + " entries, at most 64 allowed");
        }
        try {
            return Labels.of(m);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("labels: " + e.getMessage(), e);
        }
    }

    private static void bad(ServerResponse res, String message) {
        res.status(Status.BAD_REQUEST_400);
        Json.error(res, "invalid_request", message);
    }

    private static void unauthorized(ServerResponse res, String message) {
        res.status(Status.UNAUTHORIZED_401).header("WWW-Authenticate", "Bearer");
        Json.error(res, "unauthorized", message);
    }
}
