package dev.proxypool.sdk;

import dev.proxypool.core.extract.ExtractedProxy;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.PublishResult;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.task.BackgroundTasks;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.asn.AsnDatabaseHolder;
import dev.proxypool.sdk.asn.AsnDatabaseLoader;
import dev.proxypool.sdk.config.ConfigException;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.credentials.CredentialStore;
import dev.proxypool.sdk.credentials.CredentialsUnavailableException;
import dev.proxypool.sdk.credentials.FileCredentialStore;
import dev.proxypool.sdk.credentials.InlineCredentials;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import dev.proxypool.sdk.dial.UpstreamDialer;
import dev.proxypool.sdk.engine.AcquireRequest;
import dev.proxypool.sdk.engine.AcquireResult;
import dev.proxypool.sdk.engine.PoolEngine;
import dev.proxypool.sdk.http.LeaseHttp;
import dev.proxypool.sdk.internal.ProxyPoolInternals;
import dev.proxypool.sdk.pipeline.CollectionPipeline;
import dev.proxypool.sdk.pipeline.ValidationStage;
import dev.proxypool.sdk.pipeline.ValidatorStage;
import dev.proxypool.sdk.probe.ActiveProber;
import dev.proxypool.sdk.probe.ProberSettings;
import dev.proxypool.sdk.provider.ProviderEnvironment;
import dev.proxypool.sdk.provider.ProviderRegistry;
import dev.proxypool.sdk.redis.RedisClusterConfig;
import dev.proxypool.sdk.redis.RedisClusterPoolStore;
import dev.proxypool.sdk.redis.RedisPoolStore;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.sdk.validate.Validator;
import dev.proxypool.sdk.validate.ValidatorSettings;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The pool embedded in a Java application (docs/architecture.md#modules): the same core engine as the gateway,
 * in-process.
 *
 * <pre>{@code
 * try (ProxyPool pool = ProxyPool.fromConfig(Path.of("proxypool.yaml"))) {
 *     try (Lease lease = pool.acquire(Selection.forHost("shop.example").session("s1"))) {
 *         try {
 *             HttpClient client = pool.httpClientBuilder(lease).build();  // or connect to lease.proxy()
 *             // ... send the request ...
 *             lease.succeeded(Duration.ofMillis(120));
 *         } catch (IOException e) {
 *             lease.failed(e);                                            // classified for health
 *         }
 *     }
 *     ExtractionResponse mine = pool.extract(Extraction.of(5).protocol(HTTP).country("US").allOrNothing());
 * }
 * }</pre>
 *
 * Thread-safe: acquire and extract from any number of threads.
 */
public final class ProxyPool implements AutoCloseable {

    private final ProxyPoolConfig config;
    private final PoolStore store;
    private final PoolEngine engine;
    private final InstantSource wall;
    private final boolean ownsStore;
    private final CollectionPipeline pipeline;
    /** The provider adapters a set of provider types may use (the builder's registry, or the standard ones enabled by name). */
    private final Function<Set<String>, ProviderRegistry> registries;

    private final CredentialStore credentials;
    private final UpstreamDialer dialer;
    private final ActiveProber prober;
    private final boolean background;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final BackgroundTasks tasks = BackgroundTasks.of("proxy pool");
    private final FileCredentialStore credentialsFile; // null without credentials.file

    /** How often the store drops expired proxies, ended tombstones and idempotency records. */
    static final Duration PURGE_INTERVAL = Duration.ofSeconds(5);

    private static final Logger LOG = System.getLogger(ProxyPool.class.getName());

    static {
        // before the application's first HTTP request, in the usual order: the JDK reads it once
        LeaseHttp.allowBasicOnTunnels();
        ProxyPoolInternals.register(new ProxyPoolInternals.PoolAccess() {
            @Override
            public PoolEngine engine(ProxyPool pool) {
                return pool.engine;
            }

            @Override
            public UpstreamDialer dialer(ProxyPool pool) {
                return pool.dialer;
            }

            @Override
            public Optional<CollectionPipeline> pipeline(ProxyPool pool) {
                return Optional.ofNullable(pool.pipeline);
            }
        });
    }

    private ProxyPool(Builder b) {
        this.config = b.config;
        this.wall = b.wall;
        this.ownsStore = b.store == null;
        this.store = b.store != null ? b.store : Stores.open(config);
        this.engine = new PoolEngine(config.routings(), config.health().policy(), store, b.ticker, b.wall, 1);
        if (!b.proxies.isEmpty()) {
            store.upsert(b.proxies, wall.instant());
        }
        engine.refresh();
        // user:pass@ listed by a provider is held here under derived refs, in front of the configured store
        InlineCredentials inline = new InlineCredentials();
        CredentialStore configured = b.credentials != null
                ? b.credentials
                : config.credentials()
                        .file()
                        .<CredentialStore>map(FileCredentialStore::open)
                        .orElseGet(StaticCredentialStore::empty);
        if (configured instanceof FileCredentialStore file) {
            // a proxy disabled for rejected credentials gets one recovery check when they are fixed
            file.onChange(refs -> engine.credentialsReloaded(refs));
            this.credentialsFile = file;
        } else {
            this.credentialsFile = null;
        }
        this.credentials = inline.over(
                b.inCode.refs().isEmpty()
                        ? configured
                        : ref ->
                                b.inCode.refs().contains(ref.name()) ? b.inCode.resolve(ref) : configured.resolve(ref));
        this.dialer = UpstreamDialer.create(credentials);
        ProviderRegistry custom = b.registry;
        this.registries = custom != null ? types -> custom : ProviderRegistry::standard;
        // Always built, even without upstreams: upstreams added later (admin API, shared configuration)
        // are collected live, without a restart. With none configured a round fetches nothing.
        // Each configured provider's type is enabled by naming it; nothing else is loadable.
        // (no upstream yet: nothing to enable, so a provider type unknown here is reported when an upstream uses it)
        ProviderRegistry registry =
                config.upstreams().isEmpty() ? registries.apply(Set.of()) : registryFor(config.providers());
        ProviderEnvironment env = new ProviderEnvironment(
                b.environment != null ? b.environment : System.getenv(),
                Path.of("").toAbsolutePath(),
                b.wall,
                b.ticker,
                inline,
                // an extracted or failing session gateway proxy is replaced by a fresh session, not listed again
                key -> store.isTombstoned(key, b.wall.instant()) || engine.failing(key));
        ValidationStage validation = b.validation != null ? b.validation : defaultValidation();
        try {
            pipeline = new CollectionPipeline(config, registry, env, engine, validation);
        } catch (IllegalArgumentException e) {
            throw asConfigError(e);
        }
        if (b.activeProbing && config.health().activeEnabled()) {
            prober = ActiveProber.builder(dialer, () -> engine.snapshot().proxies(), engine.registry())
                    .settings(ProberSettings.from(config.health()))
                    .build();
        } else {
            prober = null;
        }
        this.background = b.background;
        if (!b.deferStart) {
            start();
        }
    }

    /**
     * Starts collecting: the pipeline's first round now (so the pool is loaded when this returns),
     * then background rounds, active probing and (in the background) the store's periodic purge of
     * expired proxies, ended tombstones and idempotency records, without which a long-running pool
     * keeps a tombstone for every proxy it ever handed out. Called by {@link Builder#build()} unless
     * {@link Builder#deferStart(boolean)}; a server defers it until its echo endpoint is up.
     * Idempotent.
     */
    public void start() {
        if (!started.compareAndSet(false, true)) {
            return;
        }
        if (pipeline != null) {
            pipeline.runOnce();
            if (background) {
                pipeline.start(Duration.ofSeconds(1));
            }
        }
        if (prober != null) {
            prober.start();
        }
        if (background) {
            tasks.every("proxypool-purge", PURGE_INTERVAL, this::purgeOnce);
            if (credentialsFile != null) {
                // the file is otherwise looked at only when a proxy dials: a ref whose every proxy is
                // disabled for rejected credentials would never see its fix
                tasks.every("proxypool-credentials", FileCredentialStore.DEFAULT_CHECK_INTERVAL, this::credentialsOnce);
                // and only then: a dial (on a gateway event loop too) never waits on the file system
                credentialsFile.checkOnlyInBackground();
            }
        }
    }

    private void credentialsOnce() {
        try {
            credentialsFile.refresh();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "checking the credentials file failed: " + e);
        }
    }

    private void purgeOnce() {
        engine.syncHealth(); // logs its own failures
        try {
            store.purgeExpired(wall.instant());
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "purging expired proxies and tombstones failed (next try in " + PURGE_INTERVAL.toSeconds() + " s): "
                            + e);
        }
    }

    /** The full-path validator against {@code pipeline.echoUrl}, with the ASN database when configured. */
    private ValidationStage defaultValidation() {
        ValidatorSettings settings = ValidatorSettings.from(config.pipeline());
        Optional<AsnDatabaseHolder> asn = config.pipeline()
                .asnDatabase()
                .map(path -> new AsnDatabaseHolder(
                        path, new AsnDatabaseLoader(config.pipeline().asnMaxAge(), wall)));
        return new ValidatorStage(
                () -> Validator.builder(dialer).settings(settings).start(), asn);
    }

    /**
     * Loads {@code proxypool.yaml} (environment variables override) and starts on it.
     *
     * @param file the configuration file
     * @return the started pool
     */
    public static ProxyPool fromConfig(Path file) {
        return builder().config(file).build();
    }

    /**
     * A builder for a pool over an explicit configuration, store, clocks or proxies.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Leases a proxy for one request to {@code selection}'s destination. Close the lease
     * (try-with-resources) to release its capacity; report {@code succeeded}/{@code failed} to feed health.
     *
     * @param selection the destination, session and routing facts
     * @return the lease, to be closed
     * @throws NoProxyAvailableException when nothing qualifies (reason {@code no_route},
     *                                   {@code no_candidate} or {@code session_lost})
     */
    public Lease acquire(Selection selection) {
        RoutingRule rule = engine.route(selection);
        if (rule == null) {
            throw new NoProxyAvailableException("no_route", "");
        }
        AcquireRequest request = new AcquireRequest(
                selection.client() == null ? "" : selection.client(),
                selection.sessionId(),
                selection.host(),
                selection.hashKeyValue(),
                List.of());
        return switch (engine.acquire(rule, request)) {
            case AcquireResult.Acquired a -> a.lease();
            case AcquireResult.Rejected r -> throw new NoProxyAvailableException(r.reason(), r.detail());
            case AcquireResult.Direct d -> throw new NoProxyAvailableException("no_candidate", d.detail());
        };
    }

    /**
     * Takes proxies out of the pool for good (docs/design.md#extraction, E2). Each proxy comes back
     * with its URL; a proxy that needs credentials carries them from {@link Builder#credential} or
     * the credential store, percent-encoded. A proxy whose credentials cannot be resolved is never
     * handed out without them (docs/design.md#extraction, E10: fail closed): a partial extraction
     * returns the others, an all-or-nothing extraction throws. The extraction's idempotency key is
     * ignored in process (there is no lost response to replay).
     *
     * @param extraction how many, which, partial or all-or-nothing
     * @return the extracted proxies (fewer than asked for a partial extraction that could not be met);
     *         {@link ExtractionResponse#replayed()} is false
     * @throws InsufficientProxiesException for an {@code allOrNothing} extraction that cannot be met
     * @throws ProxyPoolException           for an {@code allOrNothing} extraction of a proxy whose
     *                                      credentials are unavailable (it is gone; none is handed out)
     */
    public ExtractionResponse extract(Extraction extraction) {
        Objects.requireNonNull(extraction, "extraction");
        ExtractionRequest request = extraction.toRequest(config.distribution().gatewayReserve());
        engine.beforeExtraction(request);
        ExtractionResult result = store.extract(request, wall.instant());
        return switch (result) {
            case ExtractionResult.Extracted e -> {
                List<Proxy> gone = new ArrayList<>(e.proxies().size());
                e.proxies().forEach(x -> gone.add(x.proxy()));
                engine.extracted(gone);
                yield handOut(extraction, e.proxies());
            }
            case ExtractionResult.Insufficient i ->
                throw new InsufficientProxiesException(request.count(), i.available());
        };
    }

    /** The views of the extracted proxies whose credentials resolve; the others are withheld. */
    private ExtractionResponse handOut(Extraction extraction, List<ExtractedProxy> extracted) {
        List<ExtractedProxyView> views = new ArrayList<>(extracted.size());
        int withheld = 0;
        for (ExtractedProxy x : extracted) {
            Proxy p = x.proxy();
            String userInfo = "";
            if (p.credentialRef().isPresent()) {
                try {
                    userInfo = credentials.resolve(p.credentialRef()).userInfo() + "@";
                } catch (CredentialsUnavailableException e) {
                    withheld++;
                    continue;
                }
            }
            views.add(ExtractedProxyView.of(
                    p, p.protocol().wireName() + "://" + userInfo + p.key().authority(), x.extractedAt()));
        }
        if (withheld > 0) {
            LOG.log(Level.WARNING, withheld + " extracted proxies were withheld: their credentials are unavailable");
            if (extraction.isAllOrNothing()) {
                throw new ProxyPoolException(withheld + " of the extracted proxies have no resolvable credentials;"
                        + " none was handed out");
            }
        }
        return new ExtractionResponse(extraction.count(), views.size(), views, false);
    }

    /**
     * A JDK {@link HttpClient} builder that sends every request through the leased proxy and answers
     * its proxy-authentication challenges from the pool's credentials (docs/architecture.md#public-sdk-surface).
     * The JDK client speaks HTTP proxies only: lease with {@code Selection...protocol(HTTP)} or a pool
     * of HTTP proxies.
     *
     * <p>HTTPS through a proxy that needs Basic auth (a ProxyPool gateway with clients, most
     * vendors): the JDK refuses Basic on {@code CONNECT} while {@code
     * jdk.http.auth.tunneling.disabledSchemes} names it (its default), and such requests end in
     * {@code 407}. The SDK clears that property when the application has not set it, when this class
     * loads; the JDK reads it once, when its HTTP client first initialises, so an application that
     * uses {@code HttpClient} before loading the SDK (or sets the property to {@code Basic}) must start
     * the JVM with {@code -Djdk.http.auth.tunneling.disabledSchemes=} (empty). See {@link LeaseHttp}.
     *
     * @param lease a lease of this pool
     * @return the client builder, ready for timeouts and the like
     * @throws ProxyPoolException       when the proxy names credentials the pool cannot resolve
     *                                  (fail closed; report it with {@link Lease#failed(Throwable)})
     * @throws IllegalArgumentException when the leased proxy is not an HTTP proxy
     */
    public HttpClient.Builder httpClientBuilder(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        try {
            return LeaseHttp.clientBuilder(lease, credentials);
        } catch (CredentialsUnavailableException e) {
            throw new ProxyPoolException(e.getMessage(), e);
        }
    }

    /**
     * Adds or refreshes proxies (e.g. from the application's own inventory) and rebuilds the snapshot.
     *
     * @param proxies the proxies to add or refresh
     * @return what the store did
     */
    public PublishResult addProxies(Collection<Proxy> proxies) {
        PublishResult r = store.upsert(proxies, wall.instant());
        engine.refresh();
        return r;
    }

    /**
     * Called with every new snapshot (version, size, proxies) once it serves; see {@link PoolEngine#addSnapshotListener}.
     *
     * @param listener called on the thread that published the snapshot
     */
    public void addSnapshotListener(Consumer<PoolSnapshot> listener) {
        engine.addSnapshotListener(listener);
    }

    /**
     * Reports that {@code domain} banned the proxy {@code proxyId} (from {@code X-ProxyPool-Proxy}).
     *
     * @param proxyId the proxy's opaque id
     * @param domain  the destination domain that refused it
     * @return whether the proxy is known
     */
    public boolean reportBan(String proxyId, String domain) {
        return engine.reportBan(proxyId, domain);
    }

    /**
     * The proxy credential store: inline credentials from provider lists, then {@code credentials.file} (re-read on change).
     *
     * @return the credential store
     */
    public CredentialStore credentials() {
        return credentials;
    }

    /**
     * How many proxies the pool serves from now (its current snapshot's size).
     *
     * @return the number of proxies in the current snapshot
     */
    public int size() {
        return engine.snapshot().size();
    }

    /**
     * How many leases are open now (acquired and not yet closed), over all proxies.
     *
     * @return the number of open leases
     */
    public int inFlight() {
        return engine.inFlight();
    }

    /**
     * The configuration the pool runs on.
     *
     * @return the configuration
     */
    public ProxyPoolConfig config() {
        return config;
    }

    /**
     * Follows a change of {@code next}'s providers and upstreams (the admin API): see
     * {@link CollectionPipeline#reconfigure}; the provider types {@code next} names are the ones
     * enabled. The pipeline exists even when no upstream was configured at start, so upstreams
     * added later are collected within the pipeline's tick (once {@link #start()} ran).
     *
     * @param next the new configuration
     * @return true (the change is followed)
     * @throws IllegalArgumentException naming the upstream whose source cannot be built (nothing changed)
     */
    public boolean reconfigureCollection(ProxyPoolConfig next) {
        pipeline.reconfigure(next.providers(), next.upstreams(), registries.apply(providerTypes(next.providers())));
        return true;
    }

    /**
     * The registry enabling exactly the providers' types.
     *
     * @throws dev.proxypool.sdk.config.ConfigException naming {@code providers[<name>].type} for a type no
     *         adapter is registered for (a typo in the config)
     */
    private ProviderRegistry registryFor(List<ProxyPoolConfig.Provider> providers) {
        Set<String> known = registries.apply(Set.of()).knownTypes();
        for (ProxyPoolConfig.Provider p : providers) {
            if (!known.contains(p.type())) {
                throw new ConfigException(
                        "providers[" + p.name() + "].type",
                        "unknown type '" + p.type() + "' (known: " + String.join(", ", new TreeSet<>(known)) + ")");
            }
        }
        return registries.apply(providerTypes(providers));
    }

    /** An adapter's refusal of its settings, which names the key first ({@code providers[x].path: ...}), as a config error. */
    private static RuntimeException asConfigError(IllegalArgumentException e) {
        String m = e.getMessage() == null ? "" : e.getMessage();
        int colon = m.indexOf(": ");
        if (m.startsWith("providers[") && colon > 0) {
            return new ConfigException(m.substring(0, colon), m.substring(colon + 2), e);
        }
        return e;
    }

    private static Set<String> providerTypes(List<ProxyPoolConfig.Provider> providers) {
        Set<String> types = new HashSet<>();
        providers.forEach(p -> types.add(p.type()));
        return types;
    }

    @Override
    public void close() {
        closed.set(true);
        tasks.close(); // a purge in progress ends before the store closes below
        if (prober != null) {
            prober.close();
        }
        if (pipeline != null) {
            pipeline.close();
        }
        if (ownsStore) {
            store.close();
        }
    }

    /** Builds a pool; defaults: embedded config defaults, in-memory store, system clocks. */
    public static final class Builder {
        private ProxyPoolConfig config = ProxyPoolConfig.defaults();
        private PoolStore store;
        private Ticker ticker = Clocks.monotonic();
        private InstantSource wall = Clocks.wall();
        private final List<Proxy> proxies = new ArrayList<>();
        private ValidationStage validation;
        private boolean background = true;
        private boolean activeProbing;
        private boolean deferStart;
        private CredentialStore credentials;
        private StaticCredentialStore inCode = StaticCredentialStore.empty();
        private ProviderRegistry registry;
        private Map<String, String> environment;

        private Builder() {}

        /**
         * The configuration (required).
         *
         * @param c the configuration
         * @return this builder
         */
        public Builder config(ProxyPoolConfig c) {
            config = Objects.requireNonNull(c, "config");
            return this;
        }

        /**
         * Loads the configuration from {@code proxypool.yaml} (environment variables override, as
         * {@code proxypool serve} reads it): providers, upstreams, routings with their strategies and
         * sticky sessions, health, distribution.
         *
         * @param file the configuration file
         * @return this builder
         * @throws dev.proxypool.sdk.config.ConfigException naming the key of a bad value
         */
        public Builder config(Path file) {
            return config(ConfigLoader.load(Objects.requireNonNull(file, "config file")));
        }

        /**
         * A store the caller owns (not closed with the pool); default: the store the configuration names.
         *
         * @param s the store
         * @return this builder
         */
        public Builder store(PoolStore s) {
            store = Objects.requireNonNull(s, "store");
            return this;
        }

        /**
         * The clocks (default: the system's).
         *
         * @param t the monotonic clock
         * @param w the wall clock
         * @return this builder
         */
        public Builder clocks(Ticker t, InstantSource w) {
            ticker = Objects.requireNonNull(t, "ticker");
            wall = Objects.requireNonNull(w, "wall clock");
            return this;
        }

        /**
         * Proxies the pool starts with, besides what its providers collect.
         *
         * @param p the proxies
         * @return this builder
         */
        public Builder proxies(Collection<Proxy> p) {
            proxies.addAll(p);
            return this;
        }

        /**
         * How {@code validate: true} upstreams are validated.
         *
         * @param v the validation stage
         * @return this builder
         */
        Builder validation(ValidationStage v) {
            validation = Objects.requireNonNull(v, "validation");
            return this;
        }

        /**
         * Probe proxies actively ({@code health.active}) against the configured targets. Off by
         * default in an embedding: the default target is the server's own echo endpoint.
         *
         * @param on whether to probe
         * @return this builder
         */
        public Builder activeProbing(boolean on) {
            activeProbing = on;
            return this;
        }

        /**
         * Leave collection (first pipeline round, background rounds, probing) to an explicit {@link ProxyPool#start()}.
         *
         * @param defer whether to defer
         * @return this builder
         */
        public Builder deferStart(boolean defer) {
            deferStart = defer;
            return this;
        }

        /**
         * The proxy credential store (default: {@code credentials.file}, or none).
         *
         * @param c the credential store
         * @return this builder
         */
        public Builder credentials(CredentialStore c) {
            credentials = Objects.requireNonNull(c, "credentials");
            return this;
        }

        /**
         * Credentials for the proxies naming {@code ref} as their {@code credentialRef}, held in
         * memory in front of {@link #credentials(CredentialStore)} (or {@code credentials.file}).
         *
         * @param ref      the credential ref the proxies name
         * @param username the username
         * @param password the password, possibly empty
         * @return this builder
         * @throws IllegalArgumentException for a blank ref or an invalid username
         */
        public Builder credential(String ref, String username, String password) {
            inCode = inCode.with(ref, username, password);
            return this;
        }

        /**
         * Provider adapters, including the application's own types (default: the built-in ones the config names).
         *
         * @param r the provider registry
         * @return this builder
         */
        public Builder providerRegistry(ProviderRegistry r) {
            registry = Objects.requireNonNull(r, "provider registry");
            return this;
        }

        /**
         * Where providers read their secrets ({@code tokenEnv}, {@code passwordEnv}) at fetch time
         * (default: the process environment).
         *
         * @param env the variables
         * @return this builder
         */
        public Builder environment(Map<String, String> env) {
            environment = Map.copyOf(Objects.requireNonNull(env, "environment"));
            return this;
        }

        /**
         * Whether the pipeline keeps fetching in the background after the initial load (default true).
         *
         * @param b whether to fetch in the background
         * @return this builder
         */
        public Builder background(boolean b) {
            background = b;
            return this;
        }

        /**
         * Builds the pool and, unless {@link #deferStart(boolean)}, starts collecting.
         *
         * @return the pool
         * @throws IllegalArgumentException when the configuration is missing or invalid
         */
        public ProxyPool build() {
            return new ProxyPool(this);
        }
    }

    /** Opens the store the config names. */
    static final class Stores {
        private Stores() {}

        static StoreSettings settings(ProxyPoolConfig config) {
            StoreSettings d = StoreSettings.DEFAULTS;
            return new StoreSettings(
                    d.tombstoneRetentionForNoExpiry(),
                    config.distribution().idempotencyTtl(),
                    d.idempotencyInProgressTimeout(),
                    d.idempotencyMaxEntries(),
                    config.store().indexDimensions());
        }

        static PoolStore open(ProxyPoolConfig config) {
            return switch (config.store().type()) {
                case MEMORY -> new MemoryPoolStore(settings(config));
                case REDIS ->
                    RedisPoolStore.connect(
                            RedisStoreConfig.fromUri(config.store().uri())
                                    .withKeyPrefix(config.store().keyPrefix()),
                            settings(config));
                case REDIS_CLUSTER -> RedisClusterPoolStore.connect(clusterConfig(config.store()), settings(config));
            };
        }

        /** The Redis Cluster settings of {@code store.*} (type redis-cluster). */
        static RedisClusterConfig clusterConfig(ProxyPoolConfig.Store store) {
            return RedisClusterConfig.of(store.nodes())
                    .withKeyPrefix(store.keyPrefix())
                    .withShards(store.shards())
                    .withWait(store.waitReplicas(), store.waitTimeout());
        }
    }
}
