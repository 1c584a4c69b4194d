package dev.proxypool.sdk.config;

import dev.proxypool.sdk.cluster.ClusterSettings;
import dev.proxypool.sdk.credentials.Secret;

import dev.proxypool.core.health.HealthPolicy;
import dev.proxypool.core.routing.RoutingRule;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The whole of {@code proxypool.yaml} (docs/configuration.md), immutable and validated. Defaults live in one
 * place each: the {@code DEFAULTS} constants below, documented in {@code docs/configuration.md}.
 * Load it with {@link ConfigLoader}.
 */
public record ProxyPoolConfig(Server server, Store store, Database database, Credentials credentials,
                              Admin admin, List<Client> clients, List<Provider> providers,
                              List<Upstream> upstreams, List<RoutingRule> routings, Health health,
                              Pipeline pipeline, Security security, Distribution distribution, Gateway gateway,
                              ClusterSettings cluster, Nodes nodes) {

    public ProxyPoolConfig {
        clients = List.copyOf(clients);
        providers = List.copyOf(providers);
        upstreams = List.copyOf(upstreams);
        routings = List.copyOf(routings);
        Objects.requireNonNull(gateway, "gateway");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(nodes, "nodes");
    }

    /** Without a {@code nodes} section: {@link Nodes#DEFAULTS}. */
    public ProxyPoolConfig(Server server, Store store, Database database, Credentials credentials, Admin admin,
                           List<Client> clients, List<Provider> providers, List<Upstream> upstreams,
                           List<RoutingRule> routings, Health health, Pipeline pipeline, Security security,
                           Distribution distribution, Gateway gateway, ClusterSettings cluster) {
        this(server, store, database, credentials, admin, clients, providers, upstreams, routings, health, pipeline,
                security, distribution, gateway, cluster, Nodes.DEFAULTS);
    }

    /** Without a {@code cluster} section: {@link ClusterSettings#DEFAULTS}. */
    public ProxyPoolConfig(Server server, Store store, Database database, Credentials credentials, Admin admin,
                           List<Client> clients, List<Provider> providers, List<Upstream> upstreams,
                           List<RoutingRule> routings, Health health, Pipeline pipeline, Security security,
                           Distribution distribution, Gateway gateway) {
        this(server, store, database, credentials, admin, clients, providers, upstreams, routings, health, pipeline,
                security, distribution, gateway, ClusterSettings.DEFAULTS);
    }


    /**
     * {@code server}: listeners. {@code accessLog} turns on the gateway's access log (one line per
     * request and tunnel on the logger {@code dev.proxypool.access}); off by default.
     * {@code maxConnections} caps open gateway client connections (0: sized from the process's
     * descriptor limit at start); {@code requestHeadTimeout} bounds the time from a request's first
     * byte to the end of its head on both listeners (408 after it); {@code apiIdleTimeout} closes an
     * idle keep-alive connection on the REST listener.
     */
    public record Server(String host, int gatewayPort, int apiPort, boolean accessLog, int maxConnections,
                         Duration requestHeadTimeout, Duration apiIdleTimeout) {
        public static final Server DEFAULTS = new Server("127.0.0.1", 8080, 9090, false, 0, Duration.ofSeconds(10),
                Duration.ofSeconds(60));

        /** Listeners with every other setting at its default. */
        public Server(String host, int gatewayPort, int apiPort) {
            this(host, gatewayPort, apiPort, false, DEFAULTS.maxConnections(), DEFAULTS.requestHeadTimeout(),
                    DEFAULTS.apiIdleTimeout());
        }
    }

    /** {@code store}: where the pool state lives. */
    public record Store(StoreType type, String uri, String keyPrefix) {
        public static final Store DEFAULTS = new Store(StoreType.MEMORY, "redis://127.0.0.1:6379", "pp:");
    }

    public enum StoreType { MEMORY, REDIS }

    /** {@code database}: admin persistence. */
    public record Database(DatabaseType type, String url, String user, Optional<Secret> password) {
        public static final Database DEFAULTS = new Database(DatabaseType.NONE, "", "", Optional.empty());
    }

    public enum DatabaseType { NONE, POSTGRES }

    /** {@code credentials}: the proxy credential store file (properties: {@code <ref>.username}, {@code <ref>.password}). */
    public record Credentials(Optional<Path> file) {
        public static final Credentials DEFAULTS = new Credentials(Optional.empty());
    }

    /** {@code admin}: the admin API token, separate from clients' credentials. Absent = admin API disabled. */
    public record Admin(Optional<Secret> token) {
        public static final Admin DEFAULTS = new Admin(Optional.empty());
    }

    /**
     * {@code clients[]}: gateway and API callers.
     *
     * @param secretHash         {@code pbkdf2-sha256$...} from {@code proxypool hash-secret}; or empty
     * @param plainSecret        dev only ({@code secret:}); the server warns at start
     * @param token              bearer token for the Distribution API; or empty
     * @param extractionsPerHour quota, 0 = unlimited
     * @param rps                gateway rate limit (token bucket), 0 = unlimited
     */
    public record Client(String name, Optional<String> secretHash, Optional<Secret> plainSecret,
                         Optional<Secret> token, int extractionsPerHour, double rps) {
    }

    /** {@code providers[]}: a source of candidates, of an explicitly registered adapter type. */
    public record Provider(String name, String type, Map<String, String> settings, Map<String, String> fields) {
    }

    /** {@code upstreams[]}: one configured use of a provider. */
    public record Upstream(String name, String provider, Map<String, String> params, Duration fetchInterval,
                           int lowWaterMark, boolean validate) {
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
     */
    public record Nodes(Duration heartbeatInterval, Duration livenessTimeout, Duration credentialTtl,
                        Duration sweepInterval) {
        public static final Nodes DEFAULTS = new Nodes(Duration.ofSeconds(10), Duration.ofSeconds(30),
                Duration.ofMinutes(10), Duration.ofSeconds(2));
    }

    /**
     * {@code health}: the core policy plus active probing. The default {@code activeTargets} is the
     * server's own echo only ({@code proxypool serve} points it at its REST listener): a fresh server
     * sends nothing to third parties unasked. Probes rotate over the configured list, so listing two
     * or more destinations makes them measure more than one (docs/design.md H9).
     */
    public record Health(HealthPolicy policy, boolean activeEnabled, Duration activeInterval,
                         int activeFailuresToCool, List<String> activeTargets) {
        public static final Health DEFAULTS = new Health(HealthPolicy.DEFAULTS, true, Duration.ofSeconds(30), 2,
                List.of("http://127.0.0.1:9090/v1/echo"));
    }

    /** {@code pipeline}: validation and ranking. */
    public record Pipeline(String echoUrl, int validationConcurrency, Duration validationTimeout, double minScore,
                           int poolSize, int reserveSize, Optional<Path> asnDatabase, Duration asnMaxAge) {
        public static final Pipeline DEFAULTS = new Pipeline("http://127.0.0.1:9090/v1/echo", 100,
                Duration.ofSeconds(8), 18, 150, 700, Optional.empty(), Duration.ofDays(30));
    }

    /** {@code security}: destination checks of the gateway. */
    public record Security(boolean allowPrivateDestinations, List<Integer> connectPorts, List<String> allowDestinations,
                           boolean allowAnonymous) {
        public static final Security DEFAULTS = new Security(false, List.of(443, 8443), List.of(), false);
    }

    /** {@code distribution}: exclusive extraction. */
    /**
     * {@code gateway}: the forward proxy's timeouts. {@code ioTimeout} bounds every read and write on a
     * request (a proxy that accepts and then hangs holds a GET this long before the retry);
     * {@code idleTimeout} closes an idle client keep-alive connection; {@code tunnelIdleTimeout} closes
     * a CONNECT tunnel with no traffic either way.
     */
    public record Gateway(Duration ioTimeout, Duration idleTimeout, Duration tunnelIdleTimeout) {
        public static final Gateway DEFAULTS = new Gateway(Duration.ofSeconds(60), Duration.ofSeconds(60),
                Duration.ofMinutes(5));
    }

    public record Distribution(int gatewayReserve, Duration idempotencyTtl, int maxCount) {
        public static final Distribution DEFAULTS = new Distribution(0, Duration.ofHours(24), 1000);
    }

    /** The embedded defaults: in-memory store, no database, no providers. */
    public static ProxyPoolConfig defaults() {
        return new ProxyPoolConfig(Server.DEFAULTS, Store.DEFAULTS, Database.DEFAULTS, Credentials.DEFAULTS,
                Admin.DEFAULTS, List.of(), List.of(), List.of(), List.of(), Health.DEFAULTS, Pipeline.DEFAULTS,
                Security.DEFAULTS, Distribution.DEFAULTS, Gateway.DEFAULTS, ClusterSettings.DEFAULTS);
    }
}
