package dev.proxypool.sdk.engine;

import dev.proxypool.core.extract.ExtractedProxy;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.PublishResult;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.task.BackgroundTasks;
import dev.proxypool.sdk.ExtractedProxyView;
import dev.proxypool.sdk.Extraction;
import dev.proxypool.sdk.ExtractionResponse;
import dev.proxypool.sdk.InsufficientProxiesException;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.NoProxyAvailableException;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.ProxyPoolException;
import dev.proxypool.sdk.Selection;
import dev.proxypool.sdk.asn.AsnDatabaseHolder;
import dev.proxypool.sdk.asn.AsnDatabaseLoader;
import dev.proxypool.sdk.config.ConfigException;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.credentials.CredentialStore;
import dev.proxypool.sdk.credentials.CredentialsUnavailableException;
import dev.proxypool.sdk.credentials.FileCredentialStore;
import dev.proxypool.sdk.credentials.InlineCredentials;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import dev.proxypool.sdk.dial.UpstreamDialer;
import dev.proxypool.sdk.http.LeaseHttp;
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
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * The {@link ProxyPool} of {@link ProxyPool#builder()}: the core engine, its store, dialer,
 * collection pipeline and prober in one process. The server and the CLI reach its engine, dialer
 * and pipeline through {@link #engineOf}, {@link #dialerOf} and {@link #pipelineOf}; this package is
 * exported to them only, so an application sees the {@link ProxyPool} interface alone.
 */
public final class EmbeddedProxyPool implements ProxyPool {

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
    public static final Duration PURGE_INTERVAL = Duration.ofSeconds(5);

    private static final Logger LOG = System.getLogger(ProxyPool.class.getName());

    static {
        // before the application's first HTTP request, in the usual order: the JDK reads it once
        LeaseHttp.allowBasicOnTunnels();
    }

    /**
     * A pool of {@code b}'s options; see {@link ProxyPool.Builder#build()}.
     *
     * @param b what the builder was given
     */
    public EmbeddedProxyPool(PoolOptions b) {
        this.config = b.config();
        this.wall = b.wall();
        this.ownsStore = b.store() == null;
        this.store = b.store() != null ? b.store() : Stores.open(config);
        this.engine = new PoolEngine(config.routings(), config.health().policy(), store, b.ticker(), b.wall(), 1);
        if (!b.proxies().isEmpty()) {
            store.upsert(b.proxies(), wall.instant());
        }
        engine.refresh();
        // user:pass@ listed by a provider is held here under derived refs, in front of the configured store
        InlineCredentials inline = new InlineCredentials();
        CredentialStore configured = b.credentials() != null
                ? b.credentials()
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
                b.inCode().refs().isEmpty()
                        ? configured
                        : ref -> b.inCode().refs().contains(ref.name())
                                ? b.inCode().resolve(ref)
                                : configured.resolve(ref));
        this.dialer = UpstreamDialer.create(credentials);
        ProviderRegistry custom = b.registry();
        this.registries = custom != null ? types -> custom : ProviderRegistry::standard;
        // Always built, even without upstreams: upstreams added later (admin API, shared configuration)
        // are collected live, without a restart. With none configured a round fetches nothing.
        // Each configured provider's type is enabled by naming it; nothing else is loadable.
        // (no upstream yet: nothing to enable, so a provider type unknown here is reported when an upstream uses it)
        ProviderRegistry registry =
                config.upstreams().isEmpty() ? registries.apply(Set.of()) : registryFor(config.providers());
        ProviderEnvironment env = new ProviderEnvironment(
                b.environment() != null ? b.environment() : System.getenv(),
                Path.of("").toAbsolutePath(),
                b.wall(),
                b.ticker(),
                inline,
                // an extracted or failing session gateway proxy is replaced by a fresh session, not listed again
                key -> store.isTombstoned(key, b.wall().instant()) || engine.failing(key));
        ValidationStage validation = b.validation() != null ? b.validation() : defaultValidation();
        try {
            pipeline = new CollectionPipeline(config, registry, env, engine, validation);
        } catch (IllegalArgumentException e) {
            throw asConfigError(e);
        }
        if (b.activeProbing() && config.health().activeEnabled()) {
            prober = ActiveProber.builder(dialer, () -> engine.snapshot().proxies(), engine.registry())
                    .settings(ProberSettings.from(config.health()))
                    .build();
        } else {
            prober = null;
        }
        this.background = b.background();
        if (!b.deferStart()) {
            start();
        }
    }

    @Override
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

    @Override
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

    @Override
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

    @Override
    public HttpClient.Builder httpClientBuilder(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        try {
            return LeaseHttp.clientBuilder(lease, credentials);
        } catch (CredentialsUnavailableException e) {
            throw new ProxyPoolException(e.getMessage(), e);
        }
    }

    @Override
    public PublishResult addProxies(Collection<Proxy> proxies) {
        PublishResult r = store.upsert(proxies, wall.instant());
        engine.refresh();
        return r;
    }

    @Override
    public boolean reportBan(String proxyId, String domain) {
        return engine.reportBan(proxyId, domain);
    }

    @Override
    public CredentialStore credentials() {
        return credentials;
    }

    @Override
    public int size() {
        return engine.snapshot().size();
    }

    @Override
    public int inFlight() {
        return engine.inFlight();
    }

    @Override
    public ProxyPoolConfig config() {
        return config;
    }

    /**
     * Follows a change of {@code next}'s providers and upstreams (the admin API, a shared
     * configuration): see {@link CollectionPipeline#reconfigure}; the provider types {@code next}
     * names are the ones enabled.
     *
     * @param pool a pool built by {@link ProxyPool#builder()}
     * @param next the new configuration
     * @throws IllegalArgumentException naming the upstream whose source cannot be built (nothing changed)
     */
    public static void reconfigureCollection(ProxyPool pool, ProxyPoolConfig next) {
        EmbeddedProxyPool p = of(pool);
        p.pipeline.reconfigure(next.providers(), next.upstreams(), p.registries.apply(providerTypes(next.providers())));
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

    /**
     * The engine behind {@code pool}, for adapters (gateway, admin API, metrics).
     *
     * @param pool a pool built by {@link ProxyPool#builder()}
     * @return its engine
     */
    public static PoolEngine engineOf(ProxyPool pool) {
        return of(pool).engine;
    }

    /**
     * The dialer behind {@code pool}, with its credential store.
     *
     * @param pool a pool built by {@link ProxyPool#builder()}
     * @return its dialer
     */
    public static UpstreamDialer dialerOf(ProxyPool pool) {
        return of(pool).dialer;
    }

    /**
     * The collection pipeline behind {@code pool} (present even while no upstream is configured).
     *
     * @param pool a pool built by {@link ProxyPool#builder()}
     * @return its pipeline
     */
    public static Optional<CollectionPipeline> pipelineOf(ProxyPool pool) {
        return Optional.ofNullable(of(pool).pipeline);
    }

    private static EmbeddedProxyPool of(ProxyPool pool) {
        if (pool instanceof EmbeddedProxyPool embedded) {
            return embedded;
        }
        throw new IllegalArgumentException(
                "not a pool of ProxyPool.builder(): " + pool.getClass().getName());
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
                    config.store().indexDimensions(),
                    config.store().indexProtocol(),
                    config.store().indexUpstream());
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
