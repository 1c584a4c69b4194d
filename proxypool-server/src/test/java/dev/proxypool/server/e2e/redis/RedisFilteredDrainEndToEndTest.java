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
 * Issue 32: 32 concurrent HTTP clients drain a 50,000-proxy Redis pool, a third of it socks5, through
 * the sets of the declared dimensions (country x type) and of their combinations with the protocol,
 * each call with a random filter (country and type; country, type and protocol; or country and
 * protocol: sets that share proxies, so each extraction leaves stale members in the others), a random
 * count and a random fulfilment, until every filter is empty. Every proxy is handed out once, none
 * twice, each matches its call's filter, an allOrNothing shortfall hands out nothing, and the count
 * is exact: the pool ends empty. The same with {@code store.index.upstream} on a pool of two
 * upstreams, half the calls naming one of them beside the labels or the protocol, so the upstream's
 * combination sets and the labels' sets share proxies too.
 */
@Tag("slow")
class RedisFilteredDrainEndToEndTest {

    private static final String[] COUNTRIES = {"US", "DE", "FR", "JP", "GB"};
    private static final String[] TYPES = {"residential", "datacenter"};
    private static final String[] PROTOCOLS = {"http", "socks5"};

    @TempDir
    Path dir;

    @Test
    void thirtyTwoFilteredClientsDrainFiftyThousandProxiesEachHandedOutOnce() throws Exception {
        drain(50_000, 32, new String[] {RedisE2e.UPSTREAM}, StoreSettings.DEFAULTS);
    }

    @Test
    void withTheUpstreamSetsClientsNamingAnUpstreamDrainTwentyThousandProxiesEachHandedOutOnce() throws Exception {
        drain(
                20_000,
                16,
                new String[] {RedisE2e.UPSTREAM, "e2e-b"},
                StoreSettings.builder().indexUpstream(true).build());
    }

