package dev.proxypool.server.console;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.persistence.JsonTree;
import dev.proxypool.testkit.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A real {@code proxypool serve} ({@link ProxyPoolServer}, memory stores, loopback, free ports) for
 * the console's browser tests: two configured upstreams {@code up-a}/{@code up-b} fed by a small
 * JSONL inventory (so the Upstreams page has fetch results), a sequential routing {@code seq} over
 * them, a catch-all {@code default}, and a seeded pool of {@code n} proxies over the upstreams
 * {@code pool-a}/{@code pool-b}/{@code pool-c}. Active probing is off (the seeded addresses are
 * documentation ranges nobody answers on), and a plain JDK client reads the admin API for the
 * figures the page must match.
 */
final class ConsoleServer implements AutoCloseable {

    static final String TOKEN = "console-admin-token-0123456789";

    final ProxyPoolServer server;
    final String base;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private ConsoleServer(ProxyPoolServer server) {
        this.server = server;
        this.base = "http://127.0.0.1:" + server.apiPort();
    }

    static ConsoleServer start(Path dir, int seeded) {
        try {
            for (String name : List.of("a", "b")) {
                StringBuilder inv = new StringBuilder();
                for (int i = 0; i < 4; i++) {
                    inv.append("{\"host\": \"198.51.100.")
                            .append(name.equals("a") ? 10 + i : 20 + i)
                            .append("\", \"port\": 3128, \"protocol\": \"http\", \"labels\": {\"country\": \"FR\"}}\n");
                }
                if (name.equals("a")) {
                    inv.append("not a json line\n"); // one parse drop the upstream table shows
                }
                Files.writeString(dir.resolve("inv-" + name + ".jsonl"), inv);
            }
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    admin: { token: %s }
                    providers:
                      - { name: lab, type: jsonl_inventory, path: inv-a.jsonl }
                      - { name: lab-b, type: jsonl_inventory, path: inv-b.jsonl }
                    upstreams:
                      - { name: up-a, provider: lab, validate: false }
                      - { name: up-b, provider: lab-b, validate: false }
                    routings:
                      - { name: seq, match: { hosts: ["*.seq.example"] }, strategy: sequential, upstreams: [up-a, up-b], exhaustion: loop }
                      - { name: default, filter: { protocol: http }, sticky: { enabled: true }, onNoCandidate: reject }
                    health: { active: { enabled: false } }
                    """.formatted(TOKEN));
            long t0 = System.nanoTime();
            List<Proxy> proxies = proxies(seeded);
            long t1 = System.nanoTime();
            ProxyPoolServer s = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                    .configDir(dir)
                    .pool(b -> b.proxies(proxies))
                    .start();
            long t2 = System.nanoTime();
            ConsoleServer c = new ConsoleServer(s);
            c.awaitFirstFetch();
            System.out.printf(
                    "console test server: %,d proxies built in %d ms, server started in %d ms, first fetch after %d ms%n",
                    seeded, (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000, (System.nanoTime() - t2) / 1_000_000);
            return c;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code n} proxies {@code s000000...} on 203.0.x.y / 192.0.2.x over pool-a/pool-b/pool-c (round robin),
     * every third SOCKS5 (else HTTP), country US/DE alternating, every seventh with a credential ref, a day to live.
     */
    static List<Proxy> proxies(int n) {
        List<Proxy> out = new ArrayList<>(n);
        String[] upstreams = {"pool-a", "pool-b", "pool-c"};
        Instant expires = Instant.now().plus(Duration.ofDays(1));
        for (int i = 0; i < n; i++) {
            Protocol protocol = i % 3 == 0 ? Protocol.SOCKS5 : Protocol.HTTP;
            CredentialRef ref = i % 7 == 0 ? CredentialRef.of("vendor") : CredentialRef.NONE;
            String host = "203.0." + (113 + (i / 60000)) + "." + (i % 250);
            out.add(Proxy.builder(new ProxyKey(protocol, host, 10000 + (i / 250) % 50000, ref))
                    .id(String.format("s%06d", i))
                    .provider("seed")
                    .upstream(upstreams[i % 3])
                    .labels(Labels.of("country", i % 2 == 0 ? "US" : "DE"))
                    .expiresAt(expires)
                    .maxConcurrency(4)
                    .build());
        }
        return out;
    }

    /** The pipeline's first round has fetched up-a into the snapshot (then the pool stays: the inventories do not change). */
    private void awaitFirstFetch() {
        Await.atMost(Duration.ofSeconds(30))
                .until(
                        "the pipeline to store and publish up-a (stored counts by upstream)",
                        () -> EmbeddedProxyPool.engineOf(server.pool()).store().countsByUpstream(),
                        counts -> counts.containsKey("up-a")
                                && EmbeddedProxyPool.engineOf(server.pool())
                                        .snapshot()
                                        .upstreams()
                                        .contains("up-a"));
    }

    String consoleUrl() {
        return base + "/console/";
    }

    /** GET an admin path; the JSON answer as a map (status must be 200). */
    Map<String, Object> admin(String path) {
        HttpResponse<String> r = send("GET", path, null);
        if (r.statusCode() != 200) {
            throw new AssertionError("GET " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return JsonTree.parseObject(r.body());
    }

    HttpResponse<String> send(String method, String path, String json) {
        return sendAs(TOKEN, method, path, json);
    }

    /** A bodiless request with another token (an operator's). */
    HttpResponse<String> sendAs(String token, String method, String path) {
        return sendAs(token, method, path, null);
    }

    private HttpResponse<String> sendAs(String token, String method, String path, String json) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + "/v1/admin" + path))
                .timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + token)
                .method(
                        method,
                        json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            b.header("Content-Type", "application/json");
        }
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        http.close();
        server.close();
    }
}
