package dev.proxypool.sdk.pipeline;

import dev.proxypool.core.model.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Step 2 of the pipeline (docs/design.md#collection-pipeline, P6–P8): turns fetched candidates into validated proxies with their
 * measured latency and exit network. The validator implements it; {@link #NONE} passes everything
 * through unmeasured (for {@code validate: false} inventories and tests).
 */
@FunctionalInterface
public interface ValidationStage {

    /** One candidate that passed: the proxy (exit network and anonymity filled in) and its latency. */
    record Validated(Proxy proxy, double latencyMs) {}

    List<Validated> validate(List<Proxy> candidates);

    /**
     * Like {@link #validate(List)}, also telling {@code rejected} why candidates were kept out: one
     * reason code (e.g. {@code connect_timeout}) per rejected candidate, possibly from several
     * threads. The default tells nothing; the pipeline then counts the missing ones as
     * {@code validation_failed}.
     */
    default List<Validated> validate(List<Proxy> candidates, Consumer<String> rejected) {
        return validate(candidates);
    }

    /** No validation: every candidate passes with an unknown (zero) latency. */
    ValidationStage NONE = candidates -> {
        List<Validated> out = new ArrayList<>(candidates.size());
        for (Proxy p : candidates) {
            out.add(new Validated(p, 0));
        }
        return out;
    };
}
