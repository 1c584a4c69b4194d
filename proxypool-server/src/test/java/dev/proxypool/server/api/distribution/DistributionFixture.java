package dev.proxypool.server.api.distribution;

import dev.proxypool.core.extract.MemoryPoolStore;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.extract.UpstreamCounts;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import dev.proxypool.server.api.BearerToken;
import dev.proxypool.server.contract.OpenApiContract;
import io.helidon.webserver.WebServer;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A real Helidon WebServer on a free loopback port with the {@link DistributionService} registered
 * the way the composition does, over a {@link ProxyPool} whose in-memory store can be taken down,
 * driven by a {@link ManualClock}.
 */
final class DistributionFixture implements AutoCloseable {

    static final String ALICE_TOKEN = "alice-secret-token";
    static final String BOB_TOKEN = "bob-secret-token";
    static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    static final Map<String, String> TOKENS = Map.of(ALICE_TOKEN, "alice", BOB_TOKEN, "bob");

    final ManualClock clock = new ManualClock(START);
    final SwitchableStore store = new SwitchableStore(new MemoryPoolStore(StoreSettings.DEFAULTS));
    final ProxyPool pool;
    final DistributionService service;
    final WebServer server;
    final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    final URI uri;
    final int initial;

    private DistributionFixture(Options o) {
        ProxyPoolConfig d = ProxyPoolConfig.defaults();
        ProxyPoolConfig config = new ProxyPoolConfig(
                d.server(),
                d.store(),
                d.database(),
                d.credentials(),
                d.admin(),
                d.clients(),
                d.providers(),
                d.upstreams(),
                d.routings(),
                d.health(),
                d.pipeline(),
                d.security(),
                new ProxyPoolConfig.Distribution(o.reserve, Duration.ofHours(24), o.maxCount),
                d.gateway());
        pool = ProxyPool.builder()
                .config(config)
                .background(false)
                .store(store)
                .clocks(clock, clock)
                .proxies(o.proxies)
                .credentials(o.credentials)
                .build();
        service = DistributionService.builder(
                        pool, header -> BearerToken.parse(header).map(TOKENS::get))
                .quotas(o.quotas)
                .clock(clock)
                .build();
        server = WebServer.builder()
                .address(InetAddress.getLoopbackAddress())
                .port(0)
                .shutdownHook(false)
                .routing(r -> r.register(DistributionService.PATH, service))
                .build()
                .start();
        uri = URI.create("http://127.0.0.1:" + server.port() + DistributionService.PATH);
        initial = available();
    }

    static Options with(List<Proxy> proxies) {
        return new Options(proxies);
    }

    /** Available proxies over every upstream, as stored. */
    int available() {
        int n = 0;
        for (UpstreamCounts c : store.countsByUpstream().values()) {
            n += c.available();
        }
        return n;
    }

    HttpResponse<String> post(String token, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(20));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        HttpRequest request = b.build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        OpenApiContract.get().check(request, body, response);
        return response;
    }

    HttpResponse<String> alice(String body, String... headers) throws Exception {
        return post(ALICE_TOKEN, body, headers);
    }

    @Override
    public void close() {
        http.close();
        server.stop();
        pool.close();
        store.close();
    }

    /** {@code count} proxies {@code 10.<upstream-index>.x.y:8000} of {@code upstream}. */
    static List<Proxy> proxies(
            int count, String upstream, Protocol protocol, String ref, Instant expiresAt, String... labels) {
        List<Proxy> out = new ArrayList<>(count);
        int u = Math.floorMod(upstream.hashCode(), 200) + 1;
        for (int i = 0; i < count; i++) {
            String host = "10." + u + "." + (i >> 8) + "." + (i & 0xFF);
            out.add(proxy(host, 8000, upstream, protocol, ref, expiresAt, labels));
        }
        return out;
    }

    static Proxy proxy(
            String host,
            int port,
            String upstream,
            Protocol protocol,
            String ref,
            Instant expiresAt,
            String... labels) {
        return Proxy.builder(new ProxyKey(protocol, host, port, CredentialRef.of(ref)))
                .provider("test")
                .upstream(upstream)
                .labels(Labels.of(labels))
                .expiresAt(expiresAt)
                .build();
    }

    static final class Options {
        private final List<Proxy> proxies;
        private int reserve;
        private int maxCount = 1000;
        private Map<String, Integer> quotas = Map.of();
        private StaticCredentialStore credentials = StaticCredentialStore.empty();

        private Options(List<Proxy> proxies) {
            this.proxies = proxies;
        }

        Options reserve(int r) {
            reserve = r;
            return this;
        }

        Options maxCount(int m) {
            maxCount = m;
            return this;
        }

        Options quotas(Map<String, Integer> q) {
            quotas = q;
            return this;
        }

        Options credentials(StaticCredentialStore c) {
            credentials = c;
            return this;
        }

        DistributionFixture start() {
            return new DistributionFixture(this);
        }
    }
}
