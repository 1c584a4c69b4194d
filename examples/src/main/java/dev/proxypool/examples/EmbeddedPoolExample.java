package dev.proxypool.examples;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.ExtractedProxyView;
import dev.proxypool.sdk.Extraction;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.sdk.Selection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Embedding the pool with the application's own inventory: lease a proxy per request, report the
 * outcome, and extract a few proxies for exclusive use.
 *
 * <p>Run: {@code java -cp ... dev.proxypool.examples.EmbeddedPoolExample}
 */
public final class EmbeddedPoolExample {

    private EmbeddedPoolExample() {}

    /** What the example did, for its test. */
    public record Outcome(List<String> leasedIds, List<String> extractedIds, int inFlightAfter) {}

    public static Outcome run() {
        List<Proxy> inventory = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            inventory.add(Proxy.builder(new ProxyKey(Protocol.HTTP, "203.0.113." + i, 8000, CredentialRef.NONE))
                    .upstream("own-inventory")
                    .provider("app")
                    .labels(Labels.of("country", i <= 5 ? "US" : "DE", "type", "datacenter"))
                    .expiresAt(Instant.now().plus(Duration.ofHours(1)))
                    .maxConcurrency(4)
                    .build());
        }
        List<String> leased = new ArrayList<>();
        List<String> extracted = new ArrayList<>();
        try (ProxyPool pool =
                ProxyPool.builder().proxies(inventory).background(false).build()) {
            for (int request = 0; request < 5; request++) {
                try (Lease lease = pool.acquire(Selection.forHost("shop.example"))) {
                    // ... connect to lease.proxy().host():port() and do the request ...
                    lease.connected();
                    lease.succeeded(Duration.ofMillis(80));
                    leased.add(lease.proxyId());
                }
            }
            for (ExtractedProxyView p : pool.extract(Extraction.of(2)
                            .protocol(Protocol.HTTP)
                            .country("US")
                            .allOrNothing())
                    .proxies()) {
                extracted.add(p.id()); // p.url() is ready to use (credentials included): never log it
            }
            return new Outcome(leased, extracted, pool.inFlight());
        }
    }

    public static void main(String[] args) {
        Outcome o = run();
        System.out.println("leased (opaque ids): " + o.leasedIds());
        System.out.println("extracted for exclusive use: " + o.extractedIds());
        System.out.println("in flight after: " + o.inFlightAfter());
    }
}
