package dev.proxypool.examples;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.ProxyPoolException;
import dev.proxypool.sdk.Selection;
import java.io.IOException;
import java.net.PasswordAuthentication;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Existing {@link HttpClient} code through leased proxies, with sticky sessions: each "user
 * session" keeps its exit proxy across requests while that proxy qualifies. The routing and its
 * sticky sessions come from {@code proxypool.yaml}, as in production; the proxies' credentials are
 * given in code.
 */
public final class HttpClientStickyExample {

    private HttpClientStickyExample() {}

    /** One request's result: which session, through which proxy (opaque id), what status. */
    public record Hop(String session, String proxyId, int status) {}

    public static List<Hop> run(
            Path workDir,
            List<Proxy> inventory,
            Map<String, PasswordAuthentication> credentials,
            URI url,
            int sessions,
            int requestsPerSession)
            throws IOException, InterruptedException {
        Path config = workDir.resolve("proxypool.yaml");
        Files.writeString(config, """
                routings: [{ name: sessions, sticky: { enabled: true } }]
                """);
        ProxyPool.Builder builder =
                ProxyPool.builder().config(config).proxies(inventory).background(false);
        credentials.forEach((ref, c) -> builder.credential(ref, c.getUserName(), new String(c.getPassword())));
        List<Hop> hops = new ArrayList<>();
        try (ProxyPool pool = builder.build()) {
            for (int s = 0; s < sessions; s++) {
                for (int r = 0; r < requestsPerSession; r++) {
                    String session = "user-" + s;
                    try (Lease lease = pool.acquire(Selection.forUri(url).session(session))) {
                        long t0 = System.nanoTime();
                        try {
                            HttpClient client = pool.httpClientBuilder(lease)
                                    .connectTimeout(Duration.ofSeconds(5))
                                    .build();
                            HttpResponse<Void> resp = client.send(
                                    HttpRequest.newBuilder(url)
                                            .timeout(Duration.ofSeconds(10))
                                            .build(),
                                    HttpResponse.BodyHandlers.discarding());
                            lease.connected();
                            lease.succeeded(Duration.ofNanos(System.nanoTime() - t0));
                            hops.add(new Hop(session, lease.proxyId(), resp.statusCode()));
                        } catch (IOException | ProxyPoolException e) {
                            lease.failed(e); // classified (refused, timeout, TLS, credentials ...) for health
                        }
                    }
                }
            }
        }
        return hops;
    }
}
