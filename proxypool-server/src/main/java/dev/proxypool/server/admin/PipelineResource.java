package dev.proxypool.server.admin;

import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.pipeline.CollectionPipeline;
import dev.proxypool.sdk.pipeline.UpstreamStatus;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /v1/admin/pipeline}: how each upstream's fetching goes and where each sequential
 * routing stands, on this process (what the console's Upstreams page shows).
 *
 * <pre>
 * 200 {"collecting": true, "writer": true,
 *      "upstreams": [{"upstream": "vendor-a", "lastOutcome": "error", "lastError": {"kind": "http_status", "detail": "..."},
 *                     "newCandidates": null, "lastFetchAt": "..." | null, "consecutiveErrors": 2, "consecutiveEmpty": 0,
 *                     "backoffSeconds": 60, "published": 0,
 *                     "lastDrops": {"invalid_port": 1, "validation_connect_timeout": 3, "rank_below_min_score": 2}}, ...],
 *      "sequential": [ {the GET /routings/{name}/sequential view}, ... ]}
 * </pre>
 * {@code lastDrops}: the last fetch's candidates left out, by reason: the source's parse drops,
 * {@code validation_<reject reason>} and {@code rank_<reason>}.
 * {@code collecting} is false in a process without a pipeline (no upstreams listed then).
 * Needs no database.
 */
final class PipelineResource {

    private final ProxyPool pool;
    private final SequentialResource sequential;

    PipelineResource(ProxyPool pool, SequentialResource sequential) {
        this.pool = pool;
        this.sequential = sequential;
    }

    void get(ServerRequest req, ServerResponse res) {
        Optional<CollectionPipeline> pipeline = EmbeddedProxyPool.pipelineOf(pool);
        List<Object> upstreams = new ArrayList<>();
        pipeline.ifPresent(p -> p.status().forEach(s -> upstreams.add(view(s))));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("collecting", pipeline.isPresent());
        m.put("writer", pipeline.map(CollectionPipeline::isWriter).orElse(false));
        m.put("upstreams", upstreams);
        m.put("sequential", sequential.all());
        AdminJson.send(res, 200, m);
    }

    static Map<String, Object> view(UpstreamStatus s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("upstream", s.upstream());
        m.put("lastOutcome", s.lastOutcome().map(FetchOutcome::label).orElse(null));
        Map<String, Object> error = null;
        Integer fresh = null;
        if (s.lastOutcome().isPresent()) {
            switch (s.lastOutcome().get()) {
                case FetchOutcome.Error e -> {
                    error = new LinkedHashMap<>();
                    error.put("kind", e.kind().name().toLowerCase(Locale.ROOT));
                    error.put("detail", e.detail());
                }
                case FetchOutcome.Success ok -> fresh = ok.newCandidates();
                case FetchOutcome.Empty empty -> fresh = 0;
                case FetchOutcome.DuplicateOnly dup -> fresh = 0;
            }
        }
        m.put("lastError", error);
        m.put("newCandidates", fresh);
        m.put("lastFetchAt", s.lastFetchAt().map(Object::toString).orElse(null));
        m.put("consecutiveErrors", s.consecutiveErrors());
        m.put("consecutiveEmpty", s.consecutiveEmpty());
        m.put("backoffSeconds", s.backoffSeconds());
        m.put("published", s.published());
        m.put("lastDrops", s.lastDrops());
        return m;
    }
}
