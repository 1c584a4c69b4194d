package dev.proxypool.server.admin;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.PageRequest;
import dev.proxypool.core.extract.PoolQuery;
import dev.proxypool.core.extract.ProxyPage;
import dev.proxypool.core.extract.ProxyState;
import dev.proxypool.core.extract.StoredProxy;
import dev.proxypool.core.health.HealthReason;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.runtime.ProxyRuntime;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.server.persistence.AuditRecord;
import dev.proxypool.server.persistence.ConfigStore;
import dev.proxypool.server.persistence.JsonTree;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code POST /v1/admin/proxies/bulk}: one operator action on a selection of proxies or on every
 * proxy matching a filter (the recovery after an auth incident: every DISABLED
 * {@code proxy_auth_rejected} proxy of an upstream re-checked at once).
 *
 * <pre>
 * {"action": "enable" | "disable" | "recheck",
 *  "ids": ["p-...", ...]                                              one of ids or filter
 *  "filter": {"upstream": "vendor", "state": "available|disabled", "health": "DISABLED",
 *             "reason": "proxy_auth_rejected", "id": "part"},
 *  "note": "vendor rotated the password"}                              optional, kept in the health record
 * 200 {"action", "matched", "changed", "unknown": [ids not found], "ids": [changed ids, at most 1000]}
 * </pre>
 *
 * {@code enable} and {@code disable} act as the single-proxy actions do ({@link ProxyResource});
 * {@code recheck} gives every cooling proxy, and every proxy disabled for a failure, its one
 * recovery check now (reason {@code recheck_requested}); it returns to service only when that check
 * passes. A selection is at most {@value #MAX} proxies ({@code 400} beyond: narrow the filter). One
 * audit row ({@code proxy.bulk.<action>}, entity {@code proxy} {@code bulk}) with the selection
 * and the ids to change is written before anything changes: when it cannot be written the answer is
 * {@code 503 database_unavailable} and nothing changed.
 */
final class ProxyBulk {

    static final int MAX = 10_000;
    private static final int SHOWN = 1_000;

    private final PoolEngine engine;
    private final ConfigStore store;

    ProxyBulk(PoolEngine engine, ConfigStore store) {
        this.engine = engine;
        this.store = store;
    }

    void post(ServerRequest req, ServerResponse res) {
        Map<String, Object> body = AdminJson.object(req);
        for (String k : body.keySet()) {
            if (!List.of("action", "ids", "filter", "note").contains(k)) {
                throw AdminException.invalid("unknown field '" + k + "' (expected action, ids, filter, note)");
            }
        }
        String action = body.get("action") instanceof String a ? a : "";
        if (!List.of("enable", "disable", "recheck").contains(action)) {
            throw AdminException.invalid("action must be enable, disable or recheck, got "
                    + (body.get("action") instanceof String a ? "'" + a + "'" : JsonTree.typeName(body.get("action"))));
        }
        String note = body.get("note") instanceof String n && !n.isBlank() ? n.strip() : "operator";
        if (note.length() > 200) {
            throw AdminException.invalid("note must be at most 200 characters");
        }
        if (body.containsKey("ids") == body.containsKey("filter")) {
            throw AdminException.invalid("give either ids (a selection) or filter (every matching proxy)");
        }
        List<StoredProxy> selected = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        Map<String, Object> selection = new LinkedHashMap<>();
        if (body.get("ids") instanceof List<?> ids) {
            if (ids.size() > MAX) {
                throw AdminException.invalid("ids: at most " + MAX + " proxies at once, got " + ids.size());
            }
            Set<String> seen = new LinkedHashSet<>();
            for (Object o : ids) {
                if (!(o instanceof String id) || id.isBlank()) {
                    throw AdminException.invalid("ids must be proxy ids (strings)");
                }
                seen.add(id);
            }
            for (String id : seen) {
                engine.store().get(id).ifPresentOrElse(selected::add, () -> unknown.add(id));
            }
            selection.put("ids", List.copyOf(seen));
        } else if (body.get("filter") instanceof Map<?, ?> f) {
            selected.addAll(matching(f));
            selection.put("filter", f);
        } else {
            throw AdminException.invalid(body.containsKey("ids") ? "ids must be an array" : "filter must be an object");
        }
        long now = engine.ticker().read();
        List<String> changing = new ArrayList<>();
        for (StoredProxy sp : selected) {
            if (changes(action, sp, engine.runtime(sp.id()))) {
                changing.add(sp.id());
            }
        }
        if (!changing.isEmpty()) {
            Map<String, Object> before = new LinkedHashMap<>(selection);
            before.put("matched", selected.size());
            Map<String, Object> after = new LinkedHashMap<>();
            after.put("changed", changing.size());
            after.put("ids", changing.subList(0, Math.min(SHOWN, changing.size())));
            after.put("note", note);
            // audited first: a row that cannot be written changes nothing
            store.audit(
                    AuditRecord.of(AdminIdentity.actor(req), "proxy.bulk." + action, "proxy", "bulk", before, after));
            for (String id : changing) {
                apply(action, id, note, now);
            }
            if (!action.equals("recheck")) {
                engine.refresh();
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("action", action);
        out.put("matched", selected.size());
        out.put("changed", changing.size());
        out.put("unknown", unknown);
        out.put("ids", changing.subList(0, Math.min(SHOWN, changing.size())));
        AdminJson.send(res, 200, out);
    }

    private List<StoredProxy> matching(Map<?, ?> f) {
        ExtractionFilter.Builder filter = ExtractionFilter.builder();
        Optional<ProxyState> state = Optional.empty();
        Optional<HealthState> health = Optional.empty();
        String reason = null;
        String id = null;
        for (Map.Entry<?, ?> e : f.entrySet()) {
            String k = String.valueOf(e.getKey());
            if (!(e.getValue() instanceof String v) || v.isBlank()) {
                throw AdminException.invalid("filter." + k + " must be a non-empty string");
            }
            try {
                switch (k) {
                    case "upstream" -> filter.upstream(v);
                    case "state" -> state = Optional.of(ProxyState.parse(v));
                    case "health" -> health = Optional.of(ProxyMatch.parseHealth(v));
                    case "reason" -> reason = v.strip();
                    case "id" -> id = v.strip();
                    default ->
                        throw AdminException.invalid(
                                "unknown filter field '" + k + "' (expected upstream, state, health, reason, id)");
                }
            } catch (IllegalArgumentException ex) {
                throw AdminException.invalid("filter." + k + ": " + ex.getMessage());
            }
        }
        if (f.isEmpty()) {
            throw AdminException.invalid("filter must name at least one field (every proxy at once is not a filter)");
        }
        ProxyMatch match = new ProxyMatch(health, reason, id);
        PoolQuery query = new PoolQuery(filter.build(), state);
        List<StoredProxy> out = new ArrayList<>();
        String cursor = PageRequest.FIRST;
        do {
            ProxyPage p = engine.store().list(query, new PageRequest(cursor, PageRequest.MAX_LIMIT));
            for (StoredProxy sp : p.proxies()) {
                if (match.matches(sp, engine.runtime(sp.id()))) {
                    if (out.size() == MAX) {
                        throw AdminException.invalid("the filter matches more than " + MAX
                                + " proxies: narrow it (upstream, reason, health)");
                    }
                    out.add(sp);
                }
            }
            cursor = p.hasMore() ? p.nextCursor() : null;
        } while (cursor != null);
        return out;
    }

    private static boolean changes(String action, StoredProxy sp, Optional<ProxyRuntime> rt) {
        HealthState h = rt.map(r -> r.health().state()).orElse(null);
        return switch (action) {
            case "disable" -> sp.state() != ProxyState.DISABLED || (h != null && h != HealthState.DISABLED);
            case "enable" -> sp.state() == ProxyState.DISABLED || h == HealthState.DISABLED || h == HealthState.COOLING;
            default ->
                h == HealthState.COOLING
                        || (h == HealthState.DISABLED
                                && rt.get().health().status().reason() instanceof HealthReason.Failure);
        };
    }

    private void apply(String action, String id, String note, long now) {
        Optional<ProxyRuntime> rt = engine.runtime(id);
        switch (action) {
            case "disable" -> {
                engine.store().setDisabled(id, true);
                rt.ifPresent(r -> r.health().disable(note, now));
            }
            case "enable" -> {
                engine.store().setDisabled(id, false);
                rt.ifPresent(r -> r.health().enable(note, now));
            }
            default -> rt.ifPresent(r -> r.health().recheck(now));
        }
    }
}
