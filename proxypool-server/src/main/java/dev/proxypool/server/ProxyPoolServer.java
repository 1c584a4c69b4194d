package dev.proxypool.server;

import dev.proxypool.core.nodes.NodeSettings;
import dev.proxypool.core.routing.RetryRule;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ConfigException;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.coordination.ControlRole;
import dev.proxypool.sdk.coordination.CoordinationRedis;
import dev.proxypool.sdk.coordination.ServeRole;
import dev.proxypool.sdk.coordination.SharedSequentialStates;
import dev.proxypool.sdk.credentials.Secret;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.lock.StageLock;
import dev.proxypool.sdk.pipeline.CollectionPipeline;
import dev.proxypool.sdk.redis.RedisClusterPoolStore;
import dev.proxypool.sdk.redis.RedisPoolStore;
import dev.proxypool.server.access.ClientAuthenticator;
import dev.proxypool.server.access.DestinationPolicies;
import dev.proxypool.server.access.LiveClients;
import dev.proxypool.server.access.ServerAccess;
import dev.proxypool.server.admin.AdminService;
import dev.proxypool.server.admin.ClientTokens;
import dev.proxypool.server.admin.GatewayActivity;
import dev.proxypool.server.admin.GatewayTraffic;
import dev.proxypool.server.admin.LiveSeries;
import dev.proxypool.server.api.BearerToken;
import dev.proxypool.server.api.FeedbackService;
import dev.proxypool.server.api.distribution.DistributionService;
import dev.proxypool.server.api.lease.ProxyLeaseService;
import dev.proxypool.server.assembly.ConfigPoller;
import dev.proxypool.server.assembly.RoleAssembly;
import dev.proxypool.server.assembly.SequentialPersistence;
import dev.proxypool.server.console.Console;
import dev.proxypool.server.gateway.ConnectionLimits;
import dev.proxypool.server.gateway.GatewayConfig;
import dev.proxypool.server.gateway.ProxyAuthenticator;
import dev.proxypool.server.metrics.PoolMetrics;
import dev.proxypool.server.nodes.NodeRegistry;
import dev.proxypool.server.nodes.NodeService;
import dev.proxypool.server.nodes.NodeStore;
import dev.proxypool.server.nodes.PostgresNodeStore;
import dev.proxypool.server.persistence.ConfigState;
import dev.proxypool.server.persistence.ConfigStore;
import dev.proxypool.server.persistence.ConfigStores;
import dev.proxypool.server.persistence.PostgresConfigStore;
import dev.proxypool.server.readiness.StoreReadiness;
import dev.proxypool.server.tls.ListenerTls;
import dev.proxypool.server.upstream.AccessControl;
import dev.proxypool.server.upstream.DestinationResolution;
import dev.proxypool.server.upstream.PoolGatewayEngine;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.service.registry.Services;
import io.helidon.webserver.http.HttpRouting;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The {@code proxypool serve} process (docs/architecture.md#processes-and-roles): the SDK's {@link ProxyPool} (store, engine,
 * pipeline, prober) with the gateway listener and the REST listener around it. The server stays
 * thin: every rule lives in the core and the SDK.
 *
 * <p>Start order: the pool is built without collecting, both listeners start (so the echo endpoint
 * the validator and prober use is up), then collection starts. Stop order is the reverse.
 */
public final class ProxyPoolServer implements AutoCloseable {

    private static final Logger LOG = System.getLogger(ProxyPoolServer.class.getName());
    /** How often a standby control plane re-reads the sequential positions (a switch happens at most once per fetch). */
    private static final Duration STANDBY_SEQUENTIAL_FOLLOW = Duration.ofSeconds(1);

    private final ProxyPool pool;
    private final PoolGatewayEngine engine;
    private final GatewayServer server;
    private final AutoCloseable metrics;
    private final StageLock lease;
    private final ConfigStore configStore;
    private final AutoCloseable cluster;
    private final AutoCloseable nodes;
    private final ProxyLeaseService leases;

