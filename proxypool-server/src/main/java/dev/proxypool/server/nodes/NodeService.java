package dev.proxypool.server.nodes;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.runtime.ProxyRuntime;
import dev.proxypool.server.api.BearerToken;
import dev.proxypool.server.api.HealthRecord;
import dev.proxypool.server.api.JsonResponses;
import dev.proxypool.server.persistence.DatabaseUnavailableException;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The node registration API (docs/design.md#security, X11, X12; docs/api.md, "Nodes"), registered at {@value #PATH}:
 * <ul>
 *   <li>{@code POST /v1/nodes} {@code {"token", "host", "port", "protocol", "labels", "maxConcurrency",
 *       "weight", "metadata"}} → 201 {@code {"nodeId", "credential", "expiresAt", "heartbeatIntervalSeconds",
 *       "livenessTimeoutSeconds"}}; 401 for an unknown or revoked token; 400 naming the bad field; 409 when
 *       the address is taken.</li>
 *   <li>{@code PUT /v1/nodes/{id}} (admin or the node's credential) {@code {"labels", "weight",
 *       "maxConcurrency", "metadata"}}, each optional (absent: unchanged) → 200 the node; 404 unknown id.</li>
 *   <li>{@code GET /v1/nodes/{id}} and {@code GET /v1/nodes/{id}/health} (admin or the node's credential) →
 *       the node; its health record ({@link HealthRecord}) with liveness and the last heartbeat.</li>
 *   <li>{@code POST /v1/nodes/{id}/heartbeat} with {@code Authorization: Bearer <credential>} → 200
 *       {@code {"expiresAt"}}; 401 when the credential is wrong or lapsed or the node was dropped
 *       (register again). Any body is read and ignored: liveness is the control plane's clock.</li>
 *   <li>{@code DELETE /v1/nodes/{id}} with the credential → 204: the node leaves.</li>
 *   <li>Admin (the admin check): {@code POST /v1/nodes/tokens} {@code {"name"}} → 201
 *       {@code {"name", "token"}} (the only time the token is shown); {@code DELETE
 *       /v1/nodes/tokens/{name}} → 204 (revoked; its nodes leave the pool now) or 404;
 *       {@code GET /v1/nodes/tokens} → names; {@code GET /v1/nodes?label.k=v} → nodes without credentials, those with every
 *       given label (AND).</li>
 * </ul>
 * Errors are {@code {"error", "message"}}. Tokens and credentials are never logged.
 */
public final class NodeService implements HttpService {

    /** Where the composition registers this service. */
    public static final String PATH = "/v1/nodes";

    private static final int MAX_BODY = 16 * 1024;
    private static final Set<String> REGISTER_KEYS =
            Set.of("token", "host", "port", "protocol", "labels", "maxConcurrency", "weight", "metadata");
    private static final Set<String> UPDATE_KEYS = Set.of("labels", "weight", "maxConcurrency", "metadata");

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
        rules.get("/{id}/health", this::health);
        rules.get("/{id}", this::getNode);
        rules.put("/{id}", this::update);
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
            allowOnly(o, REGISTER_KEYS, k -> "unknown field '" + k + "'");
            token = JsonResponses.string(o, "token");
            String protocol = JsonResponses.string(o, "protocol");
            advert = new NodeAdvert(
                    JsonResponses.string(o, "host"),
                    integer(o, "port", -1),
                    protocol == null ? null : Protocol.parse(protocol),
                    labels(o, Labels.EMPTY),
                    integer(o, "maxConcurrency", NodeAdvert.DEFAULT_MAX_CONCURRENCY),
                    integer(o, "weight", NodeAdvert.DEFAULT_WEIGHT),
                    metadata(o, Map.of()));
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
            answer.put(
                    "heartbeatIntervalSeconds",
                    registry.settings().heartbeatInterval().toSeconds());
            answer.put(
                    "livenessTimeoutSeconds",
                    registry.settings().livenessTimeout().toSeconds());
            JsonResponses.send(res, answer);
        } catch (DatabaseUnavailableException e) {
            unavailable(res, e);
        } catch (IllegalStateException e) {
            res.status(Status.CONFLICT_409);
            JsonResponses.error(res, "conflict", e.getMessage());
        }
    }

    private void update(ServerRequest req, ServerResponse res) {
        String id = req.path().pathParameters().get("id");
        if (!isAdminOrNode(req, res, id)) {
            return;
        }
        JsonNode o = body(req, res);
        if (o == null) {
            return;
        }
        try {
            allowOnly(
                    o,
                    UPDATE_KEYS,
                    k -> REGISTER_KEYS.contains(k)
                            ? k + " cannot be changed: a node that moves deregisters and registers again"
                            : "unknown field '" + k + "' (expected labels, weight, maxConcurrency or metadata)");
            Optional<NodeView> changed = registry.update(
                    id,
                    a -> a.with(
                            labels(o, a.labels()),
                            integer(o, "maxConcurrency", a.maxConcurrency()),
                            integer(o, "weight", a.weight()),
                            metadata(o, a.metadata())));
            if (changed.isEmpty()) {
                notFound(res);
                return;
            }
            JsonResponses.send(res, view(changed.get()));
        } catch (DatabaseUnavailableException e) {
            unavailable(res, e);
        } catch (IllegalArgumentException e) {
            bad(res, e.getMessage());
        }
    }

    private void getNode(ServerRequest req, ServerResponse res) {
        String id = req.path().pathParameters().get("id");
        if (!isAdminOrNode(req, res, id)) {
            return;
        }
        Optional<NodeView> n = registry.node(id);
        if (n.isEmpty()) {
            notFound(res);
            return;
        }
        JsonResponses.send(res, view(n.get()));
    }

    private void health(ServerRequest req, ServerResponse res) {
        String id = req.path().pathParameters().get("id");
        if (!isAdminOrNode(req, res, id)) {
            return;
        }
        Optional<NodeView> n = registry.node(id);
        if (n.isEmpty()) {
            notFound(res);
            return;
        }
        NodeView v = n.get();
        Instant now = registry.now();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("nodeId", v.nodeId());
        answer.put("proxyId", v.proxyId());
        answer.put(
                "alive", !now.isAfter(v.lastHeartbeat().plus(registry.settings().livenessTimeout())));
        answer.put("lastHeartbeat", v.lastHeartbeat().toString());
        answer.put(
                "secondsSinceHeartbeat",
                Math.max(0, Duration.between(v.lastHeartbeat(), now).toSeconds()));
        answer.put("credentialExpiresAt", v.credentialExpiresAt().toString());
        Optional<ProxyRuntime> runtime = registry.runtime(id);
        // no runtime: the proxy is not (yet) in this process's snapshot, so nothing has judged it
        answer.put(
                "health",
                runtime.map(rt -> HealthRecord.of(rt, now, registry.ticker(), HealthRecord.DEFAULT_TRANSITIONS))
                        .orElse(null));
        JsonResponses.send(res, answer);
    }

    private void heartbeat(ServerRequest req, ServerResponse res) {
        drain(req);
        String id = req.path().pathParameters().get("id");
        String secret = credential(req);
        Instant expiresAt =
                secret == null ? null : registry.heartbeat(id, secret).orElse(null);
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
            allowOnly(o, Set.of("name"), k -> "unknown field '" + k + "'");
            IssuedToken t = registry.issueToken(JsonResponses.string(o, "name"));
            res.status(Status.CREATED_201);
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("name", t.name());
            answer.put("token", t.token());
            JsonResponses.send(res, answer);
        } catch (DatabaseUnavailableException e) {
            unavailable(res, e);
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
        boolean revoked;
        try {
            revoked = registry.revokeToken(req.path().pathParameters().get("name"));
        } catch (DatabaseUnavailableException e) {
            unavailable(res, e);
            return;
        }
        if (revoked) {
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
        Map<String, String> wanted = new TreeMap<>();
        for (String name : req.query().names()) {
            List<String> values = req.query().all(name);
            if (!name.startsWith("label.") || name.length() == "label.".length()) {
                bad(res, "unknown query parameter '" + name + "' (expected label.<key>=<value>)");
                return;
            }
            if (values.size() != 1) {
                bad(res, "query parameter '" + name + "' must be given once");
                return;
            }
            wanted.put(name.substring("label.".length()), values.getFirst());
        }
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (NodeView n : registry.nodes()) {
            if (n.labels().values().entrySet().containsAll(wanted.entrySet())) {
                nodes.add(view(n));
            }
        }
        JsonResponses.send(res, Map.of("nodes", nodes));
    }

    private static Map<String, Object> view(NodeView n) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("nodeId", n.nodeId());
        m.put("tokenName", n.tokenName());
        m.put("proxyId", n.proxyId());
        m.put("protocol", n.protocol().wireName());
        m.put("host", n.host());
        m.put("port", n.port());
        m.put("labels", n.labels().values());
        m.put("maxConcurrency", n.maxConcurrency());
        m.put("weight", n.weight());
        m.put("metadata", n.metadata());
        m.put("registeredAt", n.registeredAt().toString());
        m.put("lastHeartbeat", n.lastHeartbeat().toString());
        m.put("credentialExpiresAt", n.credentialExpiresAt().toString());
        return m;
    }

    /** The admin, or node {@code id} itself with its credential; otherwise answers 401 and returns false. */
    private boolean isAdminOrNode(ServerRequest req, ServerResponse res, String id) {
        if (BearerToken.header(req).filter(admin).isPresent() || registry.holdsCredential(id, credential(req))) {
            return true;
        }
        unauthorized(res, "admin credentials or the node's own credential are required");
        return false;
    }

    private static void notFound(ServerResponse res) {
        res.status(Status.NOT_FOUND_404);
        JsonResponses.error(res, "not_found", "no registered node with that id");
    }

    private static void unavailable(ServerResponse res, DatabaseUnavailableException e) {
        res.status(Status.SERVICE_UNAVAILABLE_503);
        JsonResponses.error(res, "database_unavailable", e.getMessage());
    }

    private boolean isAdmin(ServerRequest req, ServerResponse res) {
        if (BearerToken.header(req).filter(admin).isPresent()) {
            return true;
        }
        BearerToken.challenge(res);
        JsonResponses.error(res, "unauthorized", "admin credentials are required");
        return false;
    }

    private static String credential(ServerRequest req) {
        return BearerToken.of(req).orElse(null);
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

    private static Labels labels(JsonNode o, Labels absent) {
        if (o.get("labels") == null || o.get("labels").isNull()) {
            return absent;
        }
        Map<String, String> m = strings(o, "labels");
        if (m.size() > 64) {
            throw new IllegalArgumentException("labels has " + m.size() + " entries, at most 64 allowed");
        }
        try {
            return Labels.of(m);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("labels: " + e.getMessage(), e);
        }
    }

    /** @throws IllegalArgumentException with {@code problem} of the first key of {@code o} not in {@code allowed} */
    private static void allowOnly(JsonNode o, Set<String> allowed, UnaryOperator<String> problem) {
        for (Iterator<String> keys = o.fieldNames(); keys.hasNext(); ) {
            String k = keys.next();
            if (!allowed.contains(k)) {
                throw new IllegalArgumentException(problem.apply(k));
            }
        }
    }

    private static Map<String, String> metadata(JsonNode o, Map<String, String> absent) {
        if (o.get("metadata") == null || o.get("metadata").isNull()) {
            return absent;
        }
        return strings(o, "metadata");
    }

    /** The object {@code o.key} of string values. */
    private static Map<String, String> strings(JsonNode o, String key) {
        JsonNode v = o.get(key);
        if (!v.isObject()) {
            throw new IllegalArgumentException(key + " must be an object of string values");
        }
        TreeMap<String, String> m = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isTextual()) {
                throw new IllegalArgumentException(key + "." + e.getKey() + " must be a string");
            }
            m.put(e.getKey(), e.getValue().textValue());
        }
        return m;
    }

    private static void bad(ServerResponse res, String message) {
        res.status(Status.BAD_REQUEST_400);
        JsonResponses.error(res, "invalid_request", message);
    }

    private static void unauthorized(ServerResponse res, String message) {
        BearerToken.challenge(res);
        JsonResponses.error(res, "unauthorized", message);
    }
}
