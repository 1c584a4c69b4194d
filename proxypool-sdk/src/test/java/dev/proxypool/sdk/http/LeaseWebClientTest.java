package dev.proxypool.sdk.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.Selection;
import dev.proxypool.sdk.credentials.StaticCredentialStore;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.WebClient;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeaseWebClientTest {

    @Test
    void aHelidonWebClientRequestGoesThroughTheLeasedProxyWithItsCredentials() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy upstream =
                        FakeHttpProxy.builder().basicAuth("alice", "s3cret").start();
                ProxyPool pool = ProxyPool.builder()
                        .background(false)
                        .proxies(List.of(upstream.asProxy(CredentialRef.of("vendor-a"))))
                        .build()) {
            StaticCredentialStore creds = StaticCredentialStore.empty().with("vendor-a", "alice", "s3cret");
            try (Lease lease = pool.acquire(Selection.forUri(origin.uri("/echo")))) {
                WebClient client = WebClient.builder()
                        .proxy(LeaseWebClient.proxy(lease, creds))
                        .build();
                try (HttpClientResponse r = client.get(origin.url("/echo")).request()) {
                    assertEquals(200, r.status().code());
                    assertTrue(r.as(String.class).contains("\"ip\""));
                }
                lease.succeeded(Duration.ofMillis(10));
            }
            assertTrue(upstream.requestsWithCredentials() >= 1, "the proxy saw our credentials");
            assertEquals(0, EmbeddedProxyPool.engineOf(pool).inFlight());
        }
    }
}