    private ProxyPoolServer(
            ProxyPool pool,
            PoolGatewayEngine engine,
            GatewayServer server,
            AutoCloseable metrics,
            StageLock lease,
            ConfigStore configStore,
            AutoCloseable cluster,
            AutoCloseable nodes,
            ProxyLeaseService leases) {
        this.leases = leases;
        this.configStore = configStore;
        this.cluster = cluster;
        this.nodes = nodes;
        this.pool = pool;
        this.engine = engine;
        this.server = server;
        this.metrics = metrics;
        this.lease = lease;
    }

    public static Builder builder(ProxyPoolConfig config) {
        return new Builder(config);
    }

    public int gatewayPort() {
        return server.gatewayPort();
    }

    public int apiPort() {
        return server.apiPort();
    }

    /** The SOCKS5 listener's port, or -1 when {@code server.socksPort} is not set. */
    public int socksPort() {
        return server.socksPort();
    }

    public ProxyPool pool() {
        return pool;
    }

    public PoolGatewayEngine gatewayEngine() {
        return engine;
    }

    /** The remote acquire/release API's leases of this process. */
    public ProxyLeaseService leases() {
        return leases;
    }

    @Override
    public void close() {
        closeQuietly(cluster);
        server.stop();
        closeQuietly(nodes);
        engine.closeIdle();
        pool.close();
        closeQuietly(lease);
        closeQuietly(metrics);
        closeQuietly(configStore);
    }

    private static void closeQuietly(Object c) {
        if (c instanceof AutoCloseable a) {
            try {
                a.close();
            } catch (Exception e) {
                LOG.log(Level.DEBUG, () -> "close failed: " + e);
            }
        }
    }

    /** Builds and starts a server; defaults come from the config. */
    public static final class Builder {
        private final ProxyPoolConfig config;
        private AccessControl access;
        private ProxyAuthenticator authenticator;
        private Function<String, Optional<String>> bearer;
        private Consumer<ProxyPool.Builder> poolCustomizer = b -> {};
        private Consumer<HttpRouting.Builder> routes = r -> {};
        private Path configDir = Path.of("").toAbsolutePath();
        private ServeRole role = ServeRole.ALL;
        private boolean importConfig;

        private Builder(ProxyPoolConfig config) {
            this.config = Objects.requireNonNull(config, "config");
        }

        public Builder access(AccessControl a) {
            access = Objects.requireNonNull(a, "access");
            return this;
        }

        public Builder authenticator(ProxyAuthenticator a) {
            authenticator = Objects.requireNonNull(a, "authenticator");
            return this;
        }

        /** Client bearer tokens for the REST API (default: the configured clients' tokens). */
        public Builder bearer(Function<String, Optional<String>> b) {
            bearer = b;
            return this;
        }

        /** Adjusts the pool before it is built (tests inject clocks, stores, inventories). */
        public Builder pool(Consumer<ProxyPool.Builder> customizer) {
            poolCustomizer = Objects.requireNonNull(customizer, "customizer");
            return this;
        }

        /**
         * {@code all} (default: one process does everything; with the Redis store it also publishes
         * snapshots for workers), {@code control} (pipeline, admin, snapshot publishing), or
         * {@code worker} (gateway and extraction from the control plane's snapshots; no pipeline,
         * no admin writes). Control and worker need {@code store.type: redis} or {@code redis-cluster};
         * several control planes may run: one publishes, the others stand by.
         */
        public Builder role(ServeRole r) {
            role = Objects.requireNonNull(r, "role");
            return this;
        }

        /**
         * Overwrite the configuration database's providers, upstreams, routings and clients with the
         * config file's at start ({@code proxypool serve --import-config}); needs {@code database.type: postgres}.
         * Without it the file only seeds an empty database, and afterwards the database is in force.
         */
        public Builder importConfig(boolean on) {
            importConfig = on;
            return this;
        }

