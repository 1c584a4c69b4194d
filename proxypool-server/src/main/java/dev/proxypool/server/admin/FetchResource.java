package dev.proxypool.server.admin;

import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.pipeline.CollectionPipeline;
import dev.proxypool.server.persistence.AuditRecord;
import dev.proxypool.server.persistence.ConfigStore;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;
import java.util.Optional;

/**
 * {@code POST /v1/admin/upstreams/{name}/fetch}: mark the upstream due now (docs/api.md; asynchronous, docs/design.md#collection-pipeline P1).
 * {@code 202 {"upstream": "x", "status": "requested"}}; {@code 404} when this process fetches no
 * such upstream. Audited before it is requested ({@code upstream.fetch}).
 */
final class FetchResource {

    private final ProxyPool pool;
    private final ConfigStore store;

    FetchResource(ProxyPool pool, ConfigStore store) {
        this.pool = pool;
        this.store = store;
    }

    void fetch(ServerRequest req, ServerResponse res) {
        String name = req.path().pathParameters().get("name");
        Optional<CollectionPipeline> pipeline = EmbeddedProxyPool.pipelineOf(pool);
        boolean known = pipeline.isPresent()
                && pipeline.get().status().stream().anyMatch(s -> s.upstream().equals(name));
        if (!known) {
            throw AdminException.notFound("no upstream named '" + name + "' is fetched by this process");
        }
        store.audit(AuditRecord.of(
                AdminIdentity.actor(req), "upstream.fetch", "upstream", name, null, Map.of("requested", true)));
        if (!pipeline.get().requestFetch(name)) {
            throw AdminException.notFound("no upstream named '" + name + "' is fetched by this process");
        }
        AdminJson.send(res, 202, Map.of("upstream", name, "status", "requested"));
    }
}
