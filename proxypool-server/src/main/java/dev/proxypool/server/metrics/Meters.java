package dev.proxypool.server.metrics;

import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.FunctionalCounter;
import io.helidon.metrics.api.Gauge;
import io.helidon.metrics.api.Meter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Tag;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

/** The meters one binding created, so {@link #removeAll()} takes exactly those out of the registry. */
final class Meters {

    private final MeterRegistry registry;
    private final Queue<Meter> created = new ConcurrentLinkedQueue<>();
    /** The states of the functional counters created, held strongly (the registry holds them weakly). */
    private final Queue<Supplier<Long>> held = new ConcurrentLinkedQueue<>();

    Meters(MeterRegistry registry) {
        this.registry = registry;
    }

    MeterRegistry registry() {
        return registry;
    }

    Counter counter(String name, String description, List<Tag> tags) {
        Counter c = registry.getOrCreate(
                Counter.builder(name).description(description).tags(tags));
        created.add(c);
        return c;
    }

    /** A supplier-based gauge (held strongly by the registry, so it never reads a collected object). */
    void gauge(String name, String description, List<Tag> tags, Supplier<Double> value) {
        created.add(registry.getOrCreate(
                Gauge.builder(name, value).description(description).tags(tags)));
    }

    /**
     * A counter read from {@code value} (a monotonic count kept elsewhere) at each scrape. The
     * registry holds a functional counter's state weakly, so the supplier is held here as long as
     * the meter: a collected one would read 0.
     */
    void functionalCounter(String name, String description, List<Tag> tags, Supplier<Long> value) {
        held.add(value);
        created.add(registry.getOrCreate(FunctionalCounter.builder(name, value, Supplier::get)
                .description(description)
                .tags(tags)));
    }

    void removeAll() {
        for (Meter m; (m = created.poll()) != null; ) {
            registry.remove(m);
        }
        held.clear();
    }
}
