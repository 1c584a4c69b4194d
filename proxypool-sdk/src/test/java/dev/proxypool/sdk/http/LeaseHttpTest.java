package dev.proxypool.sdk.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.Selection;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeaseHttpTest {

    @Test
    void aRealHttpClientRequestGoesThroughTheLeasedProxyWithItsCredentials() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy upstream =
                        FakeHttpProxy.builder().basicAuth("alice", "s3cret").start();
                ProxyPool pool = ProxyPool.builder()
                        .background(false)
                        .proxies(List.of(upstream.asProxy(CredentialRef.of("vendor-a"))))
                        .build()) {
            StaticCredentialStore creds = StaticCredentialStore.empty().with("vendor-a", "alice", "s3cret");
            try (Lease lease = pool.acquire(Selection.forUri(origin.uri("/echo")))) {
                HttpClient client = LeaseHttp.clientBuilder(lease, creds)
                        .connectTimeout(Duration.ofSeconds(5))
                        .build();
                long t0 = System.nanoTime();
                HttpResponse<String> r = client.send(
                        HttpRequest.newBuilder(origin.uri("/echo"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                lease.succeeded(Duration.ofNanos(System.nanoTime() - t0));
                assertEquals(200, r.statusCode());
                assertTrue(r.body().contains("\"ip\""), r.body());
            }
            assertEquals(1, upstream.forwardedRequests());
            assertEquals(0, EmbeddedProxyPool.engineOf(pool).inFlight());
        }
    }

    @Test
    void socksLeasesAreRefusedWithAClearMessage() {
        Proxy socks = Proxy.builder(new ProxyKey(Protocol.SOCKS5, "127.0.0.1", 1080, CredentialRef.NONE))
                .build();
        try (ProxyPool pool = ProxyPool.builder()
                        .background(false)
                        .proxies(List.of(socks))
                        .build();
                Lease lease = pool.acquire(Selection.forHost("a.example"))) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> LeaseHttp.proxySelector(lease));
            assertTrue(e.getMessage().contains("supports HTTP proxies only"), e.getMessage());
        }
    }
}
