package dev.proxypool.server.api.lease;

import dev.proxypool.core.health.FailureKind;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Tag;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Acquire API metrics in the Helidon registry ({@code /observe/metrics}); low cardinality, never by
 * client, proxy or lease:
 * <ul>
 *   <li>{@code proxypool.lease.acquires{result}}: {@code ok}, {@code replayed}, {@code no_candidate},
 *       {@code session_lost}, {@code no_route}, {@code credentials_unavailable}, {@code refused}
 *       (invalid, unauthorized, idempotency conflicts)</li>
 *   <li>{@code proxypool.lease.releases{outcome}}: {@code ok}, {@code abandoned}, each failure kind</li>
 *   <li>{@code proxypool.lease.expired}: leases the server released at their {@code expiresAt}
 *       ({@code lease_expired})</li>
 * </ul>
 * Every meter is created up front (closed tag sets).
 */
final class LeaseMetrics {

    static final List<String> RESULTS =
            List.of("ok", "replayed", "no_candidate", "session_lost", "no_route", "credentials_unavailable", "refused");

    private final Map<String, Counter> acquires = new HashMap<>();
    private final Map<String, Counter> releases = new HashMap<>();
    private final Counter expired;

    LeaseMetrics(MeterRegistry registry) {
        for (String r : RESULTS) {
            acquires.put(
                    r,
                    registry.getOrCreate(Counter.builder("proxypool.lease.acquires")
                            .description("Remote acquire requests by result")
                            .tags(List.of(Tag.create("result", r)))));
        }
        for (String o : outcomes()) {
            releases.put(
                    o,
                    registry.getOrCreate(Counter.builder("proxypool.lease.releases")
                            .description("Leases released by their clients, by outcome")
                            .tags(List.of(Tag.create("outcome", o)))));
        }
        expired = registry.getOrCreate(Counter.builder("proxypool.lease.expired")
                .description("Leases released by the server at their expiresAt (lease_expired)"));
    }

    private static List<String> outcomes() {
        List<String> all = new ArrayList<>();
        all.add(ReleaseCall.OK);
        all.add(ReleaseCall.ABANDONED);
        for (FailureKind k : FailureKind.values()) {
            all.add(k.wireName());
        }
        return all;
    }

    void acquire(String result) {
        Counter c = acquires.get(result);
        (c != null ? c : acquires.get("refused")).increment();
    }

    void release(String outcome) {
        Counter c = releases.get(outcome);
        if (c != null) {
            c.increment();
        }
    }

    void expired() {
        expired.increment();
    }

    long expiredCount() {
        return expired.count();
    }
}
