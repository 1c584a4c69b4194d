package dev.proxypool.server.readiness;

import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.pipeline.CollectionPipeline;
import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;

/**
 * Readiness of a process that collects (roles {@code all} and {@code control}): DOWN until the
 * pipeline's first round has ended, i.e. every upstream configured at start was fetched once,
 * whatever the result (at once when none is configured; a process without the pipeline lease
 * counts its first read of the shared store). It then stays UP. Details: the proxies served and
 * {@code routingsWithoutCandidates}, the routings no proxy of the snapshot can serve (comma
 * separated, empty when every routing has one); they do not change the status.
 */
public final class CollectionReadiness implements HealthCheck {

    private final ProxyPool pool;

    public CollectionReadiness(ProxyPool pool) {
        this.pool = pool;
    }

    @Override
    public String name() {
        return "collection";
    }

    @Override
    public HealthCheckType type() {
        return HealthCheckType.READINESS;
    }

    @Override
    public HealthCheckResponse call() {
        boolean collected = EmbeddedProxyPool.pipelineOf(pool)
                .map(CollectionPipeline::firstRoundDone)
                .orElse(true);
        return HealthCheckResponse.builder()
                .status(collected)
                .detail("firstCollectionDone", collected)
                .detail("proxies", EmbeddedProxyPool.engineOf(pool).snapshot().size())
                .detail(
                        "routingsWithoutCandidates",
                        String.join(",", RoutingCandidates.without(EmbeddedProxyPool.engineOf(pool))))
                .build();
    }
}
