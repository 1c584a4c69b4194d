package dev.proxypool.server.api.distribution;

import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Tag;
import java.util.List;

/**
 * Distribution API metrics in the Helidon (Micrometer-backed) registry, served at
 * {@code /observe/metrics}. Low cardinality: never labelled by client, proxy or address.
 * <ul>
 *   <li>{@code proxypool.extraction.requests{result}}: counter, result = {@link ExtractionOutcome}</li>
 *   <li>{@code proxypool.extraction.proxies}: counter of proxies handed out</li>
 *   <li>{@code proxypool.extraction.withheld}: counter of proxies that left the pool but were not
 *       handed out because their credentials could not be resolved</li>
 * </ul>
 * Every meter is created up front (closed tag set).
 */
final class ExtractionMetrics {

    private final Counter[] requests = new Counter[ExtractionOutcome.values().length];
    private final Counter proxies;
    private final Counter withheld;

    ExtractionMetrics(MeterRegistry registry) {
        for (ExtractionOutcome o : ExtractionOutcome.values()) {
            requests[o.ordinal()] = registry.getOrCreate(Counter.builder("proxypool.extraction.requests")
                    .description("Distribution API extraction requests by result")
                    .tags(List.of(Tag.create("result", o.tag()))));
        }
        proxies = registry.getOrCreate(Counter.builder("proxypool.extraction.proxies")
                .description("Proxies handed out by the Distribution API"));
        withheld = registry.getOrCreate(Counter.builder("proxypool.extraction.withheld")
                .description("Extracted proxies withheld because their credentials could not be resolved"));
    }

    void request(ExtractionOutcome outcome) {
        requests[outcome.ordinal()].increment();
    }

    void proxies(int n) {
        if (n > 0) {
            proxies.increment(n);
        }
    }

    void withheld(int n) {
        if (n > 0) {
            withheld.increment(n);
        }
    }

    long count(ExtractionOutcome outcome) {
        return requests[outcome.ordinal()].count();
    }

    long proxies() {
        return proxies.count();
    }
}
