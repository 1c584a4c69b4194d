package dev.proxypool.server.admin;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.PageRequest;
import dev.proxypool.core.extract.PoolQuery;
import dev.proxypool.core.extract.ProxyPage;
import dev.proxypool.core.extract.ProxyState;
import dev.proxypool.core.extract.StoredProxy;
import dev.proxypool.core.extract.UpstreamCounts;
import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.runtime.ProxyRuntime;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.server.api.HealthRecord;
import dev.proxypool.server.persistence.AuditRecord;
import dev.proxypool.server.persistence.ConfigStore;
import io.helidon.common.uri.UriQuery;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Pool inspection and operator actions on single proxies.
 *
 * <pre>
 * GET  /v1/admin/proxies?upstream=&amp;state=available|disabled&amp;protocol=&amp;label.country=US&amp;limit=100&amp;cursor=
 *      &amp;masked=true&amp;health=HEALTHY|COOLING|PROBE_ALLOWED|DISABLED&amp;reason=proxy_auth_rejected&amp;id=part
 *      200 {"proxies": [...], "nextCursor": "..." | null, "total": 2500 | null}   (ascending id; see {@link ProxyView})
 * GET  /v1/admin/proxies/{id}?transitions=20&amp;masked=true
 *      200 the proxy ({@link ProxyView}) plus "healthRecord": {@link HealthRecord} (null when this process has no
 *      runtime for it); 404 unknown id; 400 a bad parameter, naming it
 * POST /v1/admin/proxies/{id}/disable   200 the proxy            (404 unknown id; ?masked=true as above)
 * POST /v1/admin/proxies/{id}/enable    200 the proxy
 * POST /v1/admin/proxies/{id}/reveal    200 {"id", "protocol", "host", "port"}   (audited: proxy.reveal)
 * </pre>
 * {@code health}, {@code reason} (the health reason code) and {@code id} (a part of the id) are judged
 * per proxy: such a page reads the store until it has {@code limit} matches or read
 * {@value #MAX_SCANNED} proxies (a short page with a {@code nextCursor} is not the end).
 * {@code total} counts every proxy matching {@code upstream}/{@code state}, from the store's
 * per-upstream counts; with a {@code protocol}, {@code label.*}, {@code health}, {@code reason} or
 * {@code id} filter it is {@code null} (counting
 * would mean reading the whole pool). {@code masked=true} masks every host (the console's listing).
 * The listing is the store's ({@link dev.proxypool.core.extract.PoolStore#list}): following
 * {@code nextCursor} until it is {@code null} visits every stored proxy exactly once. It needs no
 * database. {@code limit} defaults to {@value #DEFAULT_LIMIT}, at most {@value PageRequest#MAX_LIMIT}.
 *
 * <p>Disable takes the proxy out of extraction ({@code store.setDisabled}) and out of this
 * process's picks at once (its runtime's health goes {@code DISABLED} with reason
 * {@code operator}), then the snapshot is rebuilt; enable reverses both as a transition of its own
 * (reason {@code operator_enabled}): the health record, its history and backoff stay, and a proxy
 * whose last checks failed (cooling, or disabled for or after failures) gets one recovery check
 * before full traffic (then slow start). An action that changes
 * something is audited; when the audit row cannot be written the action is undone and the answer is
 * {@code 503 database_unavailable} (nothing unaudited stays changed).
 */
final class ProxyResource {

    static final int DEFAULT_LIMIT = 100;
    /** The core keeps the last 32 transitions of each proxy. */
    static final int MAX_TRANSITIONS = 32;

    private static final List<String> PARAMS =
            List.of("upstream", "state", "health", "reason", "id", "protocol", "limit", "cursor", "masked");
    /** A filtered listing reads at most this many stored proxies per page it answers. */
    static final int MAX_SCANNED = 20_000;

    private final PoolEngine engine;
    private final ConfigStore store;

    ProxyResource(PoolEngine engine, ConfigStore store) {
        this.engine = engine;
        this.store = store;
    }

    void list(ServerRequest req, ServerResponse res) {
        UriQuery q = req.query();
        ExtractionFilter.Builder filter = ExtractionFilter.builder();
        Optional<ProxyState> state = Optional.empty();
        int limit = DEFAULT_LIMIT;
        String cursor = PageRequest.FIRST;
        boolean masked = false;
        boolean countable = true; // the total is known from the store's counts unless protocol or labels filter
        String upstream = null;
        Optional<HealthState> health = Optional.empty();
        String reason = null;
        String idPart = null;
        try {
            for (String name : q.names()) {
                List<String> values = q.all(name);
                if (values.size() != 1) {
                    throw AdminException.invalid("query parameter '" + name + "' must be given once");
                }
                String v = values.getFirst();
                if (name.startsWith("label.") && name.length() > "label.".length()) {
                    filter.label(name.substring("label.".length()), v);
                    countable = false;
                    continue;
                }
                switch (name) {
                    case "upstream" -> {
                        filter.upstream(v);
                        upstream = v;
                    }
                    case "state" -> state = Optional.of(ProxyState.parse(v));
                    case "health" -> health = Optional.of(ProxyMatch.parseHealth(v));
                    case "reason" -> reason = v.strip().isEmpty() ? null : v.strip();
                    case "id" -> idPart = v.strip().isEmpty() ? null : v.strip();
                    case "protocol" -> {
                        filter.protocol(Protocol.parse(v));
                        countable = false;
                    }
                    case "limit" -> limit = limit(v);
                    case "cursor" -> cursor = v;
                    case "masked" -> masked = bool(name, v);
                    default ->
                        throw AdminException.invalid("unknown query parameter '" + name + "' (expected "
                                + String.join(", ", PARAMS) + " or label.<key>)");
                }
            }
            masked |= AdminIdentity.of(req).viewer(); // a viewer never sees a full address
            PoolQuery query = new PoolQuery(filter.build(), state);
            ProxyMatch match = new ProxyMatch(health, reason, idPart);
            Instant now = engine.wallClock().instant();
            long nowNanos = engine.ticker().read();
            List<Object> items = new ArrayList<>();
            String next;
            if (!match.filters()) {
                ProxyPage p = engine.store().list(query, new PageRequest(cursor, limit));
                for (StoredProxy sp : p.proxies()) {
                    items.add(ProxyView.of(sp, engine.runtime(sp.id()), now, masked, nowNanos));
                }
                next = p.hasMore() ? p.nextCursor() : null;
            } else {
                // health, reason and id are judged per proxy: read store pages until a page of matches
                // (or MAX_SCANNED read); the cursor resumes after the last proxy read
                int scanned = 0;
                next = cursor;
                do {
                    ProxyPage p = engine.store().list(query, new PageRequest(next, PageRequest.MAX_LIMIT));
                    next = p.hasMore() ? p.nextCursor() : null;
                    List<StoredProxy> read = p.proxies();
                    for (int i = 0; i < read.size(); i++) {
                        StoredProxy sp = read.get(i);
                        scanned++;
                        Optional<ProxyRuntime> rt = engine.runtime(sp.id());
                        if (match.matches(sp, rt)) {
                            items.add(ProxyView.of(sp, rt, now, masked, nowNanos));
                            if (items.size() == limit && i < read.size() - 1) {
                                next = PageRequest.cursorAfter(sp.id()); // the rest of this page comes next
                                break;
                            }
                        }
                    }
                } while (next != null && items.size() < limit && scanned < MAX_SCANNED);
            }
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("proxies", items);
            body.put("nextCursor", next);
            body.put("total", countable && !match.filters() ? total(upstream, state) : null);
            AdminJson.send(res, 200, body);
        } catch (IllegalArgumentException e) {
            throw AdminException.invalid(e.getMessage());
        }
    }

    /**
     * {@code GET /proxies/{id}}: one proxy as listed, plus its health record: current state, reason,
     * stage, since when, cooldown end, backoff step, counters and the last {@code transitions}
     * (default {@value HealthRecord#DEFAULT_TRANSITIONS}, 0..{@value #MAX_TRANSITIONS}) transitions.
     */
    void get(ServerRequest req, ServerResponse res) {
        String id = req.path().pathParameters().get("id");
        int transitions = HealthRecord.DEFAULT_TRANSITIONS;
        boolean masked = false;
        for (String name : req.query().names()) {
            List<String> values = req.query().all(name);
            if (values.size() != 1) {
                throw AdminException.invalid("query parameter '" + name + "' must be given once");
            }
            switch (name) {
                case "transitions" -> transitions = transitions(values.getFirst());
                case "masked" -> masked = bool(name, values.getFirst());
                default ->
                    throw AdminException.invalid(
                            "unknown query parameter '" + name + "' (expected transitions or masked)");
            }
        }
        masked |= AdminIdentity.of(req).viewer();
        StoredProxy sp =
                engine.store().get(id).orElseThrow(() -> AdminException.notFound("no proxy with id '" + id + "'"));
        Instant now = engine.wallClock().instant();
        long nowNanos = engine.ticker().read();
        Optional<ProxyRuntime> runtime = engine.runtime(id);
        Map<String, Object> body = ProxyView.of(sp, runtime, now, masked, nowNanos);
        int shown = transitions;
        body.put(
                "healthRecord",
                runtime.map(rt -> HealthRecord.of(rt, now, nowNanos, shown)).orElse(null));
        AdminJson.send(res, 200, body);
    }

    private static int transitions(String v) {
        try {
            int n = Integer.parseInt(v.strip());
            if (n >= 0 && n <= MAX_TRANSITIONS) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw AdminException.invalid(
                "transitions must be a whole number between 0 and " + MAX_TRANSITIONS + ", got '" + v + "'");
    }

    /** Matching proxies from the store's per-upstream counts (O(upstreams)), or null when they cannot say. */
    private Long total(String upstream, Optional<ProxyState> state) {
        long n = 0;
        for (Map.Entry<String, UpstreamCounts> e :
                engine.store().countsByUpstream().entrySet()) {
            if (upstream != null && !upstream.equals(e.getKey())) {
                continue;
            }
            UpstreamCounts c = e.getValue();
            n += state.isEmpty()
                    ? (long) c.available() + c.disabled()
                    : state.get() == ProxyState.DISABLED ? c.disabled() : c.available();
        }
        return n;
    }

    private static boolean bool(String name, String v) {
        return switch (v.strip()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw AdminException.invalid(name + " must be true or false, got '" + v + "'");
        };
    }

    private static int limit(String v) {
        int n;
        try {
            n = Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw AdminException.invalid(
                    "limit must be a whole number between 1 and " + PageRequest.MAX_LIMIT + ", got '" + v + "'");
        }
        if (n < 1 || n > PageRequest.MAX_LIMIT) {
            throw AdminException.invalid("limit must be between 1 and " + PageRequest.MAX_LIMIT + ", got " + n);
        }
        return n;
    }

    void disable(ServerRequest req, ServerResponse res) {
        setDisabled(req, res, true);
    }

    void enable(ServerRequest req, ServerResponse res) {
        setDisabled(req, res, false);
    }

    private void setDisabled(ServerRequest req, ServerResponse res, boolean disable) {
        String id = req.path().pathParameters().get("id");
        StoredProxy sp =
                engine.store().get(id).orElseThrow(() -> AdminException.notFound("no proxy with id '" + id + "'"));
        ProxyState target = disable ? ProxyState.DISABLED : ProxyState.AVAILABLE;
        Optional<ProxyRuntime> runtime = engine.runtime(id);
        // enable also acts on a cooling proxy (its recovery check now), never on one whose check is running
        boolean healthChanges = runtime.isPresent()
                && (disable
                        ? runtime.get().health().state() != HealthState.DISABLED
                        : runtime.get().health().state() == HealthState.DISABLED
                                || runtime.get().health().state() == HealthState.COOLING);
        if (sp.state() != target || healthChanges) {
            Map<String, Object> before = ProxyView.auditState(sp.state(), runtime);
            apply(id, disable, runtime);
            Map<String, Object> after = ProxyView.auditState(target, engine.runtime(id));
            try {
                store.audit(AuditRecord.of(
                        AdminIdentity.actor(req),
                        "proxy." + (disable ? "disable" : "enable"),
                        "proxy",
                        id,
                        before,
                        after));
            } catch (RuntimeException e) {
                apply(id, !disable, engine.runtime(id));
                throw e;
            }
        }
        StoredProxy now = engine.store().get(id).orElse(sp);
        AdminJson.send(
                res,
                200,
                ProxyView.of(
                        now,
                        engine.runtime(id),
                        engine.wallClock().instant(),
                        masked(req),
                        engine.ticker().read()));
    }

    /**
     * {@code POST /proxies/{id}/reveal}: the full address of one proxy ({@code {"id", "protocol", "host", "port"}},
     * never credentials), audited as {@code proxy.reveal} before it is answered, so every unmasking by
     * the console leaves a row.
     */
    void reveal(ServerRequest req, ServerResponse res) {
        String id = req.path().pathParameters().get("id");
        StoredProxy sp =
                engine.store().get(id).orElseThrow(() -> AdminException.notFound("no proxy with id '" + id + "'"));
        store.audit(AuditRecord.of(
                AdminIdentity.actor(req), "proxy.reveal", "proxy", id, null, Map.of("revealed", "address")));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("protocol", sp.proxy().protocol().wireName());
        m.put("host", sp.proxy().host());
        m.put("port", sp.proxy().port());
        AdminJson.send(res, 200, m);
    }

    private static boolean masked(ServerRequest req) {
        return req.query().contains("masked") && bool("masked", req.query().get("masked"));
    }

    private void apply(String id, boolean disable, Optional<ProxyRuntime> runtime) {
        engine.store().setDisabled(id, disable);
        long now = engine.ticker().read();
        runtime.ifPresent(rt -> {
            if (disable) {
                rt.health().disable("operator", now);
            } else {
                rt.health().enable("operator", now);
            }
        });
        engine.refresh();
    }
}
