package dev.proxypool.sdk;

import dev.proxypool.core.extract.PoolStore;
import dev.proxypool.core.extract.PublishResult;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.credentials.CredentialStore;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolOptions;
import dev.proxypool.sdk.http.LeaseHttp;
import dev.proxypool.sdk.pipeline.ValidationStage;
import dev.proxypool.sdk.provider.ProviderRegistry;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

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
 * Thread-safe: acquire and extract from any number of threads. {@link #builder()} builds one.
 */
public interface ProxyPool extends AutoCloseable {

    /**
     * Loads {@code proxypool.yaml} (environment variables override) and starts on it.
     *
     * @param file the configuration file
     * @return the started pool
     */
    static ProxyPool fromConfig(Path file) {
        return builder().config(file).build();
    }

    /**
     * A builder for a pool over an explicit configuration, store, clocks or proxies.
     *
     * @return a new builder
     */
    static Builder builder() {
        return new Builder();
    }

    /**
     * Starts collecting: the pipeline's first round now (so the pool is loaded when this returns),
     * then background rounds, active probing and (in the background) the store's periodic purge of
     * expired proxies, ended tombstones and idempotency records, without which a long-running pool
     * keeps a tombstone for every proxy it ever handed out. Called by {@link Builder#build()} unless
     * {@link Builder#deferStart(boolean)}; a server defers it until its echo endpoint is up.
     * Idempotent.
     */
    void start();

    /**
     * Leases a proxy for one request to {@code selection}'s destination. Close the lease
     * (try-with-resources) to release its capacity; report {@code succeeded}/{@code failed} to feed health.
     *
     * @param selection the destination, session and routing facts
     * @return the lease, to be closed
     * @throws NoProxyAvailableException when nothing qualifies (reason {@code no_route},
     *                                   {@code no_candidate} or {@code session_lost})
     */
    Lease acquire(Selection selection);

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
    ExtractionResponse extract(Extraction extraction);

    /**
     * A JDK {@link HttpClient} builder that sends every request through the leased proxy and answers
     * its proxy-authentication challenges from the pool's credentials (docs/architecture.md#public-sdk-surface).
     * The JDK client speaks HTTP proxies only: lease with {@code Selection...protocol(HTTP)} or a pool
     * of HTTP proxies.
     *
     * <p>HTTPS through a proxy that needs Basic auth (a ProxyPool gateway with clients, most
     * vendors): the JDK refuses Basic on {@code CONNECT} while {@code
     * jdk.http.auth.tunneling.disabledSchemes} names it (its default), and such requests end in
     * {@code 407}. The SDK clears that property when the application has not set it, when the first
     * pool is built; the JDK reads it once, when its HTTP client first initialises, so an application that
     * uses {@code HttpClient} before loading the SDK (or sets the property to {@code Basic}) must start
     * the JVM with {@code -Djdk.http.auth.tunneling.disabledSchemes=} (empty). See {@link LeaseHttp}.
     *
     * @param lease a lease of this pool
     * @return the client builder, ready for timeouts and the like
     * @throws ProxyPoolException       when the proxy names credentials the pool cannot resolve
     *                                  (fail closed; report it with {@link Lease#failed(Throwable)})
     * @throws IllegalArgumentException when the leased proxy is not an HTTP proxy
     */
    HttpClient.Builder httpClientBuilder(Lease lease);

    /**
     * Adds or refreshes proxies (e.g. from the application's own inventory) and rebuilds the snapshot.
     *
     * @param proxies the proxies to add or refresh
     * @return what the store did
     */
    PublishResult addProxies(Collection<Proxy> proxies);

    /**
     * Called with every new snapshot (version, size, proxies) once it serves.
     *
     * @param listener called on the thread that published the snapshot
     */
    void addSnapshotListener(Consumer<PoolSnapshot> listener);

    /**
     * Reports that {@code domain} banned the proxy {@code proxyId} (from {@code X-ProxyPool-Proxy}).
     *
     * @param proxyId the proxy's opaque id
     * @param domain  the destination domain that refused it
     * @return whether the proxy is known
     */
    boolean reportBan(String proxyId, String domain);

    /**
     * The proxy credential store: inline credentials from provider lists, then {@code credentials.file} (re-read on change).
     *
     * @return the credential store
     */
    CredentialStore credentials();

    /**
     * How many proxies the pool serves from now (its current snapshot's size).
     *
     * @return the number of proxies in the current snapshot
     */
    int size();

    /**
     * How many leases are open now (acquired and not yet closed), over all proxies.
     *
     * @return the number of open leases
     */
    int inFlight();

    /**
     * The configuration the pool runs on.
     *
     * @return the configuration
     */
    ProxyPoolConfig config();

    /**
     * Follows a change of {@code next}'s providers and upstreams (the admin API): upstreams added
     * are due at once, upstreams whose own or whose provider's settings changed get a new source and
     * are due at once, unchanged ones keep their schedule, and removed ones stop being fetched (their
     * proxies leave the pool). All or nothing: when a source cannot be built nothing changes. The
     * provider types {@code next} names are the ones enabled. The pipeline exists even when no upstream was configured at start, so upstreams
     * added later are collected within the pipeline's tick (once {@link #start()} ran).
     *
     * @param next the new configuration
     * @return true (the change is followed)
     * @throws IllegalArgumentException naming the upstream whose source cannot be built (nothing changed)
     */
    boolean reconfigureCollection(ProxyPoolConfig next);

    /** Stops collecting and probing, and closes the store the pool opened itself. */
    @Override
    void close();

    /** Builds a pool; defaults: embedded config defaults, in-memory store, system clocks. */
    final class Builder {
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
            return new EmbeddedProxyPool(new PoolOptions(
                    config,
                    store,
                    ticker,
                    wall,
                    List.copyOf(proxies),
                    validation,
                    background,
                    activeProbing,
                    deferStart,
                    credentials,
                    inCode,
                    registry,
                    environment));
        }
    }
}
