package dev.proxypool.server.e2e.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.sdk.redis.RedisPoolStore;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.server.ProxyPoolServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32: 32 concurrent HTTP clients drain a 50,000-proxy Redis pool through the composite index
 * (country x type, the declared dimensions), each call with a random (country, type) filter, a
 * random count and a random fulfilment, until every filter is empty. Every proxy is handed out once,
 * none twice, each matches its call's filter, an allOrNothing shortfall hands out nothing, and the
 * count is exact: the pool ends empty.
 */
@Tag("slow")
class RedisFilteredDrainEndToEndTest {

    private static final int PROXIES = 50_000;
    private static final int CLIENTS = 32;
    private static final String[] COUNTRIES = {"US", "DE", "FR", "JP", "GB"};
    private static final String[] TYPES = {"residential", "datacenter"};

    @TempDir
    Path dir;

    @Test
    void thirtyTwoFilteredClientsDrainFiftyThousandProxiesEachHandedOutOnce() throws Exception {
        String prefix = RedisE2e.randomPrefix();
        Instant now = Clocks.wall().instant();
        List<Proxy> seeded = new ArrayList<>(PROXIES);
        Map<String, String> combo = new HashMap<>();
        for (int i = 0; i < PROXIES; i++) {
            String country = COUNTRIES[i % COUNTRIES.length];
            String type = TYPES[(i / COUNTRIES.length) % TYPES.length];
            Proxy p = Proxy.builder(new ProxyKey(
                            Protocol.HTTP, "10.89." + (i >> 8) + "." + (i & 0xFF), 8000, CredentialRef.NONE))
                    .provider("e2e")
                    .upstream(RedisE2e.UPSTREAM)
                    .labels(Labels.of("country", country, "type", type))
                    .expiresAt(now.plus(Duration.ofDays(1)))
                    .build();
            seeded.add(p);
            combo.put(p.id(), country + "/" + type);
        }
        try (RedisPoolStore store = RedisPoolStore.connect(
                        RedisStoreConfig.DEFAULTS.withKeyPrefix(prefix).withMaxConnections(48),
                        StoreSettings.DEFAULTS);
                ProxyPoolServer server = ProxyPoolServer.builder(RedisE2e.config(dir, 0))
                        .pool(b -> b.store(store).proxies(seeded))
                        .start()) {
            assertEquals(PROXIES, store.available(RedisE2e.UPSTREAM));
            URI uri = RedisE2e.extractions(server.apiPort());
            Queue<String> handedOut = new ConcurrentLinkedQueue<>();
            Queue<String> problems = new ConcurrentLinkedQueue<>();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int seed = c;
                clients.add(Thread.ofPlatform().name("client-" + c).start(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    Set<String> empty = new HashSet<>(); // filters this client found drained
                    try (HttpClient http = HttpClient.newBuilder()
                            .version(HttpClient.Version.HTTP_1_1)
                            .build()) {
                        go.await();
                        for (int i = 0; i < 20_000 && empty.size() < COUNTRIES.length * TYPES.length; i++) {
                            String country = COUNTRIES[random.nextInt(COUNTRIES.length)];
                            String type = TYPES[random.nextInt(TYPES.length)];
                            String want = country + "/" + type;
                            if (empty.contains(want)) {
                                continue;
                            }
                            int count = 1 + random.nextInt(20);
                            boolean all = random.nextInt(4) == 0;
                            HttpResponse<String> r = extract(http, uri, count, all, country, type);
                            if (r.statusCode() == 409 && all && r.body().contains("insufficient_proxies")) {
                                continue; // short: nothing handed out
                            }
                            if (r.statusCode() != 200) {
                                problems.add(r.statusCode() + " " + r.body());
                                return;
                            }
                            List<String> ids = RedisE2e.ids(r.body());
                            if (all ? ids.size() != count : ids.size() > count) {
                                problems.add(
                                        (all ? "allOrNothing" : "partial") + " of " + count + " gave " + ids.size());
                                return;
                            }
                            for (String id : ids) {
                                if (!want.equals(combo.get(id))) {
                                    problems.add(id + " (" + combo.get(id) + ") handed out for " + want);
                                }
                            }
                            handedOut.addAll(ids);
                            if (!all && ids.size() < count) {
                                empty.add(want); // partial short: the filter is drained
                            }
                        }
                        if (empty.size() < COUNTRIES.length * TYPES.length) {
                            problems.add(Thread.currentThread().getName() + " did not see every filter drained");
                        }
                    } catch (Exception e) {
                        problems.add(e.toString());
                    }
                }));
            }
            go.countDown();
            for (Thread t : clients) {
                t.join(300_000);
            }

            assertEquals(List.of(), List.copyOf(problems));
            List<String> all = new ArrayList<>(handedOut);
            Set<String> unique = new HashSet<>(all);
            assertEquals(all.size(), unique.size(), "a proxy was handed out twice");
            assertEquals(PROXIES, unique.size(), "every proxy handed out once");
            assertTrue(combo.keySet().containsAll(unique), "only seeded proxies are handed out");
            assertEquals(0, store.available(RedisE2e.UPSTREAM), "the pool is drained: the count is exact");
        } finally {
            RedisE2e.deleteKeys(6379, prefix);
        }
    }

    private static HttpResponse<String> extract(
            HttpClient http, URI uri, int count, boolean allOrNothing, String country, String type) throws Exception {
        String body = "{\"count\": " + count + ", \"fulfillment\": \"" + (allOrNothing ? "allOrNothing" : "partial")
                + "\", \"filter\": {\"country\": \"" + country + "\", \"labels\": {\"type\": \"" + type + "\"}}}";
        return http.send(
                HttpRequest.newBuilder(uri)
                        .timeout(Duration.ofSeconds(60))
                        .header("Authorization", "Bearer " + RedisE2e.TOKEN)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
