package dev.proxypool.server.assembly;

import dev.proxypool.core.nodes.NodeSettings;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.coordination.ControlRole;
import dev.proxypool.sdk.coordination.CoordinationRedis;
import dev.proxypool.sdk.coordination.ServeRole;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.lock.RedisStageLock;
import dev.proxypool.sdk.lock.StageLock;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.server.GatewayServer;
import dev.proxypool.server.admin.AdminService;
import dev.proxypool.server.admin.LiveSeries;
import dev.proxypool.server.metrics.PoolMetrics;
import dev.proxypool.server.nodes.FirstCheck;
import dev.proxypool.server.nodes.NodeRegistry;
import dev.proxypool.server.nodes.NodeStore;
import dev.proxypool.server.readiness.CollectionReadiness;
import dev.proxypool.server.readiness.Readiness;
import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.metrics.api.MeterRegistry;
import java.net.InetAddress;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Roles {@code all} and {@code control}: the pipeline collects, the admin API, console and node
 * registry are served, and with the shared store this process publishes snapshots (one pipeline
 * writer at a time, through a lease). Several control planes may share the store: the one holding
 * the control-plane lease publishes, the others stand by to take over
 * (docs/runbook.md#standby-control-plane).
 */
public final class ControlPlaneAssembly implements RoleAssembly {

    private final ServeRole role;

    ControlPlaneAssembly(ServeRole role) {
        this.role = role;
    }

    @Override
    public boolean collects() {
        return true;
    }

    @Override
    public void followCollection(ProxyPool pool, ProxyPoolConfig config) {
        pool.reconfigureCollection(config);
    }

    @Override
    public LiveSeries series(ProxyPool pool, MeterRegistry registry) {
        return LiveSeries.create(EmbeddedProxyPool.engineOf(pool), registry);
    }

    @Override
    public AdminService admin(Supplier<AdminService> build) {
        return build.get();
    }

    @Override
    public NodeRegistry nodes(ProxyPool pool, NodeSettings settings, NodeStore store) {
        // self-hosted ProxyNode agents register with pre-issued tokens; registrations kept in the store survive
        // restarts
        // a new node is checked before it serves (design H10b): registered on a closed port it never gets a client
        return new NodeRegistry(pool, EmbeddedProxyPool.engineOf(pool).wallClock(), settings, store)
                .checkNewNodes(FirstCheck.through(pool))
                .restore()
                .startSweeping();
    }

    @Override
    public PoolMetrics metrics(ProxyPool pool, MeterRegistry registry) {
        return PoolMetrics.bind(pool, registry);
    }

    @Override
    public StageLock pipelineLease(ProxyPoolConfig config, ProxyPool pool) {
        // scaled out on Redis: one pipeline writer at a time (the others only refresh their snapshots)
        if (EmbeddedProxyPool.pipelineOf(pool).isEmpty()) {
            return null;
        }
        StageLock lease;
        if (config.store().type() == ProxyPoolConfig.StoreType.REDIS) {
            lease = RedisStageLock.connect(
                    RedisStoreConfig.fromUri(config.store().uri())
                            .withKeyPrefix(config.store().keyPrefix()));
        } else if (config.store().type() == ProxyPoolConfig.StoreType.REDIS_CLUSTER && role == ServeRole.CONTROL) {
            // control planes on a Redis Cluster (--role all on redis-cluster is one process: no lease)
            lease = CoordinationRedis.fromStore(config.store()).stageLease();
        } else {
            return null;
        }
        EmbeddedProxyPool.pipelineOf(pool).get().useLease(lease, StageLock.newHolderId(), Duration.ofSeconds(3));
        return lease;
    }

    @Override
    public AutoCloseable joinCluster(
            CoordinationRedis redis,
            ProxyPoolConfig config,
            ProxyPool pool,
            InetAddress bind,
            int gatewayPort,
            Runnable reloadConfig) {
        PoolEngine engine = EmbeddedProxyPool.engineOf(pool);
        // the holder of the control-plane lease publishes; the others stand by and take over when it stops
        return ControlRole.startLeased(
                redis,
                config.cluster(),
                engine,
                Duration.ofMillis(200),
                engine.wallClock(),
                engine.ticker(),
                StageLock.newHolderId(),
                reloadConfig);
    }

    @Override
    public void readiness(GatewayServer.Builder server, AutoCloseable cluster, PoolMetrics metrics, ProxyPool pool) {
        server.healthCheck(new CollectionReadiness(pool)); // DOWN until the first collection
        if (cluster instanceof ControlRole control) {
            server.healthCheck(leadershipCheck(control));
            metrics.controlPlaneFrom(() -> control.state() == ControlRole.State.ACTIVE, control::takeovers);
        }
    }

    /** Whether this control plane publishes (active) or stands by; UP either way (both serve the admin API). */
    private static HealthCheck leadershipCheck(ControlRole control) {
        return Readiness.of("controlPlane", () -> {
            var p = control.publisher();
            return HealthCheckResponse.builder()
                    .status(true)
                    .detail("role", control.state().wireName())
                    .detail("since", control.since().toString())
                    .detail("fencingToken", control.fencingToken())
                    .detail("publishedVersion", p == null ? 0 : p.version())
                    .detail("takeovers", control.takeovers())
                    .build();
        });
    }

    @Override
    public void startCollecting(ProxyPool pool, LiveSeries series) {
        pool.start();
        series.start();
    }
}
