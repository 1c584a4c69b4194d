package dev.proxypool.examples;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.sticky.StickyPolicy;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.Selection;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.credentials.CredentialStore;
import dev.proxypool.sdk.credentials.CredentialsUnavailableException;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.http.LeaseHttp;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Existing {@link HttpClient} code through leased proxies, with sticky sessions: each "user
 * session" keeps its exit proxy across requests while that proxy qualifies.
 */
public final class HttpClientStickyExample {

    private HttpClientStickyExample() {
    }

    /** One request's result: which session, through which proxy (opaque id), what status. */
    public record Hop(String session, String proxyId, int status) {
    }

    public static List<Hop> run(List<Proxy> inventory, CredentialStore credentials, URI url, int sessions, int requestsPerSession)
            throws IOException, InterruptedException {
        RoutingRule sticky = RoutingRule.builder("sessions").sticky(StickyPolicy.DEFAULTS).build();
        ProxyPoolConfig base = ProxyPoolConfig.defaults();
        ProxyPoolConfig config = new ProxyPoolConfig(base.server(), base.store(), base.database(), base.credentials(),
                base.admin(), base.clients(), base.providers(), base.upstreams(), List.of(sticky), base.health(),
                base.pipeline(), base.security(), base.distribution(), base.gateway());
        List<Hop> hops = new ArrayList<>();
        try (ProxyPool pool = ProxyPool.builder().config(config).proxies(inventory).background(false).build()) {
            for (int s = 0; s < sessions; s++) {
                for (int r = 0; r < requestsPerSession; r++) {
                    String session = "user-" + s;
                    try (Lease lease = pool.acquire(Selection.forUri(url).session(session))) {
                        HttpClient client;
                        try {
                            client = LeaseHttp.clientBuilder(lease, credentials).connectTimeout(Duration.ofSeconds(5)).build();
                        } catch (CredentialsUnavailableException e) {
                            lease.failed(FailureKind.PROXY_AUTH_REJECTED);
                            continue;
                        }
                        long t0 = System.nanoTime();
                        try {
                            HttpResponse<Void> resp = client.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).build(),
                                    HttpResponse.BodyHandlers.discarding());
                            lease.connected();
                            lease.succeeded(Duration.ofNanos(System.nanoTime() - t0));
                            hops.add(new Hop(session, lease.proxyId(), resp.statusCode()));
                        } catch (ConnectException e) {
                            lease.failed(FailureKind.CONNECTION_REFUSED);
                        }
                    }
                }
            }
        }
        return hops;
    }
}
