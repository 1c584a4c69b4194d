package dev.proxypool.sdk.remote;

import dev.proxypool.core.model.Protocol;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * One proxy of {@code GET /v1/proxy/list}: what a client may acquire under a selection. The address
 * is masked ({@code 203.0.x.x}); acquiring the proxy reveals it.
 *
 * @param id             the proxy's opaque id
 * @param protocol       its protocol
 * @param maskedHost     its host, masked
 * @param port           its port
 * @param upstream       its upstream
 * @param labels         its labels
 * @param state          its health state ({@code HEALTHY}, {@code COOLING}, ...), empty when unknown
 * @param inFlight       capacity units in use
 * @param maxConcurrency its capacity
 * @param acquirable     healthy, with capacity left, not banned for the listed host
 * @param expiresAt      when it leaves the pool, empty when never
 */
public record AcquirableProxy(
        String id,
        Protocol protocol,
        String maskedHost,
        int port,
        String upstream,
        Map<String, String> labels,
        Optional<String> state,
        int inFlight,
        int maxConcurrency,
        boolean acquirable,
        Optional<Instant> expiresAt) {

    /** Copies the labels. */
    public AcquirableProxy {
        labels = Map.copyOf(labels);
    }
}
