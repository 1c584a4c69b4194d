package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.ProxyFixtures;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.testkit.PrivateRedisServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;

/**
 * The pool scripts run as Redis Functions (RedisLibrary: FUNCTION LOAD once, FCALL per call), on a
 * private redis-server (FUNCTION FLUSH must not touch the shared one): the store calls them by
 * FCALL, not EVALSHA, and when Redis lost the library (restarted empty, a node that never had it) the
 * next call loads it and runs, as NOSCRIPT recovery does for scripts.
 */
class RedisFunctionsTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void poolScriptsRunAsFunctionsAndTheLibraryIsReloadedWhenRedisLostIt() {
        try (PrivateRedisServer server = PrivateRedisServer.start();
                RedisClient c = RedisClient.builder()
                        .hostAndPort("127.0.0.1", server.port())
                        .build()) {
            RedisPoolStore store = RedisPoolStore.connect(
                    new RedisStoreConfig(
                            "127.0.0.1",
                            server.port(),
                            "",
                            "",
                            0,
                            "ppfn:",
                            Duration.ofSeconds(2),
                            Duration.ofSeconds(10),
                            2),
                    StoreSettings.DEFAULTS);
            try {
                assertTrue(libraries(c).contains(RedisPoolStore.LIBRARY.name()), "the library is loaded at start");
                List<Proxy> proxies = new ArrayList<>();
                for (int n = 0; n < 40; n++) {
                    proxies.add(ProxyFixtures.builder(n)
                            .labels(Labels.of("country", n % 2 == 0 ? "US" : "DE", "type", "dc"))
                            .build());
                }
                c.sendCommand(Protocol.Command.CONFIG, "RESETSTAT");
                assertEquals(40, store.upsert(proxies, NOW).added());
                Set<String> seen = new HashSet<>();
                take(store, seen, "US");
                String stats = c.info("commandstats");
                assertTrue(stats.contains("cmdstat_fcall:calls=2,"), "publish and extract by FCALL: " + stats);
                assertFalse(stats.contains("cmdstat_evalsha"), "no EVALSHA of a pool script: " + stats);

                c.sendCommand(Protocol.Command.FUNCTION, "FLUSH"); // Redis lost the library
                take(store, seen, "DE");
                assertTrue(
                        libraries(c).contains(RedisPoolStore.LIBRARY.name()),
                        "the extraction that found it missing loaded it again");
                c.sendCommand(Protocol.Command.FUNCTION, "FLUSH");
                assertEquals(0, store.upsert(proxies.subList(0, 1), NOW).added(), "a publish reloads it too");
                for (int i = 0; i < 8; i++) {
                    take(store, seen, i % 2 == 0 ? "US" : "DE");
                }
                assertEquals(10, seen.size(), "every extraction a different proxy");
                assertEquals(
                        30,
                        store.countsByUpstream().values().stream()
                                .mapToInt(u -> u.available())
                                .sum(),
                        "the counts exact");
            } finally {
                store.close();
            }
        }
    }

    private static List<String> libraries(RedisClient c) {
        return c.functionList().stream().map(l -> l.getLibraryName()).toList();
    }

    private static void take(RedisPoolStore store, Set<String> seen, String country) {
        ExtractionResult r = store.extract(
                ExtractionRequest.builder(1)
                        .filter(ExtractionFilter.builder()
                                .country(country)
                                .label("type", "dc")
                                .build())
                        .build(),
                NOW);
        assertTrue(r instanceof ExtractionResult.Extracted e && e.count() == 1, "one proxy: " + r);
        String id = ((ExtractionResult.Extracted) r).proxies().get(0).proxy().id();
        assertEquals(
                country,
                ((ExtractionResult.Extracted) r)
                        .proxies()
                        .get(0)
                        .proxy()
                        .labels()
                        .get("country"));
        assertTrue(seen.add(id), "extracted twice: " + id);
    }
}
