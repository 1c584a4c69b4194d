package dev.proxypool.server.admin;

import dev.proxypool.core.extract.StoreUnavailableException;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.coordination.WorkerRegistry;
import dev.proxypool.sdk.credentials.Secret;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.api.BearerToken;
import dev.proxypool.server.persistence.ConfigChange;
import dev.proxypool.server.persistence.ConfigStore;
import dev.proxypool.server.persistence.DatabaseUnavailableException;
import dev.proxypool.server.persistence.EntityType;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The admin REST API (docs/api.md), registered at {@value #PATH}:
 *
 * <pre>
 * /v1/admin/{providers|upstreams|routings|clients}[/{name}]   CRUD             ({@link EntityResource})
 * GET  /v1/admin/proxies?...                                   inspection       ({@link ProxyResource})
 * GET  /v1/admin/proxies/{id}?transitions=20                   one proxy with its health record and history
 * POST /v1/admin/proxies/{id}/disable | /enable | /reveal      operator actions
 * POST /v1/admin/proxies/bulk                                  enable/disable/recheck a selection or a filter ({@link ProxyBulk})
 * POST /v1/admin/upstreams/{name}/fetch                        fetch now (202)  ({@link FetchResource})
 * POST /v1/admin/providers/{name}/test                         dry run          ({@link ProviderTestResource})
 * GET|POST /v1/admin/routings/{name}/sequential                sequential state ({@link SequentialResource})
 * GET  /v1/admin/snapshot, GET /v1/admin/audit                                  ({@link StatusResource})
 * GET  /v1/admin/pipeline                                      fetch status     ({@link PipelineResource})
 * GET  /v1/admin/series                                        live series      ({@link LiveSeries})
 * GET  /v1/admin/errors?window=15m, /v1/admin/requests?...     gateway errors, request log ({@link GatewayActivity})
 * GET  /v1/admin/traffic                                       bytes per upstream and client ({@link GatewayTraffic})
 * GET  /v1/admin/flags                                         red flags with their evidence ({@link RedFlags})
 * GET  /v1/admin/whoami, /v1/admin/operators[/{name}]          named operators  ({@link OperatorResource})
 * POST /v1/admin/operators, DELETE /v1/admin/operators/{name}
 * </pre>
 *
 * <h2>Access</h2>
 * {@code Authorization: Bearer <token>}: {@code admin.token} (the bootstrap identity, named
 * {@value #ACTOR}, role admin) or a named operator's token ({@link AdminAuth}), separate from
 * every client credential. An operator of role {@code viewer} may only read: any other method
 * answers {@code 403 forbidden}. Without {@code admin.token} and without any operator every path
 * answers {@code 404 {"error": "admin_disabled"}}; a missing or wrong token {@code 401 unauthorized}.
 * Until the named operators are first read (a few ms after start; longer while PostgreSQL is down) a
 * token other than {@code admin.token} answers {@code 503 database_unavailable} with
 * {@code Retry-After} instead of a 401 that would sign a console out.
 *
 * <h2>Errors</h2>
 * {@code {"error": code, "message": text}}: {@code 400 invalid_request} (the message names the field,
 * e.g. {@code routings[shop].upstreams[0]: names upstream 'x', which is not defined under upstreams}),
 * {@code 404 not_found}, {@code 409 conflict} (duplicate name, entity still referenced),
 * {@code 503 database_unavailable} (a write or a configuration read while PostgreSQL is down; live
 * pool reads keep working), {@code 503 store_unavailable} (the pool store is down).
 *
 * <h2>Changes</h2>
 * Every configuration write is stored with its audit row in one transaction by the
 * {@link ConfigStore}, then handed to the {@code onConfigChange} hook, which rebuilds whatever runs
 * on the configuration (routing table, pipeline); a failing hook is logged, the write stands.
 * Operator actions on the live pool (disable, enable, sequential reset/advance, fetch) are audited
 * too. The actor of every row is the caller's name ({@link AdminIdentity}).
 *
 * <p>Thread-safe; handlers block on the store on Helidon's virtual threads.
 */
public final class AdminService implements HttpService {

    /** Where the composition registers the service. */
    public static final String PATH = "/v1/admin";
    /** The bootstrap identity's name ({@code admin.token}): the audit actor of its changes. */
    public static final String ACTOR = "admin";

    private static final System.Logger LOG = System.getLogger(AdminService.class.getName());
    /** {@code Retry-After} of a 503 for an unreachable database or pool store. */
    private static final String RETRY_AFTER_SECONDS = "5";

    private final AdminAuth auth;
    private final ConfigStore store;
    private final Consumer<ConfigChange> onConfigChange;
    private final ConfigEdits edits;
    private final ProxyResource proxies;
    private final SequentialResource sequential;
    private final StatusResource status;
    private final FetchResource fetch;
    private final ProviderTestResource providerTest;
    private final PipelineResource pipeline;
    private final Optional<LiveSeries> series;
    private final Optional<GatewayActivity> activity;
    private final Optional<GatewayTraffic> traffic;
    private final OperatorResource operators;
    private final RedFlags flags;
    private final ProxyBulk bulk;
    private final Map<String, Handler> reads;

    private AdminService(Builder b) {
        this.auth = new AdminAuth(b.token, b.store);
        this.store = b.store;
        this.onConfigChange = b.onConfigChange;
        this.edits = new ConfigEdits(b.baseDir);
        this.proxies = new ProxyResource(EmbeddedProxyPool.engineOf(b.pool), store);
        this.sequential = new SequentialResource(EmbeddedProxyPool.engineOf(b.pool), store);
        this.status = new StatusResource(EmbeddedProxyPool.engineOf(b.pool), store, b.workers, b.workerStaleAfter);
        this.fetch = new FetchResource(b.pool, store);
        this.providerTest = new ProviderTestResource(b.pool, store, b.baseDir);
        this.pipeline = new PipelineResource(b.pool, sequential);
        this.series = b.series;
        this.activity = b.activity;
        this.traffic = b.traffic;
        this.operators = new OperatorResource(
                store, auth, EmbeddedProxyPool.engineOf(b.pool).wallClock());
        this.bulk = new ProxyBulk(EmbeddedProxyPool.engineOf(b.pool), store);
        this.flags = new RedFlags(EmbeddedProxyPool.engineOf(b.pool), b.activity, b.flags);
        this.reads = Map.copyOf(b.reads);
    }

    /**
     * An admin API over the running {@code pool} (live state) and {@code store} (configuration,
     * audit). Set the token with {@link Builder#token}; without one the API is disabled.
     */
    public static Builder builder(ProxyPool pool, ConfigStore store) {
        return new Builder(pool, store);
    }

    /** Whether anyone can sign in: {@code admin.token} is configured or a named operator exists. */
    public boolean enabled() {
        try {
            return auth.enabled();
        } catch (AdminException e) {
            return true; // the operators are not read yet: some may exist
        }
    }

    /**
     * Whether {@code authorization} (an {@code Authorization} header value) names an identity with
     * the admin role: {@code admin.token} or an operator of role admin. For the other services that
     * take admin credentials (the node registry's tokens).
     */
    public boolean admits(String authorization) {
        try {
            return authorization != null
                    && auth.identify(List.of(authorization))
                            .filter(who -> !who.viewer())
                            .isPresent();
        } catch (AdminException e) {
            return false; // the operators are not read yet: only admin.token is known
        }
    }

    @Override
    public void routing(HttpRules rules) {
        rules.any(this::authorize);
        for (EntityType t : EntityType.values()) {
            EntityResource r = new EntityResource(t, store, edits, this::changed);
            String base = "/" + t.plural();
            rules.get(base, guard(r::list));
            rules.post(base, guard(r::create));
            rules.get(base + "/{name}", guard(r::get));
            rules.put(base + "/{name}", guard(r::update));
            rules.delete(base + "/{name}", guard(r::delete));
        }
        rules.get("/proxies", guard(proxies::list));
        rules.get("/proxies/{id}", guard(proxies::get));
        rules.post("/proxies/bulk", guard(bulk::post));
        rules.post("/proxies/{id}/disable", guard(proxies::disable));
        rules.post("/proxies/{id}/enable", guard(proxies::enable));
        rules.post("/proxies/{id}/reveal", guard(proxies::reveal));
        rules.get("/pipeline", guard(pipeline::get));
        rules.get(
                "/series",
                guard((req, res) -> AdminJson.send(
                        res,
                        200,
                        series.orElseThrow(() -> AdminException.notFound("this process keeps no live series"))
                                .view())));
        rules.get("/errors", guard((req, res) -> activity().serveErrors(req, res)));
        rules.get("/requests", guard((req, res) -> activity().serveRequests(req, res)));
        rules.get(
                "/traffic",
                guard((req, res) -> AdminJson.send(
                        res,
                        200,
                        traffic.orElseThrow(() -> AdminException.notFound("this process counts no gateway traffic"))
                                .view())));
        rules.get("/flags", guard((req, res) -> AdminJson.send(res, 200, flags.view())));
        rules.post("/upstreams/{name}/fetch", guard(fetch::fetch));
        rules.post("/providers/{name}/test", guard(providerTest::test));
        rules.get("/routings/{name}/sequential", guard(sequential::get));
        rules.post("/routings/{name}/sequential", guard(sequential::post));
        rules.get("/whoami", guard(operators::whoami));
        rules.get("/operators", guard(operators::list));
        rules.post("/operators", guard(operators::create));
        rules.get("/operators/{name}", guard(operators::get));
        rules.delete("/operators/{name}", guard(operators::delete));
        rules.get("/snapshot", guard(status::snapshot));
        rules.get("/audit", guard(status::audit));
        reads.forEach((path, handler) -> rules.get(path, guard(handler)));
        rules.any(guard((req, res) -> {
            throw AdminException.notFound(
                    "no admin resource " + req.prologue().method().text() + " "
                            + req.path().absolute().path());
        }));
    }

    private GatewayActivity activity() {
        return activity.orElseThrow(() -> AdminException.notFound("this process keeps no gateway activity"));
    }

    private void authorize(ServerRequest req, ServerResponse res) {
        try {
            authorizeKnown(req, res);
        } catch (AdminException e) {
            // the operators are not read yet (starting, database down): retryable, never a 401
            closeIfUnread(req, res);
            res.header(HeaderNames.RETRY_AFTER, "1");
            AdminJson.error(res, e.status(), e.code(), e.getMessage());
        }
    }

    private void authorizeKnown(ServerRequest req, ServerResponse res) {
        if (!auth.enabled()) {
            closeIfUnread(req, res);
            AdminJson.error(
                    res,
                    404,
                    "admin_disabled",
                    "the admin API is disabled: configure admin.token "
                            + "(or the PROXYPOOL_ADMIN_TOKEN environment variable) and restart");
            return;
        }
        Optional<AdminIdentity> who = auth.identify(req.headers().values(HeaderNames.AUTHORIZATION));
        if (who.isEmpty()) {
            closeIfUnread(req, res);
            BearerToken.challenge(res);
            AdminJson.error(res, 401, "unauthorized", "a valid admin bearer token is required");
            return;
        }
        String method = req.prologue().method().text();
        if (who.get().viewer() && !method.equals("GET") && !method.equals("HEAD")) {
            closeIfUnread(req, res);
            AdminJson.error(
                    res,
                    403,
                    "forbidden",
                    "operator '" + who.get().name() + "' has the viewer role (read-only): " + method + " "
                            + req.path().absolute().path() + " needs the admin role");
            return;
        }
        req.context().register(who.get());
        res.next();
    }

    private void changed(ConfigChange c) {
        try {
            onConfigChange.accept(c);
        } catch (RuntimeException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "configuration version " + c.version() + " (" + c.type().singular() + " '" + c.name() + "' "
                            + c.kind().wireName() + ") is stored but applying it failed: " + e.getMessage(),
                    e);
        }
    }

    private static Handler guard(Handler h) {
        return (req, res) -> {
            try {
                h.handle(req, res);
            } catch (AdminException e) {
                closeIfUnread(req, res);
                AdminJson.error(res, e.status(), e.code(), e.getMessage());
            } catch (DatabaseUnavailableException e) {
                LOG.log(System.Logger.Level.WARNING, "admin request refused: " + e.getMessage());
                closeIfUnread(req, res);
                // retryable: the database's connection timeout bounds the wait, a client may try again shortly
                res.header(HeaderNames.RETRY_AFTER, RETRY_AFTER_SECONDS);
                AdminJson.error(
                        res,
                        503,
                        "database_unavailable",
                        "the configuration database cannot be reached; nothing was changed");
            } catch (StoreUnavailableException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "admin request refused, pool store unavailable: " + e.getMessage());
                closeIfUnread(req, res);
                res.header(HeaderNames.RETRY_AFTER, "1"); // an outage or a failover: retryable
                AdminJson.error(res, 503, "store_unavailable", "the pool store cannot be reached");
            } catch (RuntimeException e) {
                LOG.log(
                        System.Logger.Level.ERROR,
                        "admin request " + req.prologue().method().text() + " "
                                + req.path().absolute().path() + " failed",
                        e);
                closeIfUnread(req, res);
                AdminJson.error(
                        res, 500, "internal_error", "the request failed; nothing was changed (see the server log)");
            }
        };
    }

    private static void closeIfUnread(ServerRequest req, ServerResponse res) {
        if (!req.content().consumed()) {
            res.header(HeaderValues.CONNECTION_CLOSE);
        }
    }

    /** Builder; see {@link AdminService#builder}. */
    public static final class Builder {
        private final ProxyPool pool;
        private final ConfigStore store;
        private Optional<Secret> token = Optional.empty();
        private Path baseDir = Path.of("").toAbsolutePath();
        private Consumer<ConfigChange> onConfigChange = c -> {};
        private Optional<LiveSeries> series = Optional.empty();
        private Optional<GatewayActivity> activity = Optional.empty();
        private Optional<GatewayTraffic> traffic = Optional.empty();
        private final Map<String, Handler> reads = new LinkedHashMap<>();
        private Supplier<Optional<WorkerRegistry.Reader>> workers = Optional::empty;
        private Duration workerStaleAfter = Duration.ofMinutes(5);
        private ProxyPoolConfig.Admin.Flags flags = ProxyPoolConfig.Admin.Flags.DEFAULTS;

        private Builder(ProxyPool pool, ConfigStore store) {
            this.pool = Objects.requireNonNull(pool, "pool");
            this.store = Objects.requireNonNull(store, "store");
        }

        /** The admin bearer token ({@code config.admin().token()}); empty disables the API. */
        public Builder token(Optional<Secret> t) {
            this.token = Objects.requireNonNull(t, "token");
            return this;
        }

        /** Where relative paths of admin-written providers resolve (the config file's directory). */
        public Builder baseDir(Path dir) {
            this.baseDir = Objects.requireNonNull(dir, "baseDir").toAbsolutePath();
            return this;
        }

        /** Called after every committed configuration write (rebuild routing table / snapshot from {@code change.state()}). */
        public Builder onConfigChange(Consumer<ConfigChange> hook) {
            this.onConfigChange = Objects.requireNonNull(hook, "onConfigChange");
            return this;
        }

        /** The live series served at {@code GET /series} (the console's charts); without one that path is 404. */
        public Builder series(LiveSeries s) {
            this.series = Optional.of(Objects.requireNonNull(s, "series"));
            return this;
        }

        /**
         * The gateway's request log and error breakdown served at {@code GET /requests} and
         * {@code GET /errors}; without one those paths are 404.
         */
        public Builder activity(GatewayActivity a) {
            this.activity = Optional.of(Objects.requireNonNull(a, "activity"));
            return this;
        }

        /** The gateway's bytes per upstream and client served at {@code GET /traffic}; without them that path is 404. */
        public Builder traffic(GatewayTraffic t) {
            this.traffic = Optional.of(Objects.requireNonNull(t, "traffic"));
            return this;
        }

        /**
         * One more read-only resource behind the admin token: {@code GET /v1/admin<path>} answered by
         * {@code handler} (which may throw {@link AdminException} for its error answers).
         */
        public Builder read(String path, Handler handler) {
            if (path == null || !path.startsWith("/")) {
                throw new IllegalArgumentException("an admin resource path starts with '/', got " + path);
            }
            reads.put(path, Objects.requireNonNull(handler, "handler"));
            return this;
        }

        /**
         * The worker registry shown in {@code GET /snapshot}'s {@code workers} (a control plane on the
         * shared store; empty until it joined the cluster). A worker is flagged stale when behind
         * the published version or when the version it serves is older than {@code staleAfter}
         * (half of {@code cluster.validity}).
         */
        public Builder workers(Supplier<Optional<WorkerRegistry.Reader>> source, Duration staleAfter) {
            this.workers = Objects.requireNonNull(source, "workers");
            this.workerStaleAfter = Objects.requireNonNull(staleAfter, "staleAfter");
            return this;
        }

        /** When {@code GET /flags} raises a red flag ({@code admin.flags}); defaults without. */
        public Builder flags(ProxyPoolConfig.Admin.Flags f) {
            this.flags = Objects.requireNonNull(f, "flags");
            return this;
        }

        public AdminService build() {
            return new AdminService(this);
        }
    }
}