        /** Where the config file lives: relative paths in admin changes resolve against it. */
        public Builder configDir(Path dir) {
            configDir = Objects.requireNonNull(dir, "configDir");
            return this;
        }

        /** More REST routes. */
        public Builder routes(Consumer<HttpRouting.Builder> more) {
            routes = Objects.requireNonNull(more, "routes");
            return this;
        }

        public ProxyPoolServer start() {
            InetAddress bind;
            try {
                bind = InetAddress.getByName(config.server().host());
            } catch (UnknownHostException e) {
                throw new ConfigException("server.host", "'" + config.server().host() + "' does not resolve");
            }
            int apiPort = config.server().apiPort() == 0
                    ? freePort(bind)
                    : config.server().apiPort();
            int gatewayPort = config.server().gatewayPort() == 0
                    ? freePort(bind)
                    : config.server().gatewayPort();
            // -1: no SOCKS5 listener
            int socksPort = config.server().socksPort().isEmpty()
                    ? -1
                    : config.server().socksPort().getAsInt() == 0
                            ? freePort(bind)
                            : config.server().socksPort().getAsInt();
            ProxyPoolConfig effective = withOwnEcho(config, bind, apiPort);
            boolean shared = config.store().type() != ProxyPoolConfig.StoreType.MEMORY;
            if (role != ServeRole.ALL && !shared) {
                throw new ConfigException(
                        "store.type",
                        "--role " + role.name().toLowerCase(Locale.ROOT)
                                + " needs the shared store: set store.type: redis or redis-cluster");
            }
            // snapshot distribution: with redis every role; with redis-cluster the split roles (--role all on a
            // Redis Cluster serves the whole pool in one process and publishes nothing)
            boolean distributes =
                    config.store().type() == ProxyPoolConfig.StoreType.REDIS || (shared && role != ServeRole.ALL);
            RoleAssembly assembly = RoleAssembly.of(role);
            ProxyPool.Builder pb = ProxyPool.builder()
                    .config(effective)
                    .activeProbing(assembly.collects())
                    .deferStart(true);
            poolCustomizer.accept(pb);
            ProxyPool pool = pb.build();
            ConfigStore configStore = null;
            AutoCloseable leases = null;
            SequentialPersistence sequentialPersistence = null;
            try {
                // Admin configuration: PostgreSQL when configured (migrated, seeded once), else memory seeded from the
                // YAML.
                configStore = ConfigStores.open(
                        effective, EmbeddedProxyPool.engineOf(pool).wallClock(), importConfig);
                // the stored configuration wins over the YAML once seeded (admin changes survive restarts)
                ConfigState storedState = configStore.state();
                ProxyPoolConfig stored = storedState.applyTo(effective, configDir);
                EmbeddedProxyPool.engineOf(pool).reconfigure(stored.routings());
                assembly.followCollection(pool, stored); // the pipeline collects the stored upstreams, not the file's
                // the gateway's clients (Basic auth, rate limits, username options, quotas) follow the
                // stored configuration, so admin client changes apply without a restart
                LiveClients clients = LiveClients.create(
                        config.clients(),
                        stored.clients(),
                        config.security(),
                        bind.isLoopbackAddress(),
                        EmbeddedProxyPool.engineOf(pool).ticker());
                if (authenticator == null && clients.authenticator().mode() == ClientAuthenticator.Mode.CLOSED) {
                    throw new ConfigException(
                            "clients",
                            "the gateway listens on " + config.server().host()
                                    + " (not loopback) but no client can authenticate: configure clients with a secretHash,"
                                    + " bind server.host to 127.0.0.1, or set security.allowAnonymous: true");
                }
                config.clients().stream()
                        .filter(c -> c.plainSecret().isPresent())
                        .forEach(c -> LOG.log(
                                Level.WARNING,
                                "clients["
                                        + c.name()
                                        + "].secret is a plain secret, for development only: configure secretHash"
                                        + " (proxypool hash-secret) instead"));
                ProxyAuthenticator auth = authenticator != null ? authenticator : clients;
                // sequential positions: restored where the routings stood (database, and the cluster's Redis), and
                // every later move stored by the process that moves them (docs/design.md#sequential-switching, Q6)
                SharedSequentialStates sharedSequential = distributes && assembly.collects()
                        ? SharedSequentialStates.open(CoordinationRedis.fromStore(config.store()))
                        : null;
                EmbeddedProxyPool.engineOf(pool)
                        .sequential()
                        .restore(SequentialPersistence.saved(configStore, sharedSequential));
                if (assembly.collects()) {
                    sequentialPersistence = new SequentialPersistence(configStore, sharedSequential);
                    EmbeddedProxyPool.engineOf(pool).addSequentialListener(sequentialPersistence);
                }
                ClientTokens clientTokens = new ClientTokens(storedState);
                AccessControl gate = access != null
                        ? access
                        : new ServerAccess(
                                clients,
                                // both listeners: the gateway must not proxy to itself nor to its own REST API
                                DestinationPolicies.fromConfig(
                                        config.security(), ownListeners(bind, gatewayPort, apiPort, socksPort)));
                // which proxies get destination names resolved and checked by the gateway (resolveDestinations)
                DestinationResolution resolution = DestinationResolution.of(stored.upstreams(), stored.nodes());
                PoolGatewayEngine engine = new PoolGatewayEngine(
                        EmbeddedProxyPool.engineOf(pool), EmbeddedProxyPool.dialerOf(pool), gate, resolution);
                // client tokens follow the stored configuration (a token added through the admin API works at once)
                Function<String, Optional<String>> tokens = bearer != null ? bearer : clientTokens::clientForBearer;
                // feedback asks for a token while any client has one (followed live, like the tokens)
                FeedbackService feedback = new FeedbackService(
                        EmbeddedProxyPool.engineOf(pool), tokens, bearer != null ? () -> true : clientTokens::any);
                ProxyPool live = pool;
                AtomicLong configVersion = new AtomicLong(storedState.version());
                AtomicReference<Runnable> configChanged = new AtomicReference<>(() -> {});
                // the console's live charts: sampled from this process's engine and meters
                LiveSeries series = assembly.series(pool, Services.get(MeterRegistry.class));
                // the console's request log and error breakdown: this process's gateway, in memory
                GatewayActivity activity = new GatewayActivity(
                        config.admin().requestLog(),
                        EmbeddedProxyPool.engineOf(pool).wallClock(),
                        Services.get(MeterRegistry.class));
                // bytes per upstream and client: Prometheus counters always, GET /v1/admin/traffic with the admin API
                GatewayTraffic traffic = new GatewayTraffic(
                        EmbeddedProxyPool.engineOf(pool).wallClock(), Services.get(MeterRegistry.class));
                DistributionService distribution = DistributionService.builder(pool, tokens::apply)
                        .quotas(clients.quotas())
                        .build();
                // remote acquire/release: leases held in this process, expired by its own sweeper
                ProxyLeaseService proxyLeases =
                        ProxyLeaseService.builder(pool, tokens::apply).build();
                leases = proxyLeases;
                Consumer<ProxyPoolConfig> applyConfig = next -> {
                    EmbeddedProxyPool.engineOf(live).reconfigure(next.routings());
                    resolution.update(next.upstreams());
                    EmbeddedProxyPool.engineOf(live).refresh();
                    try {
                        clients.update(next.clients());
                        distribution.updateQuotas(clients.quotas());
                    } catch (IllegalArgumentException e) {
                        LOG.log(
                                Level.WARNING,
                                "clients not updated, the previous ones stay in force: " + e.getMessage());
                    }
                    try {
                        assembly.followCollection(live, next);
                    } catch (RuntimeException e) {
                        LOG.log(
                                Level.WARNING,
                                "collection not reconfigured, the previous upstreams stay in force: " + e.getMessage());
                    }
                };
                ConfigStore store = configStore;
                // a control plane on the shared store shows its workers' snapshots (set once it joined)
                AtomicReference<ControlRole> control = new AtomicReference<>();
                AdminService admin = assembly.admin(() -> AdminService.builder(pool, store)
                        .workers(
                                () -> Optional.ofNullable(control.get()).map(ControlRole::workers),
                                config.cluster().validity().dividedBy(2))
                        .series(series)
                        .activity(activity)
                        .traffic(traffic)
                        .flags(config.admin().flags())
                        .read(ProxyLeaseService.ADMIN_PATH, proxyLeases.adminView())
                        .token(config.admin().token())
                        .baseDir(configDir)
                        .onConfigChange(change -> {
                            configVersion.set(change.state().version());
                            configChanged.get().run();
                            clientTokens.update(change.state());
                            // routings and clients take effect live; a new snapshot version follows
                            applyConfig.accept(change.state().applyTo(effective, configDir));
                        })
                        .build());
                // nodes and tokens live in the configuration database when there is one (they survive restarts)
                NodeStore nodeStore = configStore instanceof PostgresConfigStore pg
                        ? new PostgresNodeStore(pg.database())
                        : NodeStore.NONE;
                ProxyPoolConfig.Nodes nt = config.nodes();
                NodeRegistry nodes = assembly.nodes(
                        pool,
                        new NodeSettings(
                                nt.heartbeatInterval(), nt.livenessTimeout(), nt.credentialTtl(), nt.sweepInterval()),
                        nodeStore);
                Optional<Secret> adminToken = config.admin().token();
                NodeService nodeService = nodes == null
                        ? null
                        : new NodeService(
                                nodes,
                                // admin.token, or a named operator of role admin
                                header -> admin != null
                                        ? admin.admits(header)
                                        : adminToken.isPresent()
                                                && BearerToken.parse(header)
                                                        .map(t ->
                                                                adminToken.get().matches(t))
                                                        .orElse(false));
                PoolMetrics metrics = assembly.metrics(pool, Services.get(MeterRegistry.class));
                configChanged.set(metrics.bindControlPlane(
                        () -> nodes == null ? 0.0 : (double) nodes.nodes().size(), () -> (double) configVersion.get()));
                EmbeddedProxyPool.engineOf(pool).registry().healthListener(metrics.healthListener());
                StageLock lease = assembly.pipelineLease(config, pool);
                if (lease != null && sharedSequential != null) {
                    // several control planes: the one without the pipeline lease follows the positions the
                    // writer stores, so it resumes from them when it takes over
                    CollectionPipeline pipeline =
                            EmbeddedProxyPool.pipelineOf(pool).orElseThrow();
                    sharedSequential.follow(
                            EmbeddedProxyPool.engineOf(pool).sequential(),
                            STANDBY_SEQUENTIAL_FOLLOW,
                            () -> !pipeline.isWriter());
                }
                // a control plane taking over publishing first re-reads the configuration (the database is the truth)
                Runnable reloadConfig = () -> {
                    ConfigState now = store.state();
                    configVersion.set(now.version());
                    clientTokens.update(now);
                    applyConfig.accept(now.applyTo(effective, configDir));
                    // where the routings stand now (the previous control plane moved them)
                    EmbeddedProxyPool.engineOf(live)
                            .sequential()
                            .restore(SequentialPersistence.saved(store, sharedSequential));
                    LOG.log(Level.INFO, "configuration version " + now.version() + " re-read before taking over");
                };
                AutoCloseable cluster = !distributes
                        ? null
                        : assembly.joinCluster(
                                CoordinationRedis.fromStore(config.store()),
                                config,
                                pool,
                                bind,
                                gatewayPort,
                                reloadConfig);
                if (cluster instanceof ControlRole c) {
                    control.set(c);
                    if (nodes != null) {
                        // workers learn a registered node only once it passed a check (design H10b)
                        c.holdBack(nodes::withheldFromPublication);
                    }
                }
                GatewayServer.Builder gsb = GatewayServer.builder(engine);
                assembly.readiness(gsb, cluster, metrics, pool);
                if (EmbeddedProxyPool.engineOf(pool).store() instanceof RedisClusterPoolStore clusterStore) {
                    // every role that extracts from a Redis Cluster: its shards' durability (issue 37)
                    gsb.healthCheck(StoreReadiness.of(clusterStore));
                    metrics.storeDurabilityFrom(clusterStore);
                    metrics.storeCoalescingFrom(clusterStore::coalescing);
                    metrics.storeGeneralCallsFrom(clusterStore::generalExtractionCalls);
                } else if (EmbeddedProxyPool.engineOf(pool).store() instanceof RedisPoolStore redisStore) {
                    metrics.storeCoalescingFrom(redisStore::coalescing);
                    metrics.storeGeneralCallsFrom(redisStore::generalExtractionCalls);
                }
                if (socksPort >= 0) {
                    gsb.socksPort(socksPort);
                }
                GatewayServer server = gsb.gatewayPort(gatewayPort)
                        .apiPort(apiPort)
                        .bindAddress(bind)
                        .authenticator(auth)
                        .accessLog(
                                config.server().accessLog(),
                                EmbeddedProxyPool.engineOf(pool).wallClock())
                        .exchanges(traffic.andThen(admin != null ? activity : null))
                        // the wire layer's ceiling; each routing's retry policy and budget decide below it
                        .config(GatewayConfig.builder()
                                .from(config.gateway(), config.server())
                                .maxAttempts(RetryRule.MAX_ATTEMPTS)
                                .maxConnections(gatewayMaxConnections(config.server()))
                                .build())
                        .gatewayThreads(config.server().gatewayThreads())
                        .apiIdleTimeout(config.server().apiIdleTimeout())
                        .apiFirstRequestTimeout(config.server().firstRequestTimeout())
                        .apiMaxConnectionsPerAddress(config.server().maxConnectionsPerAddress())
                        .gatewayTls(config.server()
                                .gatewayTls()
                                .map(f -> ListenerTls.of("server.gatewayTls", f))
                                .orElse(null))
                        .apiTls(config.server()
                                .apiTls()
                                .map(f -> ListenerTls.of("server.apiTls", f))
                                .orElse(null))
                        .routes(r -> {
                            r.post("/v1/feedback", feedback);
                            r.register(DistributionService.PATH, distribution);
                            r.register(ProxyLeaseService.PATH, proxyLeases);
                            if (admin != null) {
                                r.register(AdminService.PATH, admin);
                                Console.register(r);
                            }
                            if (nodeService != null) {
                                r.register(NodeService.PATH, nodeService);
                            }
                            routes.accept(r);
                        })
                        .start();
                assembly.startCollecting(pool, series);
                LOG.log(
                        Level.INFO,
                        "proxypool serving: gateway on port " + server.gatewayPort() + ", API on port "
                                + server.apiPort() + ", "
                                + (server.socksPort() >= 0 ? "SOCKS5 on port " + server.socksPort() + ", " : "")
                                + EmbeddedProxyPool.engineOf(pool).snapshot().size() + " proxies in the pool");
                // Other processes' admin changes (shared PostgreSQL) reach this one within a poll interval;
                // while the database is down the last configuration keeps serving.
                AutoCloseable configPoller = ConfigPoller.start(
                        configStore,
                        storedState.version(),
                        state -> {
                            configVersion.set(state.version());
                            configChanged.get().run();
                            clientTokens.update(state);
                            applyConfig.accept(state.applyTo(effective, configDir));
                        },
                        Duration.ofSeconds(2));
                SequentialPersistence persistence = sequentialPersistence;
                AutoCloseable nodesAndPoller = () -> {
                    closeQuietly(persistence);
                    closeQuietly(proxyLeases);
                    closeQuietly(configPoller);
                    closeQuietly(nodes);
                    closeQuietly(series);
                };
                return new ProxyPoolServer(
                        pool, engine, server, metrics, lease, configStore, cluster, nodesAndPoller, proxyLeases);
            } catch (RuntimeException e) {
                closeQuietly(sequentialPersistence);
                closeQuietly(leases);
                pool.close();
                closeQuietly(configStore);
                throw e;
            }
        }

