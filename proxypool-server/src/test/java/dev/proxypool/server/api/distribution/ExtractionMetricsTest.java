package dev.proxypool.server.api.distribution;

import static dev.proxypool.server.api.distribution.DistributionFixture.START;
import static dev.proxypool.server.api.distribution.DistributionFixture.proxies;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Meter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Tag;
import io.helidon.service.registry.Services;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every outcome is counted under its closed result tag; nothing is labelled by client or proxy. */
class ExtractionMetricsTest {

    private final MeterRegistry registry = Services.get(MeterRegistry.class);

    private long count(ExtractionOutcome o) {
        return registry.counter("proxypool.extraction.requests", List.of(Tag.create("result", o.tag())))
                .map(Counter::count)
                .orElse(0L);
    }

    private long proxiesCounted() {
        return registry.counter("proxypool.extraction.proxies", List.of())
                .map(Counter::count)
                .orElse(0L);
    }

    @Test
    void outcomesAreCountedByResultAndNeverByClientOrProxy() throws Exception {
        List<Proxy> pool = proxies(10, "lab", Protocol.HTTP, "", START.plusSeconds(3600));
        try (DistributionFixture f =
                DistributionFixture.with(pool).quotas(Map.of("bob", 1)).start()) {
            Map<ExtractionOutcome, Long> before = new EnumMap<>(ExtractionOutcome.class);
            for (ExtractionOutcome o : ExtractionOutcome.values()) {
                before.put(o, count(o));
            }
            long proxiesBefore = proxiesCounted();

            f.alice("{\"count\": 2}", "Idempotency-Key", "k"); // ok (2 proxies)
            f.alice("{\"count\": 2}", "Idempotency-Key", "k"); // replayed
            f.alice("{\"count\": 3}", "Idempotency-Key", "k"); // conflict (422)
            f.alice("{\"count\": 50, \"fulfillment\": \"allOrNothing\"}"); // insufficient
            f.alice("{\"count\": 0}"); // invalid
            f.post("wrong", "{\"count\": 1}"); // unauthorized
            f.post(DistributionFixture.BOB_TOKEN, "{\"count\": 1}"); // ok (1 proxy)
            f.post(DistributionFixture.BOB_TOKEN, "{\"count\": 1}"); // quota
            f.store.down(true);
            f.alice("{\"count\": 1}"); // unavailable
            f.store.down(false);
            f.alice("{\"count\": 20}"); // partial (7 proxies)

            Map<ExtractionOutcome, Long> expected = Map.of(
                    ExtractionOutcome.OK,
                    2L,
                    ExtractionOutcome.REPLAYED,
                    1L,
                    ExtractionOutcome.CONFLICT,
                    1L,
                    ExtractionOutcome.INSUFFICIENT,
                    1L,
                    ExtractionOutcome.INVALID,
                    1L,
                    ExtractionOutcome.UNAUTHORIZED,
                    1L,
                    ExtractionOutcome.QUOTA,
                    1L,
                    ExtractionOutcome.UNAVAILABLE,
                    1L,
                    ExtractionOutcome.PARTIAL,
                    1L);
            for (ExtractionOutcome o : ExtractionOutcome.values()) {
                assertEquals(expected.getOrDefault(o, 0L), count(o) - before.get(o), o.tag());
            }
            assertEquals(10, proxiesCounted() - proxiesBefore, "proxies handed out, replays not counted again");

            for (Meter m : registry.meters()) {
                if (!m.id().name().startsWith("proxypool.extraction")) {
                    continue;
                }
                for (String value : m.id().tagsMap().values()) {
                    assertFalse(
                            value.equals("alice")
                                    || value.equals("bob")
                                    || value.startsWith("p-")
                                    || value.contains("10."),
                            m.id().name() + " has a high-cardinality tag " + value);
                }
            }
        }
    }
}
