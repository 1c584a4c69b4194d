package dev.proxypool.sdk.config;

import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.nodes.NodeSettings;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.sdk.credentials.Secret;
import dev.proxypool.sdk.redis.RedisClusterConfig;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The whole of {@code proxypool.yaml} (docs/configuration.md), immutable and validated. Defaults live in one
 * place each: the {@code DEFAULTS} constants below, documented in {@code docs/configuration.md}.
 * Load it with {@link ConfigLoader}.
 *
 * @param server       {@code server}: the listeners
 * @param store        {@code store}: where the pool state lives
 * @param database     {@code database}: admin persistence
 * @param credentials  {@code credentials}: the proxy credential file
 * @param admin        {@code admin}: the admin API token
 * @param clients      {@code clients[]}: gateway and API callers
 * @param providers    {@code providers[]}: candidate sources
 * @param upstreams    {@code upstreams[]}: configured uses of the providers
 * @param routings     {@code routings[]}: first match wins; none = one catch-all routing
 * @param health       {@code health}: the health policy and active probing
 * @param pipeline     {@code pipeline}: validation and ranking
 * @param security     {@code security}: the gateway's destination checks
 * @param distribution {@code distribution}: exclusive extraction
 * @param gateway      {@code gateway}: the forward proxy's timeouts
 * @param cluster      {@code cluster}: snapshot distribution between control plane and workers
 * @param nodes        {@code nodes}: timing of self-hosted ProxyNode agents
 */
