package dev.proxypool.server.admin;

import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.credentials.Secret;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.contract.OpenApiContract;
import dev.proxypool.server.persistence.ConfigChange;
import dev.proxypool.server.persistence.ConfigState;
import dev.proxypool.server.persistence.ConfigStore;
import dev.proxypool.server.persistence.JsonTree;
import dev.proxypool.server.persistence.MemoryConfigStore;
import io.helidon.webserver.WebServer;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A real Helidon WebServer on a free loopback port with the {@link AdminService} registered at
 * {@code /v1/admin} the way the composition does, over a {@link ProxyPool} with an in-memory pool
 * store and a {@link ManualClock}, and a {@link ConfigStore} of the test's choice. The JDK
 * {@link HttpClient} talks to it.
 */
final class AdminFixture implements AutoCloseable {

    static final String TOKEN = "admin-token-0123456789";
    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    final ManualClock clock = new ManualClock(START);
    final ProxyPool pool;
    final ConfigStore store;
    final AdminService service;
    final WebServer server;
    final List<ConfigChange> changes = new CopyOnWriteArrayList<>();
    /** With {@link Options#series()}: the process's meter registry and a live series over it (not started: tests call {@code series.sample()}); else null. */
    final io.helidon.metrics.api.MeterRegistry registry;

    final LiveSeries series;
    /** With {@link Options#activity(int)}: the request log and error breakdown the admin API serves (fed by the test); else null. */
    final GatewayActivity activity;

    final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    final String base;

    private AdminFixture(Options o) {
        pool = ProxyPool.builder()
                .config(o.config)
                .background(false)
                .store(new MemoryPoolStore(StoreSettings.DEFAULTS))
                .clocks(clock, clock)
                .proxies(o.proxies)
                .build();
        store = o.store.apply(clock);
        AdminService.Builder ab = AdminService.builder(pool, store)
                .flags(o.flags)
                .token(o.token)
                .baseDir(o.baseDir)
                .onConfigChange(changes::add);
        if (o.series) {
            registry = io.helidon.service.registry.Services.get(io.helidon.metrics.api.MeterRegistry.class);
            series = new LiveSeries(EmbeddedProxyPool.engineOf(pool), registry, Duration.ofSeconds(2), 5);
            ab.series(series);
        } else {
            registry = null;
            series = null;
        }
        if (o.activity >= 0) {
            activity = new GatewayActivity(
                    o.activity,
                    clock,
                    io.helidon.service.registry.Services.get(io.helidon.metrics.api.MeterRegistry.class));
            ab.activity(activity);
        } else {
            activity = null;
        }
        service = ab.build();
        server = WebServer.builder()
                .address(InetAddress.getLoopbackAddress())
                .port(0)
                .shutdownHook(false)
                .routing(r -> r.register(AdminService.PATH, service))
                .build()
                .start();
        base = "http://127.0.0.1:" + server.port() + AdminService.PATH;
    }

    static Options options() {
        return new Options();
    }

    static final class Options {
        ProxyPoolConfig config = ProxyPoolConfig.defaults();
        List<Proxy> proxies = new ArrayList<>();
        Function<InstantSource, ConfigStore> store = clock -> new MemoryConfigStore(ConfigState.EMPTY, clock);
        Optional<Secret> token = Optional.of(Secret.of(TOKEN));
        Path baseDir = Path.of("").toAbsolutePath();
        boolean series;
        int activity = -1;
        ProxyPoolConfig.Admin.Flags flags = ProxyPoolConfig.Admin.Flags.DEFAULTS;

        /** The red flags' thresholds ({@code admin.flags}). */
        Options flags(ProxyPoolConfig.Admin.Flags f) {
            flags = f;
            return this;
        }

        /** Serve {@code GET /series} from the fixture's {@link AdminFixture#series}. */
        Options series() {
            series = true;
            return this;
        }

        /** Serve {@code GET /requests} and {@code GET /errors} from a {@link GatewayActivity} keeping {@code capacity} entries. */
        Options activity(int capacity) {
            activity = capacity;
            return this;
        }

        Options routings(RoutingRule... rules) {
            ProxyPoolConfig d = config;
            config = new ProxyPoolConfig(
                    d.server(),
                    d.store(),
                    d.database(),
                    d.credentials(),
                    d.admin(),
                    d.clients(),
                    d.providers(),
                    d.upstreams(),
                    List.of(rules),
                    d.health(),
                    d.pipeline(),
                    d.security(),
                    d.distribution(),
                    d.gateway());
            return this;
        }

        Options config(ProxyPoolConfig c) {
            config = c;
            return this;
        }

        Options proxies(List<Proxy> p) {
            proxies = p;
            return this;
        }

        Options store(Function<InstantSource, ConfigStore> s) {
            store = s;
            return this;
        }

        Options token(Optional<Secret> t) {
            token = t;
            return this;
        }

        Options baseDir(Path d) {
            baseDir = d;
            return this;
        }

        AdminFixture start() {
            return new AdminFixture(this);
        }
    }

    /**
     * {@code n} proxies {@code p00000...} on 10.0.x.y:8000 over the given upstreams (round robin): every third
     * SOCKS5 (else HTTP), country US/DE alternating, every fifth with credentialRef {@code vendor}, expiring in an hour.
     */
    static List<Proxy> proxies(int n, String... upstreams) {
        List<Proxy> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String upstream = upstreams[i % upstreams.length];
            Protocol protocol = i % 3 == 0 ? Protocol.SOCKS5 : Protocol.HTTP;
            CredentialRef ref = i % 5 == 0 ? CredentialRef.of("vendor") : CredentialRef.NONE;
            out.add(Proxy.builder(new ProxyKey(protocol, "10.0." + (i / 250) + "." + (i % 250), 8000, ref))
                    .id(String.format("p%05d", i))
                    .provider("lab")
                    .upstream(upstream)
                    .labels(Labels.of("country", i % 2 == 0 ? "US" : "DE"))
                    .expiresAt(START.plus(Duration.ofHours(1)))
                    .maxConcurrency(4)
                    .build());
        }
        return out;
    }

    record Response(int status, String body, HttpHeaders headers) {
        Map<String, Object> json() {
            return JsonTree.parseObject(body);
        }

        @SuppressWarnings("unchecked")
        List<Map<String, Object>> list(String key) {
            return (List<Map<String, Object>>) json().get(key);
        }

        String error() {
            return (String) json().get("error");
        }

        String message() {
            return (String) json().get("message");
        }
    }

    Response get(String path) {
        return send("GET", path, null, TOKEN);
    }

    Response post(String path, String json) {
        return send("POST", path, json, TOKEN);
    }

    Response put(String path, String json) {
        return send("PUT", path, json, TOKEN);
    }

    Response delete(String path) {
        return send("DELETE", path, null, TOKEN);
    }

    Response send(String method, String path, String json, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(20))
                .method(
                        method,
                        json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            b.header("Content-Type", "application/json");
        }
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        try {
            HttpRequest request = b.build();
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            OpenApiContract.get().check(request, json, r);
            return new Response(r.statusCode(), r.body(), r.headers());
        } catch (AssertionError e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(method + " " + path + " failed: " + e, e);
        }
    }

    @Override
    public void close() {
        server.stop();
        if (series != null) {
            series.close();
        }
        store.close();
        pool.close();
    }
}
