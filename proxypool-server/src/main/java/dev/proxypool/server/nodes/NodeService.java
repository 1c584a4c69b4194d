package dev.proxypool.server.nodes;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.server.api.JsonResponses;
import dev.proxypool.server.api.distribution.BearerAuth;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
        JsonNode o = body(req, res);
        if (o == null) {
            return;
        }
        NodeAdvert advert;
        String token;
        try {
            for (Iterator<String> keys = o.fieldNames(); keys.hasNext();) {
                String k = keys.next();
                if (!REGISTER_KEYS.contains(k)) {
                    throw new IllegalArgumentException("unknown field '" + k + "'");
                }
            }
            token = JsonResponses.string(o, "token");
            String protocol = JsonResponses.string(o, "protocol");
            advert = new NodeAdvert(JsonResponses.string(o, "host"), integer(o, "port", -1),
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
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("nodeId", c.nodeId());
            answer.put("credential", c.secret());
            answer.put("expiresAt", c.expiresAt().toString());
            answer.put("heartbeatIntervalSeconds", registry.settings().heartbeatInterval().toSeconds());
            JsonResponses.send(res, answer);
        } catch (IllegalStateException e) {
            res.status(Status.CONFLICT_409);
            JsonResponses.error(res, "conflict", e.getMessage());
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
        JsonResponses.send(res, Map.of("expiresAt", expiresAt.toString()));
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
        JsonNode o = body(req, res);
        if (o == null) {
            return;
        }
        try {
            for (Iterator<String> keys = o.fieldNames(); keys.hasNext();) {
                String k = keys.next();
                if (!k.equals("name")) {
                    throw new IllegalArgumentException("unknown field '" + k + "'");
                }
            }
            IssuedToken t = registry.issueToken(JsonResponses.string(o, "name"));
            res.status(Status.CREATED_201);
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("name", t.name());
            answer.put("token", t.token());
            JsonResponses.send(res, answer);
        } catch (IllegalArgumentException e) {
            bad(res, e.getMessage());
        } catch (IllegalStateException e) {
            res.status(Status.CONFLICT_409);
            JsonResponses.error(res, "conflict", e.getMessage());
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
            JsonResponses.error(res, "not_found", "no registration token of that name");
        }
    }

    private void listTokens(ServerRequest req, ServerResponse res) {
        if (!isAdmin(req, res)) {
            return;
        }
        List<Map<String, String>> tokens = new ArrayList<>();
        for (String name : registry.tokenNames()) {
            tokens.add(Map.of("name", name));
        }
        JsonResponses.send(res, Map.of("tokens", tokens));
    }

    private void listNodes(ServerRequest req, ServerResponse res) {
        if (!isAdmin(req, res)) {
            return;
        }
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (NodeView n : registry.nodes()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("nodeId", n.nodeId());
            m.put("tokenName", n.tokenName());
            m.put("proxyId", n.proxyId());
            m.put("protocol", n.protocol().wireName());
            m.put("host", n.host());
            m.put("port", n.port());
            m.put("labels", n.labels().values());
            m.put("maxConcurrency", n.maxConcurrency());
            m.put("registeredAt", n.registeredAt().toString());
            m.put("lastHeartbeat", n.lastHeartbeat().toString());
            m.put("credentialExpiresAt", n.credentialExpiresAt().toString());
            nodes.add(m);
        }
        JsonResponses.send(res, Map.of("nodes", nodes));
    }

    private boolean isAdmin(ServerRequest req, ServerResponse res) {
        String auth = req.headers().first(HeaderNames.AUTHORIZATION).orElse("");
        if (admin.test(auth)) {
            return true;
        }
        res.status(Status.UNAUTHORIZED_401).header("WWW-Authenticate", "Bearer");
        JsonResponses.error(res, "unauthorized", "admin credentials are required");
        return false;
    }

    private static String credential(ServerRequest req) {
        return req.headers().first(HeaderNames.AUTHORIZATION).flatMap(BearerAuth::bearerToken).orElse(null);
    }

    /** The JSON object body, or null after answering 400. */
    private static JsonNode body(ServerRequest req, ServerResponse res) {
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
            return JsonResponses.object(body, "body must be a JSON object");
        } catch (IllegalArgumentException e) {
            bad(res, e.getMessage());
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

    private static int integer(JsonNode o, String key, int absent) {
        JsonNode v = o.get(key);
        if (v == null || v.isNull()) {
            if (absent < 0) {
                throw new IllegalArgumentException(key + " is missing");
            }
            return absent;
        }
        if (!v.isNumber()) {
            throw new IllegalArgumentException(key + " must be an integer");
        }
        BigDecimal n = v.decimalValue();
        try {
            return n.intValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(key + " " + n.toPlainString() + " is not an integer in range");
        }
    }

    private static Labels labels(JsonNode o) {
        JsonNode v = o.get("labels");
        if (v == null || v.isNull()) {
            return Labels.EMPTY;
        }
        if (!v.isObject()) {
            throw new IllegalArgumentException("labels must be an object of string values");
        }
        TreeMap<String, String> m = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            String k = e.getKey();
            JsonNode lv = e.getValue();
            if (!lv.isTextual()) {
                throw new IllegalArgumentException("labels." + k + " must be a string");
            }
            m.put(k, lv.textValue());
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
        JsonResponses.error(res, "invalid_request", message);
    }

    private static void unauthorized(ServerResponse res, String message) {
        res.status(Status.UNAUTHORIZED_401).header("WWW-Authenticate", "Bearer");
        JsonResponses.error(res, "unauthorized", message);
    }
}