public record ProxyPoolConfig(
        Server server,
        Store store,
        Database database,
        Credentials credentials,
        Admin admin,
        List<Client> clients,
        List<Provider> providers,
        List<Upstream> upstreams,
        List<RoutingRule> routings,
        Health health,
        Pipeline pipeline,
        Security security,
        Distribution distribution,
        Gateway gateway,
        ClusterSettings cluster,
        Nodes nodes) {

    /**
     * Copies the lists.
     *
     * @throws NullPointerException when {@code gateway} or {@code cluster} is null
     */
    public ProxyPoolConfig {
        clients = List.copyOf(clients);
        providers = List.copyOf(providers);
        upstreams = List.copyOf(upstreams);
        routings = List.copyOf(routings);
        Objects.requireNonNull(gateway, "gateway");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(nodes, "nodes");
    }

    /**
     * Without a {@code nodes} section: {@link Nodes#DEFAULTS}.
     *
     * @param server       the listeners
     * @param store        where the pool state lives
     * @param database     admin persistence
     * @param credentials  the proxy credential file
     * @param admin        the admin API token
     * @param clients      gateway and API callers
     * @param providers    candidate sources
     * @param upstreams    configured uses of the providers
     * @param routings     first match wins
     * @param health       the health policy and active probing
     * @param pipeline     validation and ranking
     * @param security     the gateway's destination checks
     * @param distribution exclusive extraction
     * @param gateway      the forward proxy's timeouts
     * @param cluster      snapshot distribution between control plane and workers
     */
    public ProxyPoolConfig(
            Server server,
            Store store,
            Database database,
            Credentials credentials,
            Admin admin,
            List<Client> clients,
            List<Provider> providers,
            List<Upstream> upstreams,
            List<RoutingRule> routings,
            Health health,
            Pipeline pipeline,
            Security security,
            Distribution distribution,
            Gateway gateway,
            ClusterSettings cluster) {
        this(
                server,
                store,
                database,
                credentials,
                admin,
                clients,
                providers,
                upstreams,
                routings,
                health,
                pipeline,
                security,
                distribution,
                gateway,
                cluster,
                Nodes.DEFAULTS);
    }

    /**
     * Without a {@code cluster} section: {@link ClusterSettings#DEFAULTS}.
     *
     * @param server       the listeners
     * @param store        where the pool state lives
     * @param database     admin persistence
     * @param credentials  the proxy credential file
     * @param admin        the admin API token
     * @param clients      gateway and API callers
     * @param providers    candidate sources
     * @param upstreams    configured uses of the providers
     * @param routings     first match wins
     * @param health       the health policy and active probing
     * @param pipeline     validation and ranking
     * @param security     the gateway's destination checks
     * @param distribution exclusive extraction
     * @param gateway      the forward proxy's timeouts
     */
    public ProxyPoolConfig(
            Server server,
            Store store,
            Database database,
            Credentials credentials,
            Admin admin,
            List<Client> clients,
            List<Provider> providers,
            List<Upstream> upstreams,
            List<RoutingRule> routings,
            Health health,
            Pipeline pipeline,
            Security security,
            Distribution distribution,
            Gateway gateway) {
        this(
                server,
                store,
                database,
                credentials,
                admin,
                clients,
                providers,
                upstreams,
                routings,
                health,
                pipeline,
                security,
                distribution,
                gateway,
                ClusterSettings.DEFAULTS);
    }

    /**
     * {@code server}: listeners. {@code accessLog} turns on the gateway's access log (one line per
     * request and tunnel on the logger {@code dev.proxypool.access}); off by default.
     * {@code maxConnections} caps open gateway client connections (0: sized from the process's
     * descriptor limit at start); {@code requestHeadTimeout} bounds the time from a request's first
     * byte to the end of its head on both listeners (408 after it); {@code apiIdleTimeout} closes an
     * idle keep-alive connection on the REST listener. {@code firstRequestTimeout} bounds the time from
     * accept to a connection's first complete request head (TLS handshake and SOCKS5 greeting included) on
     * every listener, so a silent connection cannot hold a slot; {@code maxConnectionsPerAddress} caps the
     * connections one client address holds open on each listener.
     *
     * @param host               bind address of both listeners
     * @param gatewayPort        the forward proxy's port (0: any free port)
     * @param apiPort            the REST listener's port (0: any free port)
     * @param accessLog          whether the gateway logs one line per request and tunnel
     * @param maxConnections     cap on open gateway client connections; 0 sizes it from the descriptor limit
     * @param requestHeadTimeout longest time from a request's first byte to the end of its head
     * @param apiIdleTimeout     an idle keep-alive connection on the REST listener closes after this
     * @param socksPort          the SOCKS5 listener's port (0: any free port); empty: no SOCKS5 listener
     * @param gatewayTls         {@code gatewayTls}: the gateway speaks TLS (an HTTPS proxy) with these files; empty: plain
     * @param apiTls             {@code apiTls}: the REST API and console speak TLS with these files; empty: plain
     * @param firstRequestTimeout longest time from accept to a connection's first complete request head
     * @param maxConnectionsPerAddress cap on the connections one client address holds open on a listener
     * @param gatewayThreads     event loops of the gateway's event-loop data plane; 0: one per core
     */
    public record Server(
            String host,
            int gatewayPort,
            int apiPort,
            boolean accessLog,
            int maxConnections,
            Duration requestHeadTimeout,
            Duration apiIdleTimeout,
            OptionalInt socksPort,
            Optional<TlsFiles> gatewayTls,
            Optional<TlsFiles> apiTls,
            Duration firstRequestTimeout,
            int maxConnectionsPerAddress,
            int gatewayThreads) {
        /** The first request's default deadline from accept. */
        public static final Duration DEFAULT_FIRST_REQUEST_TIMEOUT = Duration.ofSeconds(10);
        /** The default cap on one client address's open connections per listener. */
        public static final int DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256;

        /** The most event loops {@code server.gatewayThreads} may ask for. */
        public static final int MAX_GATEWAY_THREADS = 1024;

        /** The largest {@code server.maxConnections} and {@code server.maxConnectionsPerAddress}. */
        public static final int MAX_CONNECTIONS = 10_000_000;

        /**
         * The defaults: loopback, 8080 and 9090, no access log, sized connection cap, 10 s head, 60 s idle, no SOCKS5,
         * no TLS, 10 s to the first request, 256 connections per client address.
         */
        public static final Server DEFAULTS =
                new Server("127.0.0.1", 8080, 9090, false, 0, Duration.ofSeconds(10), Duration.ofSeconds(60));

        /** Checks the SOCKS5 port and the limits; null TLS settings are read as "plain". */
        public Server {
            Objects.requireNonNull(socksPort, "socksPort");
            positive("server.requestHeadTimeout", requestHeadTimeout);
            positive("server.apiIdleTimeout", apiIdleTimeout);
            positive("server.firstRequestTimeout", firstRequestTimeout);
            if (maxConnections < 0 || maxConnections > MAX_CONNECTIONS) {
                throw new IllegalArgumentException(
                        "server.maxConnections must be 0.." + MAX_CONNECTIONS + ", got " + maxConnections);
            }
            if (maxConnectionsPerAddress < 1 || maxConnectionsPerAddress > MAX_CONNECTIONS) {
                throw new IllegalArgumentException("server.maxConnectionsPerAddress must be 1.." + MAX_CONNECTIONS
                        + ", got " + maxConnectionsPerAddress);
            }
            if (gatewayThreads < 0 || gatewayThreads > MAX_GATEWAY_THREADS) {
                throw new IllegalArgumentException(
                        "server.gatewayThreads must be 0.." + MAX_GATEWAY_THREADS + ", got " + gatewayThreads);
            }
            if (socksPort.isPresent() && (socksPort.getAsInt() < 0 || socksPort.getAsInt() > 65535)) {
                throw new IllegalArgumentException("server.socksPort must be 0..65535, got " + socksPort.getAsInt());
            }
            gatewayTls = gatewayTls == null ? Optional.empty() : gatewayTls;
            apiTls = apiTls == null ? Optional.empty() : apiTls;
        }

        /**
         * Listeners with one gateway event loop per core.
         *
         * @param host               bind address of both listeners
         * @param gatewayPort        the forward proxy's port (0: any free port)
         * @param apiPort            the REST listener's port (0: any free port)
         * @param accessLog          whether the gateway logs one line per request and tunnel
         * @param maxConnections     cap on open gateway client connections; 0 sizes it from the descriptor limit
         * @param requestHeadTimeout longest time from a request's first byte to the end of its head
         * @param apiIdleTimeout     an idle keep-alive connection on the REST listener closes after this
         * @param socksPort          the SOCKS5 listener's port (0: any free port); empty: no SOCKS5 listener
         * @param gatewayTls         the gateway's TLS files; empty: plain
         * @param apiTls             the REST listener's TLS files; empty: plain
         * @param firstRequestTimeout longest time from accept to a connection's first complete request head
         * @param maxConnectionsPerAddress cap on the connections one client address holds open on a listener
         */
        public Server(
                String host,
                int gatewayPort,
                int apiPort,
                boolean accessLog,
                int maxConnections,
                Duration requestHeadTimeout,
                Duration apiIdleTimeout,
                OptionalInt socksPort,
                Optional<TlsFiles> gatewayTls,
                Optional<TlsFiles> apiTls,
                Duration firstRequestTimeout,
                int maxConnectionsPerAddress) {
            this(
                    host,
                    gatewayPort,
                    apiPort,
                    accessLog,
                    maxConnections,
                    requestHeadTimeout,
                    apiIdleTimeout,
                    socksPort,
                    gatewayTls,
                    apiTls,
                    firstRequestTimeout,
                    maxConnectionsPerAddress,
                    0);
        }

        /**
         * Listeners with the first-request deadline and the per-address cap at their defaults.
         *
         * @param host               bind address of both listeners
         * @param gatewayPort        the forward proxy's port (0: any free port)
         * @param apiPort            the REST listener's port (0: any free port)
         * @param accessLog          whether the gateway logs one line per request and tunnel
         * @param maxConnections     cap on open gateway client connections; 0 sizes it from the descriptor limit
         * @param requestHeadTimeout longest time from a request's first byte to the end of its head
         * @param apiIdleTimeout     an idle keep-alive connection on the REST listener closes after this
         * @param socksPort          the SOCKS5 listener's port (0: any free port); empty: no SOCKS5 listener
         * @param gatewayTls         the gateway's TLS files; empty: plain
         * @param apiTls             the REST listener's TLS files; empty: plain
         */
        public Server(
                String host,
                int gatewayPort,
                int apiPort,
                boolean accessLog,
                int maxConnections,
                Duration requestHeadTimeout,
                Duration apiIdleTimeout,
                OptionalInt socksPort,
                Optional<TlsFiles> gatewayTls,
                Optional<TlsFiles> apiTls) {
            this(
                    host,
                    gatewayPort,
                    apiPort,
                    accessLog,
                    maxConnections,
                    requestHeadTimeout,
                    apiIdleTimeout,
                    socksPort,
                    gatewayTls,
                    apiTls,
                    DEFAULT_FIRST_REQUEST_TIMEOUT,
                    DEFAULT_MAX_CONNECTIONS_PER_ADDRESS);
        }

        /**
         * Plain (no TLS) listeners without a SOCKS5 listener.
         *
         * @param host               bind address of both listeners
         * @param gatewayPort        the forward proxy's port (0: any free port)
         * @param apiPort            the REST listener's port (0: any free port)
         * @param accessLog          whether the gateway logs one line per request and tunnel
         * @param maxConnections     cap on open gateway client connections; 0 sizes it from the descriptor limit
         * @param requestHeadTimeout longest time from a request's first byte to the end of its head
         * @param apiIdleTimeout     an idle keep-alive connection on the REST listener closes after this
         */
        public Server(
                String host,
                int gatewayPort,
                int apiPort,
                boolean accessLog,
                int maxConnections,
                Duration requestHeadTimeout,
                Duration apiIdleTimeout) {
            this(
                    host,
                    gatewayPort,
                    apiPort,
                    accessLog,
                    maxConnections,
                    requestHeadTimeout,
                    apiIdleTimeout,
                    OptionalInt.empty(),
                    Optional.empty(),
                    Optional.empty());
        }

        /**
         * Listeners with every other setting at its default.
         *
         * @param host        bind address
         * @param gatewayPort the forward proxy's port
         * @param apiPort     the REST listener's port
         */
        public Server(String host, int gatewayPort, int apiPort) {
            this(
                    host,
                    gatewayPort,
                    apiPort,
                    false,
                    DEFAULTS.maxConnections(),
                    DEFAULTS.requestHeadTimeout(),
                    DEFAULTS.apiIdleTimeout());
        }
    }

    /**
     * {@code server.gatewayTls} / {@code server.apiTls}: a listener's certificate and key, both PEM.
     * The files are read again when they change on disk (certificate rotation without a restart).
     *
     * @param certFile the certificate chain, leaf first ({@code certFile})
     * @param keyFile  the leaf's private key, PKCS#8, RSA or EC ({@code keyFile})
     */
    public record TlsFiles(Path certFile, Path keyFile) {
        /** Both files are required. */
        public TlsFiles {
            Objects.requireNonNull(certFile, "certFile");
            Objects.requireNonNull(keyFile, "keyFile");
        }
    }

    /**
     * {@code store}: where the pool state lives.
     *
     * @param type         in memory (one process), Redis (shared) or Redis Cluster (shared, partitioned)
     * @param uri          the Redis URI, for {@link StoreType#REDIS}
     * @param keyPrefix    every Redis key starts with it
     * @param nodes        seed nodes {@code host:port}, for {@link StoreType#REDIS_CLUSTER}
     * @param shards       partitions of the pool on Redis Cluster
     * @param waitReplicas replicas that acknowledge an extraction on Redis Cluster; -1: 1 when the
     *                     shard's master has a replica, else 0
     * @param waitTimeout  how long an extraction waits for them
     * @param indexDimensions {@code store.index.dimensions}: the label keys whose combinations the Redis
     *                     extraction index covers
     * @param indexProtocol {@code store.index.protocol}: whether their combinations with a protocol are
     *                     indexed too
     * @param indexUpstream {@code store.index.upstream}: whether the upstream's combinations with them
     *                     (and with the protocol) are indexed too
     */
    public record Store(
            StoreType type,
            String uri,
            String keyPrefix,
            List<String> nodes,
            int shards,
            int waitReplicas,
            Duration waitTimeout,
            List<String> indexDimensions,
            boolean indexProtocol,
            boolean indexUpstream) {
        /** The default {@code store.uri}. */
        public static final String DEFAULT_URI = "redis://127.0.0.1:6379";

        /** In memory; the Redis defaults {@code redis://127.0.0.1:6379} and {@code pp:} for when it is switched. */
        public static final Store DEFAULTS =
                new Store(StoreType.MEMORY, DEFAULT_URI, RedisStoreConfig.DEFAULTS.keyPrefix());

        /** Copies {@code nodes} and {@code indexDimensions}. */
        public Store {
            nodes = List.copyOf(nodes);
            indexDimensions = List.copyOf(indexDimensions);
        }

        /**
         * A store with the default {@code store.index.dimensions} ({@code [country, type]}),
         * {@code store.index.protocol} (true) and {@code store.index.upstream} (false).
         *
         * @param type         in memory, Redis or Redis Cluster
         * @param uri          the Redis URI
         * @param keyPrefix    every Redis key starts with it
         * @param nodes        seed nodes {@code host:port} of a Redis Cluster
         * @param shards       partitions of the pool on Redis Cluster
         * @param waitReplicas replicas that acknowledge an extraction on Redis Cluster (-1: by topology)
         * @param waitTimeout  how long an extraction waits for them
         */
        public Store(
                StoreType type,
                String uri,
                String keyPrefix,
                List<String> nodes,
                int shards,
                int waitReplicas,
                Duration waitTimeout) {
            this(
                    type,
                    uri,
                    keyPrefix,
                    nodes,
                    shards,
                    waitReplicas,
                    waitTimeout,
                    StoreSettings.DEFAULT_INDEX_DIMENSIONS,
                    true,
                    false);
        }

        /**
         * This store with other index dimensions ({@code store.index.dimensions}).
         *
         * @param dims label keys whose value combinations the pool store indexes
         * @return a new store config; this one is unchanged
         */
        public Store withIndexDimensions(List<String> dims) {
            return new Store(
                    type, uri, keyPrefix, nodes, shards, waitReplicas, waitTimeout, dims, indexProtocol, indexUpstream);
        }

        /**
         * This store with the combinations of its index dimensions with a protocol indexed or not
         * ({@code store.index.protocol}).
         *
         * @param on whether they are indexed
         * @return a new store config; this one is unchanged
         */
        public Store withIndexProtocol(boolean on) {
            return new Store(
                    type, uri, keyPrefix, nodes, shards, waitReplicas, waitTimeout, indexDimensions, on, indexUpstream);
        }

        /**
         * This store with the upstream's combinations with its index dimensions (and the protocol)
         * indexed or not ({@code store.index.upstream}).
         *
         * @param on whether they are indexed
         * @return a new store config; this one is unchanged
         */
        public Store withIndexUpstream(boolean on) {
            return new Store(
                    type, uri, keyPrefix, nodes, shards, waitReplicas, waitTimeout, indexDimensions, indexProtocol, on);
        }

        /**
         * A memory or single-node Redis store: the cluster settings at their defaults.
         *
         * @param type      in memory (one process) or Redis (shared)
         * @param uri       the Redis URI, for {@link StoreType#REDIS}
         * @param keyPrefix every Redis key starts with it
         */
        public Store(StoreType type, String uri, String keyPrefix) {
            this(
                    type,
                    uri,
                    keyPrefix,
                    List.of(),
                    RedisClusterConfig.DEFAULT_SHARDS,
                    RedisClusterConfig.WAIT_AUTO,
                    RedisClusterConfig.DEFAULT_WAIT_TIMEOUT);
        }
    }

    /** {@code store.type}. */
    public enum StoreType {
        /** In this process only. */
        MEMORY,
        /** In Redis, shared by every process of a deployment. */
        REDIS,
        /** In Redis Cluster, shared and partitioned into hash-tagged shards. */
        REDIS_CLUSTER
    }

    /**
     * {@code database}: admin persistence.
     *
     * @param type     none (configuration from the file only) or PostgreSQL
     * @param url      the JDBC URL
     * @param user     the database user
     * @param password the database password, when it needs one
     */
    public record Database(DatabaseType type, String url, String user, Optional<Secret> password) {
        /** No database. */
        public static final Database DEFAULTS = new Database(DatabaseType.NONE, "", "", Optional.empty());
    }

    /** {@code database.type}. */
    public enum DatabaseType {
        /** No admin persistence: the file is the configuration. */
        NONE,
        /** PostgreSQL holds the admin-managed configuration and the audit log. */
        POSTGRES
    }

    /**
     * {@code credentials}: the proxy credential store file (properties: {@code <ref>.username}, {@code <ref>.password}).
     *
     * @param file the file, re-read on change; empty for none
     */
    public record Credentials(Optional<Path> file) {
        /** No credential file. */
        public static final Credentials DEFAULTS = new Credentials(Optional.empty());
    }

    /**
     * {@code admin}: the admin API token, separate from clients' credentials. Absent = admin API disabled.
     *
     * @param token      the bearer token of the admin API
     * @param requestLog how many of the gateway's last requests and tunnels the admin API keeps in
     *                   memory for {@code GET /v1/admin/requests} ({@code admin.requestLog}); 0 keeps none
     * @param flags      when the console's red flags fire ({@code admin.flags})
     */
    public record Admin(Optional<Secret> token, int requestLog, Flags flags) {
        /** The default {@code admin.requestLog}. */
        public static final int DEFAULT_REQUEST_LOG = 500;

        /** No token: the admin API is disabled. */
        public static final Admin DEFAULTS = new Admin(Optional.empty());

        /** Validates {@code admin.requestLog}. */
        public Admin {
            if (requestLog < 0) {
                throw new IllegalArgumentException("admin.requestLog must not be negative, got " + requestLog);
            }
            Objects.requireNonNull(flags, "admin.flags");
        }

        /**
         * A token, a request log and the default flags.
         *
         * @param token      {@code admin.token}
         * @param requestLog {@code admin.requestLog}
         */
        public Admin(Optional<Secret> token, int requestLog) {
            this(token, requestLog, Flags.DEFAULTS);
        }

        /**
         * {@code admin.flags}: when {@code GET /v1/admin/flags} (the console's attention list) raises
         * a red flag short of a total outage.
         *
         * @param healthyShare     an upstream whose healthy proxies are fewer than this share of its
         *                         proxies (in the snapshot, plus those disabled in the store) is flagged
         *                         ({@code admin.flags.healthyShare}, 0..1, default 0.5)
         * @param noCandidateShare a routing whose recent requests answered {@code no_candidate} more
         *                         often than this share is flagged ({@code admin.flags.noCandidateShare},
         *                         0..1, default 0.5)
         * @param minRequests      a routing is judged on at least this many recent requests
         *                         ({@code admin.flags.minRequests}, default 10)
         */
        public record Flags(double healthyShare, double noCandidateShare, int minRequests) {
            /** 0.5, 0.5, 10. */
            public static final Flags DEFAULTS = new Flags(0.5, 0.5, 10);

            /** Validates the shares (0..1) and the minimum (at least 1). */
            public Flags {
                if (!(healthyShare >= 0 && healthyShare <= 1) || !(noCandidateShare >= 0 && noCandidateShare <= 1)) {
                    throw new IllegalArgumentException("admin.flags shares must be between 0 and 1, got " + healthyShare
                            + " and " + noCandidateShare);
                }
                if (minRequests < 1) {
                    throw new IllegalArgumentException(
                            "admin.flags.minRequests must be at least 1, got " + minRequests);
                }
            }
        }

        /**
         * A token and the default request log.
         *
         * @param token {@code admin.token}, empty when the admin API is disabled
         */
        public Admin(Optional<Secret> token) {
            this(token, DEFAULT_REQUEST_LOG);
        }
    }

    /**
     * {@code clients[]}: gateway and API callers.
     *
     * @param name               the client's name, unique
     * @param secretHash         {@code pbkdf2-sha256$...} from {@code proxypool hash-secret}; or empty
     * @param plainSecret        dev only ({@code secret:}); the server warns at start
     * @param token              bearer token for the Distribution API; or empty
     * @param extractionsPerHour quota, 0 = unlimited
     * @param rps                gateway rate limit (token bucket), 0 = unlimited
     */
    public record Client(
            String name,
            Optional<String> secretHash,
            Optional<Secret> plainSecret,
            Optional<Secret> token,
            int extractionsPerHour,
            double rps) {}

    /**
     * {@code providers[]}: a source of candidates, of an explicitly registered adapter type.
     *
     * @param name     the provider's name, unique
     * @param type     the adapter type, e.g. {@code jsonl_inventory}
     * @param settings the adapter's settings
     * @param fields   the field mapping, normalized name to source name
     */
    public record Provider(String name, String type, Map<String, String> settings, Map<String, String> fields) {}

    /**
     * {@code upstreams[]}: one configured use of a provider.
     *
     * @param name          the upstream's name, unique
     * @param provider      the provider it uses
     * @param params        its params (filters the provider understands, label params)
     * @param fetchInterval how often it is fetched
     * @param lowWaterMark  when above 0, fetch only while fewer of its proxies are available
     * @param validate      whether its candidates are validated before they serve
     * @param resolveDestinations {@code resolveDestinations}: whether the gateway resolves a destination name
     *                      itself, checks every address with the destination policy and sends the checked
     *                      address to this upstream's proxies; empty: yes for a proxy whose address is private
     *                      or loopback (a self-hosted proxy on the gateway's network), no for a public one (a
     *                      vendor endpoint)
     */
    public record Upstream(
            String name,
            String provider,
            Map<String, String> params,
            Duration fetchInterval,
            int lowWaterMark,
            boolean validate,
            Optional<Boolean> resolveDestinations) {
        /** Checks the fields; a null {@code resolveDestinations} is read as empty (by address). */
        public Upstream {
            resolveDestinations = resolveDestinations == null ? Optional.empty() : resolveDestinations;
        }

        /**
         * An upstream whose destination resolution follows its proxies' addresses.
         *
         * @param name          the upstream's name, unique
         * @param provider      the provider it uses
         * @param params        its params (filters the provider understands, label params)
         * @param fetchInterval how often it is fetched
         * @param lowWaterMark  when above 0, fetch only while fewer of its proxies are available
         * @param validate      whether its candidates are validated before they serve
         */
        public Upstream(
                String name,
                String provider,
                Map<String, String> params,
                Duration fetchInterval,
                int lowWaterMark,
                boolean validate) {
            this(name, provider, params, fetchInterval, lowWaterMark, validate, Optional.empty());
        }
    }

    /**
     * {@code nodes}: timing of self-hosted ProxyNode agents, judged on the control plane's clock
     * (docs/configuration.md#nodes). Validated by the loader: {@code livenessTimeout} longer than
     * {@code heartbeatInterval}, {@code credentialTtl} at least {@code livenessTimeout}.
     *
     * @param heartbeatInterval how often a node is told to heartbeat (10 s)
     * @param livenessTimeout   a node silent this long is dead and leaves the pool (30 s)
     * @param credentialTtl     lifetime of a node credential, renewed by each heartbeat (10 min)
     * @param sweepInterval     how often dead nodes are looked for (2 s)
     * @param resolveDestinations whether the gateway resolves destination names itself for nodes, checks every
     *                          address and sends nodes the checked address (true: nodes run on networks the
     *                          gateway trusts, where a name may lead to an internal address)
     */
    public record Nodes(
            Duration heartbeatInterval,
            Duration livenessTimeout,
            Duration credentialTtl,
            Duration sweepInterval,
            boolean resolveDestinations) {
        /** The defaults: 10 s heartbeats, 30 s liveness, 10 min credentials, a sweep every 2 s, names resolved. */
        public static final Nodes DEFAULTS = new Nodes(
                NodeSettings.DEFAULTS.heartbeatInterval(),
                NodeSettings.DEFAULTS.livenessTimeout(),
                NodeSettings.DEFAULTS.credentialTtl(),
                NodeSettings.DEFAULTS.sweepInterval());

        /**
         * Node timings with destination names resolved by the gateway.
         *
         * @param heartbeatInterval how often a node is told to heartbeat
         * @param livenessTimeout   a node silent this long is dead and leaves the pool
         * @param credentialTtl     lifetime of a node credential
         * @param sweepInterval     how often dead nodes are looked for
         */
        public Nodes(
                Duration heartbeatInterval, Duration livenessTimeout, Duration credentialTtl, Duration sweepInterval) {
            this(heartbeatInterval, livenessTimeout, credentialTtl, sweepInterval, true);
        }
    }

    /**
     * {@code health}: the core policy plus active probing. The default {@code activeTargets} is the
     * server's own echo only ({@code proxypool serve} points it at its REST listener): a fresh server
     * sends nothing to third parties unasked. Probes rotate over the configured list, so listing two
     * or more destinations makes them measure more than one (docs/design.md H9).
     *
     * @param policy               passive health: failure windows, cooling, bans
     * @param activeEnabled        whether proxies are probed actively
     * @param activeInterval       how often each proxy is probed
     * @param activeFailuresToCool failed probes in a row that cool a proxy
     * @param activeTargets        the URLs probes fetch through the proxy, rotated per proxy
     */
    public record Health(
            HealthPolicy policy,
            boolean activeEnabled,
            Duration activeInterval,
            int activeFailuresToCool,
            List<String> activeTargets) {
        /** The longest {@code health.active.interval}. */
        public static final Duration MAX_ACTIVE_INTERVAL = Duration.ofDays(1);

        /** The core policy's defaults; probing on, every 30 s, 2 failures cool, against the local echo endpoint. */
        public static final Health DEFAULTS =
                new Health(HealthPolicy.DEFAULTS, true, Duration.ofSeconds(30), 2, List.of(Pipeline.DEFAULT_ECHO_URL));
    }

    /**
     * {@code pipeline}: validation and ranking.
     *
     * @param echoUrl               the echo endpoint validation requests go to through each candidate
     * @param validationConcurrency candidates validated at once
     * @param validationTimeout     longest validation of one candidate
     * @param minScore              quality threshold of the ranker
     * @param poolSize              active pool upper bound
     * @param reserveSize           sorted reserve size
     * @param asnDatabase           the ASN database file, when configured
     * @param asnMaxAge             an ASN database older than this is reported stale
     * @param unknownAsnPenalty     factor on the score of a proxy whose exit ASN is unknown, in (0, 1]
     * @param unknownAsnMaxShare    largest share of the active pool (and of the reserve) for unknown-ASN exits, in [0, 1]
     */
    public record Pipeline(
            String echoUrl,
            int validationConcurrency,
            Duration validationTimeout,
            double minScore,
            int poolSize,
            int reserveSize,
            Optional<Path> asnDatabase,
            Duration asnMaxAge,
            double unknownAsnPenalty,
            double unknownAsnMaxShare) {
        /** The default {@code pipeline.echoUrl}: the server's own echo endpoint on the default API port. */
        public static final String DEFAULT_ECHO_URL = "http://127.0.0.1:9090/v1/echo";

        /** The largest {@code pipeline.validationConcurrency}. */
        public static final int MAX_VALIDATION_CONCURRENCY = 10_000;

        /** The longest {@code pipeline.validationTimeout}. */
        public static final Duration MAX_VALIDATION_TIMEOUT = Duration.ofMinutes(10);

        /** The local echo endpoint, 100 at once, 8 s, score 18, 150 active, 700 reserve, no ASN database. */
        public static final Pipeline DEFAULTS = new Pipeline(
                DEFAULT_ECHO_URL,
                100,
                Duration.ofSeconds(8),
                18,
                150,
                700,
                Optional.empty(),
                Duration.ofDays(30),
                0.5,
                0.2);

        /**
         * This section with another echo URL.
         *
         * @param url the echo URL validation checks proxies against
         * @return a copy of this section with {@code url} as its echo URL
         */
        public Pipeline withEchoUrl(String url) {
            return new Pipeline(
                    url,
                    validationConcurrency,
                    validationTimeout,
                    minScore,
                    poolSize,
                    reserveSize,
                    asnDatabase,
                    asnMaxAge,
                    unknownAsnPenalty,
                    unknownAsnMaxShare);
        }
    }

    /**
     * {@code security}: destination checks of the gateway.
     *
     * @param allowPrivateDestinations whether private, loopback and link-local destinations may be reached
     * @param connectPorts             the ports {@code CONNECT} may reach
     * @param allowDestinations        allow-list of CIDRs, exact hosts and {@code *.suffix} patterns
     * @param allowAnonymous           whether callers without credentials are admitted
     */
    public record Security(
            boolean allowPrivateDestinations,
            List<Integer> connectPorts,
            List<String> allowDestinations,
            boolean allowAnonymous) {
        /** Secure defaults: no private destinations, {@code CONNECT} to 443 and 8443, no anonymous callers. */
        public static final Security DEFAULTS = new Security(false, List.of(443, 8443), List.of(), false);
    }

    /**
     * {@code gateway}: the forward proxy's timeouts. {@code ioTimeout} bounds every read and write on a
     * request (a proxy that accepts and then hangs holds a GET this long before the retry);
     * {@code idleTimeout} closes an idle client keep-alive connection; {@code tunnelIdleTimeout} closes
     * a CONNECT tunnel with no traffic either way. {@code firstByteTimeout} bounds the wait for the
     * response of an idempotent request that another proxy could still serve: a proxy that stalls is
     * blamed and the request retried after this, not after {@code ioTimeout}.
     *
     * @param ioTimeout         bound on every read and write of a request
     * @param idleTimeout       an idle client keep-alive connection closes after this
     * @param tunnelIdleTimeout a tunnel without traffic either way closes after this
     * @param firstByteTimeout  bound on the wait for a retryable request's response head
     */
    public record Gateway(
            Duration ioTimeout, Duration idleTimeout, Duration tunnelIdleTimeout, Duration firstByteTimeout) {
        /** The default {@link #firstByteTimeout()}: 10 s. */
        public static final Duration DEFAULT_FIRST_BYTE_TIMEOUT = Duration.ofSeconds(10);

        /** 60 s I/O, 60 s idle, 5 min tunnel idle, 10 s to a retryable request's first response byte. */
        public static final Gateway DEFAULTS = new Gateway(
                Duration.ofSeconds(60), Duration.ofSeconds(60), Duration.ofMinutes(5), DEFAULT_FIRST_BYTE_TIMEOUT);

        /** Checks that every timeout is a positive duration; the message names the key. */
        public Gateway {
            positive("gateway.ioTimeout", ioTimeout);
            positive("gateway.idleTimeout", idleTimeout);
            positive("gateway.tunnelIdleTimeout", tunnelIdleTimeout);
            positive("gateway.firstByteTimeout", firstByteTimeout);
        }

        /**
         * The timeouts with the default first-byte timeout.
         *
         * @param ioTimeout         bound on every read and write of a request
         * @param idleTimeout       an idle client keep-alive connection closes after this
         * @param tunnelIdleTimeout a tunnel without traffic either way closes after this
         */
        public Gateway(Duration ioTimeout, Duration idleTimeout, Duration tunnelIdleTimeout) {
            this(ioTimeout, idleTimeout, tunnelIdleTimeout, DEFAULT_FIRST_BYTE_TIMEOUT);
        }
    }

    /**
     * {@code distribution}: exclusive extraction, and the remote acquire/release API's leases
     * ({@code POST /v1/proxy/acquire}).
     *
     * @param gatewayReserve   extraction never takes the pool below this many proxies
     * @param idempotencyTtl   how long {@code Idempotency-Key} results are kept
     * @param maxCount         largest {@code count} of one extraction
     * @param leaseHold        how long an acquired lease holds its proxy when the call names no hold time
     * @param leaseMaxHold     the longest hold time a call may ask for
     * @param leaseSessionIdle a session of the acquire API is dropped after this long unused
     */
    public record Distribution(
            int gatewayReserve,
            Duration idempotencyTtl,
            int maxCount,
            Duration leaseHold,
            Duration leaseMaxHold,
            Duration leaseSessionIdle) {
        /** Default {@link #leaseHold()}: 60 s. */
        public static final Duration DEFAULT_LEASE_HOLD = Duration.ofSeconds(60);
        /** Default {@link #leaseMaxHold()}: 30 min. */
        public static final Duration DEFAULT_LEASE_MAX_HOLD = Duration.ofMinutes(30);
        /** Default {@link #leaseSessionIdle()}: 180 s, the ProxyNode design's reuse window. */
        public static final Duration DEFAULT_LEASE_SESSION_IDLE = Duration.ofSeconds(180);

        /** No reserve, 24 h, 1000; leases 60 s, at most 30 min, sessions idle 180 s. */
        public static final Distribution DEFAULTS =
                new Distribution(0, StoreSettings.DEFAULT_IDEMPOTENCY_RETENTION, 1000);

        /**
         * Extraction settings with the lease defaults.
         *
         * @param gatewayReserve extraction never takes the pool below this many proxies
         * @param idempotencyTtl how long {@code Idempotency-Key} results are kept
         * @param maxCount       largest {@code count} of one extraction
         */
        public Distribution(int gatewayReserve, Duration idempotencyTtl, int maxCount) {
            this(
                    gatewayReserve,
                    idempotencyTtl,
                    maxCount,
                    DEFAULT_LEASE_HOLD,
                    DEFAULT_LEASE_MAX_HOLD,
                    DEFAULT_LEASE_SESSION_IDLE);
        }
    }

    /**
     * The embedded defaults: in-memory store, no database, no providers.
     *
     * @return the default configuration
     */
    public static ProxyPoolConfig defaults() {
        return new ProxyPoolConfig(
                Server.DEFAULTS,
                Store.DEFAULTS,
                Database.DEFAULTS,
                Credentials.DEFAULTS,
                Admin.DEFAULTS,
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                Health.DEFAULTS,
                Pipeline.DEFAULTS,
                Security.DEFAULTS,
                Distribution.DEFAULTS,
                Gateway.DEFAULTS,
                ClusterSettings.DEFAULTS);
    }

    /** The records' check of a duration key: present and positive, the message naming the key. */
    private static void positive(String key, Duration d) {
        if (d == null) {
            throw new NullPointerException(key);
        }
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(key + " must be a positive duration, got " + d);
        }
    }
}
