package dev.proxypool.core.extract;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.proxypool.core.model.Anonymity;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Proxies and small helpers for store tests; public so store tests in other modules reuse them. */
public final class ProxyFixtures {

    public static final String UPSTREAM = "up-a";

    private ProxyFixtures() {}

    /** A distinct key per {@code n} (0..16,777,215): {@code 10.x.y.z:8000}. */
    public static ProxyKey key(int n, Protocol protocol) {
        return new ProxyKey(
                protocol,
                "10." + ((n >> 16) & 255) + "." + ((n >> 8) & 255) + "." + (n & 255),
                8000,
                CredentialRef.NONE);
    }

    /** An HTTP proxy of {@link #UPSTREAM}, no labels, no expiry; customize and {@code build()}. */
    public static Proxy.Builder builder(int n) {
        return builder(n, Protocol.HTTP);
    }

    public static Proxy.Builder builder(int n, Protocol protocol) {
        return Proxy.builder(key(n, protocol)).provider("fixture").upstream(UPSTREAM);
    }

    public static Proxy proxy(int n) {
        return builder(n).build();
    }

    /** A proxy with every field set away from its default, to prove a store keeps the whole record. */
    public static Proxy rich(int n) {
        return Proxy.builder(
                        new ProxyKey(Protocol.SOCKS5, "192.0.2." + (n & 255), 1080 + n, CredentialRef.of("vendor-a")))
                .provider("vendor-a")
                .upstream("vendor-a-us")
                .labels(Labels.of("country", "US", "type", "residential", "asn", "64500"))
                .expiresAt(java.time.Instant.parse("2026-01-01T06:30:00Z"))
                .maxConcurrency(7)
                .weight(3)
                .exitNetwork(new ExitNetwork("198.51.100.9", 64500, "Example Net", "198.51.100.0/24"))
                .anonymity(Anonymity.ELITE)
                .build();
    }

    /** The extracted proxies, failing the test when the result is {@link ExtractionResult.Insufficient}. */
    public static List<ExtractedProxy> extracted(ExtractionResult result) {
        return switch (result) {
            case ExtractionResult.Extracted e -> e.proxies();
            case ExtractionResult.Insufficient i -> fail("expected an extraction, got " + i);
        };
    }

    public static Set<String> extractedIds(ExtractionResult result) {
        TreeSet<String> ids = new TreeSet<>();
        for (ExtractedProxy p : extracted(result)) {
            assertTrue(ids.add(p.id()), "extraction returned " + p.id() + " twice");
        }
        return ids;
    }

    public static Set<String> ids(List<Proxy> proxies) {
        TreeSet<String> ids = new TreeSet<>();
        proxies.forEach(p -> ids.add(p.id()));
        return ids;
    }

    /** Every stored proxy matching {@code query}, following cursors page by page. */
    public static List<StoredProxy> listAll(PoolStore store, PoolQuery query, int limit) {
        List<StoredProxy> all = new ArrayList<>();
        String cursor = PageRequest.FIRST;
        for (int pages = 0; ; pages++) {
            if (pages > 1_000_000) {
                fail("listing never ends");
            }
            ProxyPage page = store.list(query, new PageRequest(cursor, limit));
            assertTrue(
                    page.proxies().size() <= limit,
                    "page larger than its limit: " + page.proxies().size());
            all.addAll(page.proxies());
            if (!page.hasMore()) {
                return all;
            }
            cursor = page.nextCursor();
        }
    }

    public static List<StoredProxy> listAll(PoolStore store) {
        return listAll(store, PoolQuery.ALL, PageRequest.MAX_LIMIT);
    }
}
