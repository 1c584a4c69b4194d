package dev.proxypool.server;

import dev.proxypool.core.nodes.NodeSettings;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.cluster.ClusterControl;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.internal.ProxyPoolInternals;
import dev.proxypool.sdk.lock.RedisStageLease;
import dev.proxypool.sdk.lock.StageLease;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.server.admin.AdminService;
import dev.proxypool.server.admin.LiveSeries;
import dev.proxypool.server.metrics.PoolMetrics;
import dev.proxypool.server.nodes.NodeRegistry;
import dev.proxypool.server.nodes.NodeStore;
import io.helidon.metrics.api.MeterRegistry;
import java.net.InetAddress;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Roles {@code all} and {@code control}: the pipeline collects, the admin API, console and node
 * registry are served, and with the shared store this process publishes snapshots (one pipeline
 * writer at a time, through a lease).
 */
final class ControlPlaneAssembly implements RoleAssembly {

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
        return LiveSeries.create(ProxyPoolInternals.engine(pool), registry);
    }

    @Override
    public AdminService admin(Supplier<AdminService> build) {
        return build.get();
    }

    @Override
    public NodeRegistry nodes(ProxyPool pool, NodeSettings settings, NodeStore store) {
        // self-hosted ProxyNode agents register with pre-issued tokens; registrations kept in the store survive
        // restarts
        return new NodeRegistry(pool, ProxyPoolInternals.engine(pool).wallClock(), settings, store)
                .restore()
                .startSweeping();
    }

    @Override
    public PoolMetrics metrics(ProxyPool pool, MeterRegistry registry) {
        return PoolMetrics.bind(pool, registry);
    }

    @Override
    public StageLease pipelineLease(ProxyPoolConfig config, ProxyPool pool) {
        // scaled out on Redis: one pipeline writer at a time (the others only refresh their snapshots)
        if (config.store().type() != ProxyPoolConfig.StoreType.REDIS
                || ProxyPoolInternals.pipeline(pool).isEmpty()) {
            return null;
        }
        StageLease lease =
                RedisStageLease.connect(RedisStoreConfig.fromUri(config.store().uri())
                        .withKeyPrefix(config.store().keyPrefix()));
        ProxyPoolInternals.pipeline(pool).get().useLease(lease, StageLease.newHolderId(), Duration.ofSeconds(3));
        return lease;
    }

    @Override
    public AutoCloseable joinCluster(
            RedisStoreConfig redis, ProxyPoolConfig config, ProxyPool pool, InetAddress bind, int gatewayPort) {
        return ClusterControl.start(
                redis,
                config.cluster(),
                ProxyPoolInternals.engine(pool),
                Duration.ofMillis(200),
                ProxyPoolInternals.engine(pool).wallClock(),
                ProxyPoolInternals.engine(pool).ticker());
    }

    @Override
    public void readiness(GatewayServer.Builder server, AutoCloseable cluster, PoolMetrics metrics, ProxyPool pool) {
        server.healthCheck(new CollectionReadiness(pool)); // DOWN until the first collection
    }

    @Override
    public void startCollecting(ProxyPool pool, LiveSeries series) {
        pool.start();
        series.start();
    }
}
