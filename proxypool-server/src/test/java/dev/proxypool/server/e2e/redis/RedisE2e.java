package dev.proxypool.server.e2e.redis;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.config.ClusterSettings;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.coordination.ControlRole;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.redis.RedisStoreConfig;
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
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/** Shared pieces of the Redis end-to-end tests: config, pool, requests, key clean-up. */
public final class RedisE2e {

    public static final String TOKEN = "alice-token-0123456789";
    public static final String UPSTREAM = "e2e";
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");

    private RedisE2e() {}

    public static String randomPrefix() {
        return "pptest:" + UUID.randomUUID() + ":";
    }

    /** A loopback server with one client token, no active probing, and this gateway reserve. */
    public static ProxyPoolConfig config(Path dir, int reserve) {
        try {
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    clients: [{ name: alice, secret: alice-secret, token: %s }]
                    health: { active: { enabled: false } }
                    distribution: { gatewayReserve: %d }
                    """.formatted(TOKEN, reserve));
            return ConfigLoader.load(cfg, Map.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A worker's config file in {@code dir}: loopback ports, the local Redis under {@code prefix} as
     * the store, no active probing.
     */
    public static Path workerConfig(Path dir, String prefix) throws IOException {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                store: { type: redis, uri: "redis://127.0.0.1:6379", keyPrefix: "%s" }
                health: { active: { enabled: false } }
                """.formatted(prefix));
        return cfg;
    }

    /** A control plane publishing {@code source}'s snapshots to {@code redis} (default cluster settings). */
    public static ControlRole control(RedisStoreConfig redis, ProxyPool source) {
        return ControlRole.start(
                redis,
                ClusterSettings.DEFAULTS,
                EmbeddedProxyPool.engineOf(source),
                Duration.ofHours(1),
                EmbeddedProxyPool.engineOf(source).wallClock(),
                EmbeddedProxyPool.engineOf(source).ticker());
    }

    /** {@code count} distinct proxies {@code 10.88.x.y:8000} of {@link #UPSTREAM}, expiring in a day. */
    public static List<Proxy> proxies(int count, Instant now) {
        List<Proxy> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            out.add(Proxy.builder(new ProxyKey(
                            Protocol.HTTP, "10.88." + (i >> 8) + "." + (i & 0xFF), 8000, CredentialRef.NONE))
                    .provider("e2e")
                    .upstream(UPSTREAM)
                    .labels(Labels.of("country", i % 2 == 0 ? "US" : "DE"))
                    .expiresAt(now.plus(Duration.ofDays(1)))
                    .build());
        }
        return out;
    }

    public static HttpResponse<String> extract(HttpClient http, URI uri, int count, boolean allOrNothing)
            throws Exception {
        return extract(http, uri, count, allOrNothing, null);
    }

    /** As {@link #extract(HttpClient, URI, int, boolean)}, with an {@code Idempotency-Key} unless it is null. */
    public static HttpResponse<String> extract(
            HttpClient http, URI uri, int count, boolean allOrNothing, String idempotencyKey) throws Exception {
        String body =
                "{\"count\": " + count + ", \"fulfillment\": \"" + (allOrNothing ? "allOrNothing" : "partial") + "\"}";
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (idempotencyKey != null) {
            request.header("Idempotency-Key", idempotencyKey);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    public static List<String> ids(String body) {
        List<String> ids = new ArrayList<>();
        Matcher m = ID.matcher(body);
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    public static URI extractions(int apiPort) {
        return URI.create("http://127.0.0.1:" + apiPort + "/v1/extractions");
    }

    /**
     * SCAN + UNLINK of every key of {@code prefix} on host:port: under the prefix, and the pool
     * store's hash-tagged keys {@code {<prefix>...}}.
     */
    public static void deleteKeys(int port, String prefix) {
        deleteMatching(port, prefix + "*");
        deleteMatching(port, "{" + prefix + "*");
    }

    private static void deleteMatching(int port, String pattern) {
        try (RedisClient c =
                RedisClient.builder().hostAndPort("127.0.0.1", port).build()) {
            ScanParams params = new ScanParams().match(pattern).count(1000);
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = c.scan(cursor, params);
                if (!page.getResult().isEmpty()) {
                    c.unlink(page.getResult().toArray(String[]::new));
                }
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
    }
}