    /**
     * Seeds {@code proxies} over {@code upstreams} (each country, type and protocol in each), serves
     * them from a Redis store with {@code settings}, and has {@code clients} HTTP clients drain them
     * with random filters (with two or more upstreams, half the calls name one); asserts every proxy
     * handed out once, each matching its filter, and the pool empty.
     */
    private void drain(int proxies, int clients, String[] upstreams, StoreSettings settings) throws Exception {
        String prefix = RedisE2e.randomPrefix();
        Instant now = Clocks.wall().instant();
        List<Proxy> seeded = new ArrayList<>(proxies);
        Map<String, String> combo = new HashMap<>();
        for (int i = 0; i < proxies; i++) {
            String country = COUNTRIES[i % COUNTRIES.length];
            String type = TYPES[(i / COUNTRIES.length) % TYPES.length];
            String upstream = upstreams[(i / (COUNTRIES.length * TYPES.length)) % upstreams.length];
            Protocol protocol = i % 3 == 0 ? Protocol.SOCKS5 : Protocol.HTTP;
            Proxy p = Proxy.builder(
                            new ProxyKey(protocol, "10.89." + (i >> 8) + "." + (i & 0xFF), 8000, CredentialRef.NONE))
                    .provider("e2e")
                    .upstream(upstream)
                    .labels(Labels.of("country", country, "type", type))
                    .expiresAt(now.plus(Duration.ofDays(1)))
                    .build();
            seeded.add(p);
            combo.put(p.id(), upstream + "/" + country + "/" + type + "/" + protocol.wireName());
        }
        try (RedisPoolStore store = RedisPoolStore.connect(
                        RedisStoreConfig.DEFAULTS.withKeyPrefix(prefix).withMaxConnections(48), settings);
                ProxyPoolServer server = ProxyPoolServer.builder(RedisE2e.config(dir, 0))
                        .pool(b -> b.store(store).proxies(seeded))
                        .start()) {
            assertEquals(proxies, available(store, upstreams));
            URI uri = RedisE2e.extractions(server.apiPort());
            Queue<String> handedOut = new ConcurrentLinkedQueue<>();
            Queue<String> problems = new ConcurrentLinkedQueue<>();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int seed = c;
                threads.add(Thread.ofPlatform().name("client-" + c).start(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    Set<String> empty = new HashSet<>(); // filters this client found drained
                    try (HttpClient http = HttpClient.newBuilder()
                            .version(HttpClient.Version.HTTP_1_1)
                            .build()) {
                        go.await();
                        for (int i = 0; i < 30_000 && !drained(empty); i++) {
                            String upstream = upstreams.length > 1 && random.nextBoolean()
                                    ? upstreams[random.nextInt(upstreams.length)]
                                    : null;
                            String country = COUNTRIES[random.nextInt(COUNTRIES.length)];
                            int kind = random.nextInt(3); // 0: no protocol, 1: all three, 2: no type
                            String type = kind == 2 ? null : TYPES[random.nextInt(TYPES.length)];
                            String protocol = kind == 0 ? null : PROTOCOLS[random.nextInt(PROTOCOLS.length)];
                            String want = any(upstream) + "/" + country + "/" + any(type) + "/" + any(protocol);
                            if (empty.contains(want)) {
                                continue;
                            }
                            int count = 1 + random.nextInt(20);
                            boolean all = random.nextInt(4) == 0;
                            HttpResponse<String> r = extract(http, uri, count, all, upstream, country, type, protocol);
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
                                if (!matches(want, combo.get(id))) {
                                    problems.add(id + " (" + combo.get(id) + ") handed out for " + want);
                                }
                            }
                            handedOut.addAll(ids);
                            if (!all && ids.size() < count) {
                                empty.add(want); // partial short: the filter is drained
                            }
                        }
                        if (!drained(empty)) {
                            problems.add(Thread.currentThread().getName() + " did not see every filter drained");
                        }
                    } catch (Exception e) {
                        problems.add(e.toString());
                    }
                }));
            }
            go.countDown();
            for (Thread t : threads) {
                t.join(300_000);
            }

            assertEquals(List.of(), List.copyOf(problems));
            List<String> all = new ArrayList<>(handedOut);
            Set<String> unique = new HashSet<>(all);
            assertEquals(all.size(), unique.size(), "a proxy was handed out twice");
            assertEquals(proxies, unique.size(), "every proxy handed out once");
            assertTrue(combo.keySet().containsAll(unique), "only seeded proxies are handed out");
            assertEquals(0, available(store, upstreams), "the pool is drained: the count is exact");
        } finally {
            RedisE2e.deleteKeys(6379, prefix);
        }
    }

    /** The available proxies of the pool over {@code upstreams}. */
    private static int available(RedisPoolStore store, String[] upstreams) {
        int n = 0;
        for (String u : upstreams) {
            n += store.available(u);
        }
        return n;
    }

    /** A filter's part, {@code *} when it has none. */
    private static String any(String part) {
        return part == null ? "*" : part;
    }

    /**
     * Whether every (country, type) filter without an upstream or a protocol was found drained: then
     * the pool is empty.
     */
    private static boolean drained(Set<String> empty) {
        for (String country : COUNTRIES) {
            for (String type : TYPES) {
                if (!empty.contains("*/" + country + "/" + type + "/*")) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether a proxy's "upstream/country/type/protocol" matches a filter's, where {@code *} is any. */
    private static boolean matches(String want, String got) {
        if (got == null) {
            return false;
        }
        String[] w = want.split("/");
        String[] g = got.split("/");
        for (int i = 0; i < 4; i++) {
            if (!w[i].equals("*") && !w[i].equals(g[i])) {
                return false;
            }
        }
        return true;
    }

    private static HttpResponse<String> extract(
            HttpClient http,
            URI uri,
            int count,
            boolean allOrNothing,
            String upstream,
            String country,
            String type,
            String protocol)
            throws Exception {
        String body = "{\"count\": " + count + ", \"fulfillment\": \"" + (allOrNothing ? "allOrNothing" : "partial")
                + "\", \"filter\": {\"country\": \"" + country + "\""
                + (upstream == null ? "" : ", \"upstream\": \"" + upstream + "\"")
                + (protocol == null ? "" : ", \"protocol\": \"" + protocol + "\"")
                + (type == null ? "" : ", \"labels\": {\"type\": \"" + type + "\"}")
                + "}}";
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
