package dev.proxypool.server.assembly;

import dev.proxypool.core.nodes.NodeSettings;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.coordination.CoordinationRedis;
import dev.proxypool.sdk.coordination.WorkerRole;
import dev.proxypool.sdk.coordination.WorkerShare;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.lock.StageLock;
import dev.proxypool.server.GatewayServer;
import dev.proxypool.server.admin.AdminService;
import dev.proxypool.server.admin.LiveSeries;
import dev.proxypool.server.metrics.PoolMetrics;
import dev.proxypool.server.nodes.NodeRegistry;
import dev.proxypool.server.nodes.NodeStore;
import dev.proxypool.server.readiness.Readiness;
import dev.proxypool.server.readiness.RoutingCandidates;
import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.metrics.api.MeterRegistry;
import java.net.InetAddress;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.function.Supplier;

/**
 * Role {@code worker}: the gateway and extraction from the control plane's snapshots. No pipeline,
 * no probing, no admin writes, no console, no node registry; ready while it holds a valid snapshot.
 */
public final class WorkerAssembly implements RoleAssembly {

    @Override
    public boolean collects() {
        return false;
    }

    @Override
    public void followCollection(ProxyPool pool, ProxyPoolConfig config) {
        // workers collect nothing: their content is the control plane's
    }

    @Override
    public LiveSeries series(ProxyPool pool, MeterRegistry registry) {
        return null;
    }

    @Override
    public AdminService admin(Supplier<AdminService> build) {
        return null;
    }

    @Override
    public NodeRegistry nodes(ProxyPool pool, NodeSettings settings, NodeStore store) {
        return null;
    }

    @Override
    public PoolMetrics metrics(ProxyPool pool, MeterRegistry registry) {
        return PoolMetrics.bindWithoutPipeline(pool, registry); // a worker collects nothing: no pipeline meters
    }

    @Override
    public StageLock pipelineLease(ProxyPoolConfig config, ProxyPool pool) {
        return null;
    }

    @Override
    public AutoCloseable joinCluster(
            CoordinationRedis redis,
            ProxyPoolConfig config,
            ProxyPool pool,
            InetAddress bind,
            int gatewayPort,
            Runnable reloadConfig) {
        // snapshots come from the control plane; this process collects nothing itself
        String workerId = "w-" + gatewayPort + "-" + HexFormat.of().formatHex(SecureRandom.getSeed(4));
        return WorkerRole.start(
                redis,
                config.cluster(),
                EmbeddedProxyPool.engineOf(pool),
                new WorkerShare.Live(),
                workerId,
                bind.getHostAddress() + ":" + gatewayPort,
                EmbeddedProxyPool.engineOf(pool).wallClock(),
                EmbeddedProxyPool.engineOf(pool).ticker());
    }

    @Override
    public void readiness(GatewayServer.Builder server, AutoCloseable cluster, PoolMetrics metrics, ProxyPool pool) {
        WorkerRole worker = (WorkerRole) cluster;
        server.healthCheck(snapshotCheck(worker, EmbeddedProxyPool.engineOf(pool)));
        // the snapshot-version gauges read the same feed as the readiness check
        metrics.snapshotFrom(worker::status);
    }

    @Override
    public void startCollecting(ProxyPool pool, LiveSeries series) {
        // nothing to collect
    }

    /** A worker's readiness: holding a snapshot within its validity; details say how it keeps up. */
    private static HealthCheck snapshotCheck(WorkerRole worker, PoolEngine engine) {
        return Readiness.of("snapshot", () -> {
            var st = worker.status();
            return HealthCheckResponse.builder()
                    .status(st.version() > 0 && st.withinValidity())
                    .detail("version", st.version())
                    .detail("proxies", st.proxies())
                    .detail("ageSeconds", st.age().toSeconds())
                    .detail("deltasApplied", st.deltasApplied())
                    .detail("fullLoads", st.fullLoads())
                    .detail("resyncRequests", st.resyncRequests())
                    .detail("storeReachable", st.storeReachable())
                    .detail("routingsWithoutCandidates", String.join(",", RoutingCandidates.without(engine)))
                    .build();
        });
    }
}
