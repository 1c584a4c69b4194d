package dev.proxypool.server.assembly;

import dev.proxypool.core.nodes.NodeSettings;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.coordination.CoordinationRedis;
import dev.proxypool.sdk.coordination.ServeRole;
import dev.proxypool.sdk.lock.StageLock;
import dev.proxypool.server.GatewayServer;
import dev.proxypool.server.admin.AdminService;
import dev.proxypool.server.admin.LiveSeries;
import dev.proxypool.server.metrics.PoolMetrics;
import dev.proxypool.server.nodes.NodeRegistry;
import dev.proxypool.server.nodes.NodeStore;
import io.helidon.metrics.api.MeterRegistry;
import java.net.InetAddress;
import java.util.function.Supplier;

/**
 * What one {@code --role} adds to the parts every {@code proxypool serve} process shares (pool,
 * configuration store, clients, gateway engine, distribution API): {@link ControlPlaneAssembly}
 * for {@code all} and {@code control}, {@link WorkerAssembly} for {@code worker}.
 * {@link ProxyPoolServer.Builder#start()} asks the role's assembly at each step instead of
 * branching on the role itself.
 */
public sealed interface RoleAssembly permits ControlPlaneAssembly, WorkerAssembly {

    static RoleAssembly of(ServeRole role) {
        return switch (role) {
            case WORKER -> new WorkerAssembly();
            case ALL, CONTROL -> new ControlPlaneAssembly(role);
        };
    }

    /** True when this process collects (pipeline, active probing) and applies the upstream configuration. */
    boolean collects();

    /** Follows the stored configuration's upstreams (a worker's content is the control plane's). */
    void followCollection(ProxyPool pool, ProxyPoolConfig config);

    /** The console's live charts, or null when this role serves no console. */
    LiveSeries series(ProxyPool pool, MeterRegistry registry);

    /** The admin API, or null when this role takes no admin writes. */
    AdminService admin(Supplier<AdminService> build);

    /**
     * The ProxyNode registry (restored from {@code store}), or null when self-hosted nodes do not
     * register here.
     */
    NodeRegistry nodes(ProxyPool pool, NodeSettings settings, NodeStore store);

    /** This process's meters (a process that collects nothing has no pipeline meters). */
    PoolMetrics metrics(ProxyPool pool, MeterRegistry registry);

    /** The pipeline writer's lease on the shared store, or null when this process writes no pipeline. */
    StageLock pipelineLease(ProxyPoolConfig config, ProxyPool pool);

    /**
     * Joins the cluster on the shared store (snapshot publishing, or following).
     *
     * @param reloadConfig reads the configuration from its store and applies it (throws when it
     *                     cannot be read): a control plane runs it before it takes over publishing
     */
    AutoCloseable joinCluster(
            CoordinationRedis redis,
            ProxyPoolConfig config,
            ProxyPool pool,
            InetAddress bind,
            int gatewayPort,
            Runnable reloadConfig);

    /** The readiness check of this role and the meters that follow the cluster feed. */
    void readiness(GatewayServer.Builder server, AutoCloseable cluster, PoolMetrics metrics, ProxyPool pool);

    /** Starts collecting once both listeners are up (the validator needs the echo endpoint). */
    void startCollecting(ProxyPool pool, LiveSeries series);
}
