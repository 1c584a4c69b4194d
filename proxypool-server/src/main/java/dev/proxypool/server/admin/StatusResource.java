package dev.proxypool.server.admin;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.core.extract.UpstreamCounts;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.sdk.coordination.WorkerRegistry;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.redis.RedisClusterPoolStore;
import dev.proxypool.server.persistence.AuditEntry;
import dev.proxypool.server.persistence.AuditPage;
import dev.proxypool.server.persistence.ConfigStore;
import dev.proxypool.server.persistence.JsonTree;
import dev.proxypool.server.readiness.RoutingCandidates;
import dev.proxypool.server.readiness.StoreDurability;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Read-only views: the live snapshot and the audit log.
 *
 * <pre>
 * GET /v1/admin/snapshot
 * 200 {"version": 12, "generatedAt": "...", "ageSeconds": 3.2, "size": 2500,
 *      "sizesByUpstream": {"vendor-a-us": 1500, ...},
 *      "store": {"vendor-a-us": {"available": 1500, "disabled": 3}, ...},   ("store": null when it is down)
 *      "storeDurability": {"durability": "degraded", "waitReplicas": "auto", "degradedShards": [2, 7],
 *                          "refusingShards": [], "unknownShards": [],
 *                          "shards": [{"shard": 0, "master": "10.0.0.7:7000", "onlineReplicas": 1,
 *                                      "waitReplicas": 1, "state": "full", "reason": ""}, ...]},
 *                          (null unless store.type is redis-cluster; see StoreDurability)
 *      "publishedVersion": 40, "workerStaleAfterSeconds": 300.0,
 *      "workers": [{"id": "w-8080-1a2b", "description": "10.0.0.5:8080", "snapshotVersion": 38,
 *                   "appliedAt": "...", "ageSeconds": 61.2, "behind": 2, "stale": true}, ...]}
 * </pre>
 * {@code workers} (with {@code publishedVersion} and {@code workerStaleAfterSeconds}) is null unless
 * this process is a control plane on the shared store, or when Redis cannot be read; a worker whose
 * heartbeat has an older release's format has null version, appliedAt, ageSeconds and behind.
 * {@code ageSeconds} is now minus the publish time of the version the worker serves (the control
 * plane's clock, as the worker's own snapshot age); {@code stale} is {@code behind > 0} or
 * {@code ageSeconds > workerStaleAfterSeconds} (half of {@code cluster.validity}).
 * <pre>
 * GET /v1/admin/audit?limit=100&amp;cursor=
 * 200 {"entries": [{"id": 9, "at": "...", "actor": "admin", "action": "routing.update", "entityType": "routing",
 *                   "entityName": "shop", "before": {...}, "after": {...}}, ...], "nextCursor": "..." | null}
 * </pre>
 * The snapshot needs no database; the audit log is newest first.
 */
final class StatusResource {

    private final PoolEngine engine;
    private final ConfigStore store;
    private final Supplier<Optional<WorkerRegistry.Reader>> workers;
    private final Duration workerStaleAfter;

    StatusResource(
            PoolEngine engine,
            ConfigStore store,
            Supplier<Optional<WorkerRegistry.Reader>> workers,
            Duration workerStaleAfter) {
        this.engine = engine;
        this.store = store;
        this.workers = workers;
        this.workerStaleAfter = workerStaleAfter;
    }

