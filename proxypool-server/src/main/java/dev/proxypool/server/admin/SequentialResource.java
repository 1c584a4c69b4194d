package dev.proxypool.server.admin;

import dev.proxypool.core.sequential.SequentialBoard;
import dev.proxypool.core.sequential.SequentialRouting;
import dev.proxypool.core.sequential.SequentialState;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.server.persistence.AuditRecord;
import dev.proxypool.server.persistence.ConfigStore;
import dev.proxypool.server.persistence.JsonTree;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sequential upstream switching of a routing (docs/design.md#sequential-switching, Q6), on this process's live board.
 *
 * <pre>
 * GET  /v1/admin/routings/{name}/sequential
 * POST /v1/admin/routings/{name}/sequential   {"action": "reset"} | {"action": "advance"}
 * 200 {"routing": "shop", "upstreams": ["a", "b"], "index": 1, "upstream": "b", "exhausted": false,
 *      "consecutiveEmpty": 0, "version": 4, "reason": "admin_advance", "changedAt": "..."}
 * 404 the routing does not exist or is not sequential
 * </pre>
 * A POST persists the new state with its audit row in one transaction; when that fails the board
 * is put back as it was and the answer is {@code 503 database_unavailable}.
 */
final class SequentialResource {

    private final PoolEngine engine;
    private final ConfigStore store;

    SequentialResource(PoolEngine engine, ConfigStore store) {
        this.engine = engine;
        this.store = store;
    }

    void get(ServerRequest req, ServerResponse res) {
        String name = req.path().pathParameters().get("name");
        SequentialState s = state(name);
        AdminJson.send(res, 200, view(s));
    }

    void post(ServerRequest req, ServerResponse res) {
        String name = req.path().pathParameters().get("name");
        SequentialState before = state(name);
        Map<String, Object> body = AdminJson.object(req);
        for (String k : body.keySet()) {
            if (!k.equals("action")) {
                throw AdminException.invalid("unknown field '" + k + "' (expected action)");
            }
        }
        Object action = body.get("action");
        SequentialBoard board = engine.sequential();
        SequentialState after = switch (action instanceof String a ? a : "") {
            case "reset" -> board.reset(name);
            case "advance" -> board.advance(name);
            default ->
                throw AdminException.invalid("action must be reset or advance, got "
                        + (action instanceof String a ? "'" + a + "'" : JsonTree.typeName(action)));
        };
        try {
            store.saveSequential(
                    after,
                    AuditRecord.of(
                            AdminIdentity.actor(req),
                            "routing.sequential." + action,
                            "routing",
                            name,
                            view(before),
                            view(after)));
        } catch (RuntimeException e) {
            board.restore(List.of(before));
            throw e;
        }
        AdminJson.send(res, 200, view(after));
    }

    /** Every sequential routing's state, in the board's order (for {@code GET /v1/admin/pipeline}). */
    List<Object> all() {
        List<Object> out = new ArrayList<>();
        for (SequentialState s : engine.sequential().snapshot()) {
            out.add(view(s));
        }
        return out;
    }

    private SequentialState state(String name) {
        return engine.sequential()
                .state(name)
                .orElseThrow(() -> AdminException.notFound(
                        engine.routing(name).isPresent()
                                ? "routing '" + name + "' is not a sequential routing"
                                : "no routing named '" + name + "'"));
    }

    private Map<String, Object> view(SequentialState s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("routing", s.routing());
        for (SequentialRouting r : engine.sequentialRoutings()) {
            if (r.name().equals(s.routing())) {
                m.put("upstreams", r.upstreams());
                m.put("exhaustion", r.exhaustion().configName());
                m.put("emptyThreshold", r.emptyThreshold());
            }
        }
        m.put("index", s.index());
        m.put("upstream", s.upstream());
        m.put("exhausted", s.exhausted());
        m.put("consecutiveEmpty", s.consecutiveEmpty());
        m.put("version", s.version());
        m.put("reason", s.reason().label());
        m.put("changedAt", s.changedAt().toString());
        return m;
    }
}