        /** {@code server.maxConnections}, or (0) the default sized from the descriptor limit. */
        private static int gatewayMaxConnections(ProxyPoolConfig.Server server) {
            if (server.maxConnections() > 0) {
                return server.maxConnections();
            }
            ConnectionLimits limits = ConnectionLimits.ofThisProcess();
            int max = limits.gatewayDefault();
            LOG.log(
                    Level.INFO,
                    "server.maxConnections: " + max + " (from the descriptor limit " + limits.descriptorLimit()
                            + "; the REST listener keeps " + limits.apiReserve() + ")");
            return max;
        }

        /** The listeners the gateway must never proxy to (itself, its REST API, its SOCKS5 port). */
        private static List<InetSocketAddress> ownListeners(InetAddress bind, int gateway, int api, int socks) {
            List<InetSocketAddress> own =
                    new ArrayList<>(List.of(new InetSocketAddress(bind, gateway), new InetSocketAddress(bind, api)));
            if (socks >= 0) {
                own.add(new InetSocketAddress(bind, socks));
            }
            return own;
        }

        private static int freePort(InetAddress bind) {
            try (ServerSocket s = new ServerSocket(0, 1, bind)) {
                return s.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException("no free port for the API listener", e);
            }
        }

        /**
         * The default echo URL and probe target point at our own REST listener; when it listens
         * elsewhere than the default, follow it (an explicit URL is left alone).
         */
        static ProxyPoolConfig withOwnEcho(ProxyPoolConfig c, InetAddress bind, int apiPort) {
            String host = bind.isAnyLocalAddress()
                    ? "127.0.0.1"
                    : bind.getHostAddress().contains(":") ? "[" + bind.getHostAddress() + "]" : bind.getHostAddress();
            // with server.apiTls the own echo is https: its certificate must then be one the JVM trusts
            String own = (c.server().apiTls().isPresent() ? "https://" : "http://") + host + ":" + apiPort + "/v1/echo";
            ProxyPoolConfig.Pipeline p = c.pipeline();
            if (p.echoUrl().equals(ProxyPoolConfig.Pipeline.DEFAULTS.echoUrl())) {
                p = p.withEchoUrl(own);
            }
            ProxyPoolConfig.Health h = c.health();
            List<String> defaultTargets = ProxyPoolConfig.Health.DEFAULTS.activeTargets();
            if (h.activeTargets().equals(defaultTargets)) {
                // the default echo target is ours
                List<String> targets = new ArrayList<>(defaultTargets);
                targets.set(0, own);
                h = new ProxyPoolConfig.Health(
                        h.policy(),
                        h.activeEnabled(),
                        h.activeInterval(),
                        h.activeFailuresToCool(),
                        List.copyOf(targets));
            }
            return new ProxyPoolConfig(
                    c.server(),
                    c.store(),
                    c.database(),
                    c.credentials(),
                    c.admin(),
                    c.clients(),
                    c.providers(),
                    c.upstreams(),
                    c.routings(),
                    h,
                    p,
                    c.security(),
                    c.distribution(),
                    c.gateway(),
                    c.cluster(),
                    c.nodes());
        }
    }
}