    void snapshot(ServerRequest req, ServerResponse res) {
        PoolSnapshot s = engine.snapshot();
        Instant now = engine.wallClock().instant();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", s.version());
        m.put("generatedAt", s.generatedAt().toString());
        m.put("ageSeconds", Math.max(0, Duration.between(s.generatedAt(), now).toMillis()) / 1000.0);
        m.put("size", s.size());
        Map<String, Object> sizes = new TreeMap<>();
        for (String u : s.upstreams()) {
            sizes.put(u, s.sizeOfUpstream(u));
        }
        m.put("sizesByUpstream", sizes);
        // the same predicate as readiness and the proxypool.routing.candidates gauge
        m.put("routingsWithoutCandidates", RoutingCandidates.without(engine));
        Map<String, Object> stored = new TreeMap<>();
        try {
            for (Map.Entry<String, UpstreamCounts> e :
                    engine.store().countsByUpstream().entrySet()) {
                stored.put(
                        e.getKey(),
                        Map.of(
                                "available",
                                e.getValue().available(),
                                "disabled",
                                e.getValue().disabled()));
            }
            m.put("store", stored);
        } catch (StoreUnavailableException e) {
            m.put("store", null);
        }
        // a Redis Cluster store's shards: degraded durability after a promotion, or refusing writes
        m.put(
                "storeDurability",
                engine.store() instanceof RedisClusterPoolStore cluster
                        ? StoreDurability.of(cluster).toJson()
                        : null);
        putWorkers(m, now);
        AdminJson.send(res, 200, m);
    }

    private void putWorkers(Map<String, Object> m, Instant now) {
        WorkerRegistry.Fleet fleet = null;
        Optional<WorkerRegistry.Reader> reader = workers.get();
        if (reader.isPresent()) {
            try {
                fleet = reader.get().read();
            } catch (StoreUnavailableException | IllegalStateException e) {
                fleet = null; // Redis down or shutting down: the rest of the view still answers
            }
        }
        if (fleet == null) {
            m.put("publishedVersion", null);
            m.put("workerStaleAfterSeconds", null);
            m.put("workers", null);
            return;
        }
        double staleAfter = workerStaleAfter.toMillis() / 1000.0;
        List<Object> list = new ArrayList<>(fleet.workers().size());
        for (WorkerRegistry.Worker w : fleet.workers()) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("id", w.id());
            one.put("description", w.description());
            Optional<WorkerRegistry.Applied> a = w.applied();
            Long behind = fleet.behind(w).orElse(null);
            Double age = a.filter(x -> x.version() > 0)
                    .map(x -> Math.max(0, Duration.between(x.publishedAt(), now).toMillis()) / 1000.0)
                    .orElse(null);
            one.put("snapshotVersion", a.map(WorkerRegistry.Applied::version).orElse(null));
            one.put(
                    "appliedAt",
                    a.filter(x -> x.version() > 0)
                            .map(x -> x.appliedAt().toString())
                            .orElse(null));
            one.put("ageSeconds", age);
            one.put("behind", behind);
            one.put("stale", (behind != null && behind > 0) || (age != null && age > staleAfter));
            list.add(one);
        }
        m.put("publishedVersion", fleet.headVersion());
        m.put("workerStaleAfterSeconds", staleAfter);
        m.put("workers", list);
    }

    void audit(ServerRequest req, ServerResponse res) {
        int limit = ProxyResource.DEFAULT_LIMIT;
        String cursor = "";
        for (String name : req.query().names()) {
            String v = req.query().get(name);
            switch (name) {
                case "limit" -> {
                    try {
                        limit = Integer.parseInt(v.strip());
                    } catch (NumberFormatException e) {
                        throw AdminException.invalid("limit must be a whole number between 1 and " + AuditPage.MAX_LIMIT
                                + ", got '" + v + "'");
                    }
                }
                case "cursor" -> cursor = v;
                default ->
                    throw AdminException.invalid("unknown query parameter '" + name + "' (expected limit, cursor)");
            }
        }
        AuditPage page;
        try {
            page = store.auditLog(limit, cursor);
        } catch (IllegalArgumentException e) {
            throw AdminException.invalid(e.getMessage());
        }
        List<Object> entries = new ArrayList<>(page.entries().size());
        for (AuditEntry e : page.entries()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", e.id());
            m.put("at", e.at().toString());
            m.put("actor", e.actor());
            m.put("action", e.action());
            m.put("entityType", e.entityType());
            m.put("entityName", e.entityName());
            m.put("before", e.before().map(JsonTree.RawJson::new).orElse(null));
            m.put("after", e.after().map(JsonTree.RawJson::new).orElse(null));
            entries.add(m);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("entries", entries);
        body.put("nextCursor", page.nextCursor().isEmpty() ? null : page.nextCursor());
        AdminJson.send(res, 200, body);
    }
}
