package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.proxypool.core.extract.ExtractedProxy;
import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.ProxyFixtures;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Anonymity;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/**
 * The fast path (extract_fast.lua) answers a proxy's record from its fast item (common.lua T f: the
 * record after its 'r'), without reading the stored value (T r): one command less per extraction.
 * A fast item written by the version before (its set terms after an 's', no record) is still served
 * whole: the record is cut from the stored value in Lua, by token lengths that count UTF-8 bytes.
 * Records with multi-byte characters, ':' and newlines in labels, provider and id, extracted by every
 * fast-path shape (count=1 filtered and not, several requests in one call, count > 1), come back equal to what
 * was published. Real redis-server (private); {@link LayoutAudit} checks that each fast item's record
 * is its stored value's.
 */
@Tag("slow")
class FastRecordTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final String[] COUNTRIES = {"US", "DE"};
    private static final int POOL = 64;

    /** Rewrites every fast item to the previous version's shape: 's' and no record. */
    private static final String TO_PREVIOUS_SHAPE = """
            local n = 0
            local all = redis.call('HGETALL', KEYS[1])
            for i = 1, #all, 2 do
              local t = { cmsgpack.unpack(all[i + 1]) }
              if t[4] == 'r' then
                table.remove(t, 5)
                t[4] = 's'
                redis.call('HSET', KEYS[1], all[i], cmsgpack.pack(unpack(t)))
                n = n + 1
              end
            end
            return n
            """;

    @RegisterExtension
    static final PrivateRedis server = new PrivateRedis();

    @Test
    void everyRecordComesBackWholeFromTheFastItem() {
        served("ppfastrec:", false);
    }

    @Test
    void aFastItemOfThePreviousVersionIsServedFromTheStoredValue() {
        served("ppfastold:", true);
    }

    /**
     * Publishes the pool under {@code prefix} (its fast items rewritten to the previous shape when
     * {@code previous}), extracts all of it on the fast path and checks each record against the
     * published proxy, and that a count=1 extraction reads the stored value only for the previous shape.
     */
    private static void served(String prefix, boolean previous) {
        Map<String, Proxy> published = new HashMap<>();
        try (RedisPoolStore store = TestRedis.privateStore(server.port(), prefix, StoreSettings.DEFAULTS);
                RedisClient c = RedisClient.builder()
                        .hostAndPort("127.0.0.1", server.port())
                        .build()) {
            List<Proxy> proxies = new ArrayList<>();
            for (int n = 0; n < POOL; n++) {
                Proxy p = awkward(n);
                proxies.add(p);
                published.put(p.id(), p);
            }
            assertEquals(POOL, store.upsert(proxies, NOW).added());
            String tag = new RedisKeys(prefix).poolTag();
            if (previous) {
                assertEquals((long) POOL, c.eval(TO_PREVIOUS_SHAPE, List.of(tag + "f"), List.of()), "every fast item");
            }
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix), "layout before");

            List<ExtractedProxy> got = new ArrayList<>();
            // count=1 with a 2-label filter (a combination set): the common call, its commands counted
            Map<String, Long> commands = TestRedis.commandsOf(
                    server.port(),
                    () -> got.addAll(extracted(
                            store,
                            ExtractionRequest.builder(1).filter(twoLabels(0)).build())));
            assertEquals(
                    previous ? 1L : 0L,
                    commands.getOrDefault("hmget", 0L),
                    "the stored value read only for a fast item without the record: " + commands);
            assertEquals(1L, commands.get("hget"), "one HGET, of the fast item: " + commands);
            // count=1 unfiltered
            got.addAll(extracted(store, ExtractionRequest.builder(1).build()));
            // four count=1 requests in one call, as the store's coalescer sends concurrent ones
            List<RedisPoolStore.FastOne> batch = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                batch.add(RedisPoolStore.fastOne(
                                new RedisKeys(prefix),
                                ExtractionRequest.builder(1)
                                        .filter(twoLabels(i % 2))
                                        .build(),
                                NOW,
                                StoreSettings.DEFAULTS,
                                "0",
                                0)
                        .orElseThrow());
            }
            RedisPoolStore.FastCall call = RedisPoolStore.fastCallOf(new RedisKeys(prefix), batch);
            List<?> reply = (List<?>)
                    c.fcall(RedisPoolStore.LIBRARY.function(RedisPoolStore.EXTRACT_FAST), call.keys(), call.args());
            for (Object record : RedisPoolStore.answersOf(reply, batch.size())) {
                got.add(new ExtractedProxy(ProxyCodec.decode(RedisReplies.string(record)), NOW));
            }
            // count > 1, filtered and not
            got.addAll(extracted(
                    store, ExtractionRequest.builder(5).filter(twoLabels(1)).build()));
            got.addAll(extracted(store, ExtractionRequest.builder(7).build()));
            assertEquals(0, store.generalExtractionCalls(), "all of them answered by the fast path");

            assertEquals(1 + 1 + 4 + 5 + 7, got.size(), "every request served");
            for (ExtractedProxy e : got) {
                Proxy p = published.remove(e.proxy().id());
                assertEquals(p, e.proxy(), "the record of " + e.proxy().id() + ", whole (null: extracted twice)");
            }
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix), "layout after");
        }
    }

    private static List<ExtractedProxy> extracted(RedisPoolStore store, ExtractionRequest request) {
        ExtractionResult r = store.extract(request, NOW);
        return assertInstanceOf(ExtractionResult.Extracted.class, r, "extracted")
                .proxies();
    }

    private static ExtractionFilter twoLabels(int country) {
        return ExtractionFilter.builder()
                .country(COUNTRIES[country])
                .label("type", "residential")
                .build();
    }

    /** Proxy {@code n}: a record whose byte lengths differ from its character counts, with ':' and newlines. */
    private static Proxy awkward(int n) {
        return ProxyFixtures.builder(n)
                .id("p:" + n + " \u00e9t\u00e9")
                .provider("p:1:\u6771\u4eac")
                .anonymity(Anonymity.ANONYMOUS)
                .labels(Labels.of(
                        "country",
                        COUNTRIES[n % 2],
                        "type",
                        "residential",
                        "caf\u00e9",
                        "\u00e9t\u00e9 \u6771\u4eac",
                        "a:b",
                        "c=d",
                        "nl",
                        "one\ntwo"))
                .expiresAt(NOW.plus(Duration.ofHours(1)).plusSeconds(n))
                .build();
    }
}
