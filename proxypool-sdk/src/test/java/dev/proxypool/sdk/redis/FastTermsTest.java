package dev.proxypool.sdk.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.extract.ExtractionFilter;
import dev.proxypool.core.extract.ExtractionRequest;
import dev.proxypool.core.extract.ExtractionResult;
import dev.proxypool.core.extract.ProxyFixtures;
import dev.proxypool.core.extract.StoreSettings;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;

/**
 * The fast path (extract_fast.lua) takes a popped proxy as a match of the set it was popped from only
 * when its fast item (common.lua T f) lists that set's term as one of its items, whole: a proxy
 * published again with other labels, one of whose new terms holds an old term's bytes with that
 * term's MessagePack header in front (a label value with "ñ", UTF-8 C3 B1, where B1 is the header of
 * a 17-byte string), is a stale member of its old term's set and is not extracted by it (so a search
 * of the item's bytes for the encoded term would be wrong); terms of every header size (under 32
 * bytes, under 256, and longer) are found, and one of the same length but other bytes is not.
 * Real redis-server (private).
 */
@Tag("slow")
class FastTermsTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    @RegisterExtension
    static final PrivateRedis server = new PrivateRedis();

    @Test
    void aTermInsideAnotherTermIsNotListed() {
        String prefix = "ppterms1:";
        try (RedisPoolStore store = TestRedis.privateStore(server.port(), prefix, StoreSettings.DEFAULTS);
                RedisClient c = client()) {
            Proxy before = proxy(1, "US", "residential");
            store.upsert(List.of(before), NOW);
            // published again: another country, and a type whose term holds 0xB1 "14:l:7:country=US"
            String trap = "\u00f114:l:7:country=US";
            Proxy after = proxy(1, "DE", trap);
            store.upsert(List.of(after), NOW);
            String usSet = new RedisKeys(prefix).set("14:l:7:country=US");
            byte[] item = c.hget(
                    (new RedisKeys(prefix).poolTag() + "f").getBytes(StandardCharsets.UTF_8),
                    before.id().getBytes(StandardCharsets.UTF_8));
            assertTrue(contains(item, (char) 0xB1 + "14:l:7:country=US"), "the trap is in its fast item");
            assertTrue(c.sismember(usSet, before.id()), "still a member of the old term's set (lazy cleanup)");

            ExtractionResult old = store.extract(
                    ExtractionRequest.builder(1)
                            .filter(ExtractionFilter.builder().country("US").build())
                            .build(),
                    NOW);
            assertEquals(List.of(), proxies(old), "no proxy of the US");
            assertFalse(c.sismember(usSet, before.id()), "the stale member dropped by the fast path's pop");

            ExtractionResult now = store.extract(
                    ExtractionRequest.builder(1)
                            .filter(ExtractionFilter.builder()
                                    .country("DE")
                                    .label("type", trap)
                                    .build())
                            .build(),
                    NOW);
            assertEquals(List.of(after), proxies(now), "found by its new terms");
            assertEquals(1, store.generalExtractionCalls(), "only the shortfall took the general script");
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix), "layout");
        }
    }

    @Test
    void termsOfEveryLengthAreFoundAndOneOfTheSameLengthIsNot() {
        String prefix = "ppterms2:";
        String long1 = "A".repeat(299) + "1"; // a term over 255 bytes: a 3-byte header
        String long2 = "A".repeat(299) + "2"; // the same length, one byte apart
        String mid = "m".repeat(40); // a term between 32 and 255 bytes: a 2-byte header
        try (RedisPoolStore store = TestRedis.privateStore(server.port(), prefix, StoreSettings.DEFAULTS);
                RedisClient c = client()) {
            Proxy moved = proxy(1, long1, mid);
            store.upsert(List.of(moved), NOW);
            Proxy movedAgain = proxy(1, long2, mid); // published again: now in long2's sets
            Proxy other = proxy(2, long2, mid);
            store.upsert(List.of(movedAgain, other), NOW);

            ExtractionResult none = store.extract(
                    ExtractionRequest.builder(1)
                            .filter(ExtractionFilter.builder()
                                    .country(long1)
                                    .label("type", mid)
                                    .build())
                            .build(),
                    NOW);
            assertEquals(List.of(), proxies(none), "none of 299 x 'A' then '1'");

            // long2 with the upstream: its set popped, the upstream's term tested in T f (the other terms)
            ExtractionFilter withUpstream = ExtractionFilter.builder()
                    .country(long2)
                    .label("type", mid)
                    .upstream(ProxyFixtures.UPSTREAM)
                    .build();
            List<Proxy> got = new ArrayList<>();
            got.addAll(proxies(store.extract(
                    ExtractionRequest.builder(1).filter(withUpstream).build(), NOW)));
            got.addAll(proxies(store.extract(
                    ExtractionRequest.builder(1)
                            .filter(ExtractionFilter.builder().country(long2).build())
                            .build(),
                    NOW)));
            assertEquals(2, got.size(), "both served: " + got);
            assertTrue(got.containsAll(List.of(movedAgain, other)), "each once: " + got);
            assertEquals(1, store.generalExtractionCalls(), "only the shortfall took the general script");
            assertEquals(List.of(), LayoutAudit.problems("127.0.0.1", server.port(), prefix), "layout");
        }
    }

    private static Proxy proxy(int n, String country, String type) {
        return ProxyFixtures.builder(n)
                .labels(Labels.of("country", country, "type", type))
                .expiresAt(NOW.plus(Duration.ofHours(1)))
                .build();
    }

    private static List<Proxy> proxies(ExtractionResult r) {
        return assertInstanceOf(ExtractionResult.Extracted.class, r, "extracted").proxies().stream()
                .map(e -> e.proxy())
                .toList();
    }

    /** Whether {@code haystack} holds {@code needle}'s chars as bytes (each below 256). */
    private static boolean contains(byte[] haystack, String needle) {
        return new String(haystack, StandardCharsets.ISO_8859_1).contains(needle);
    }

    private static RedisClient client() {
        return RedisClient.builder().hostAndPort("127.0.0.1", server.port()).build();
    }
}
