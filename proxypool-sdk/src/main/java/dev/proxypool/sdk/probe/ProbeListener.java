package dev.proxypool.sdk.probe;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.Proxy;
import java.net.URI;
import java.time.Duration;

/**
 * Hook for metrics and logs, told about each probe outcome and each finished round. Called from
 * the prober's worker threads, concurrently: implementations must be thread-safe and quick, and
 * should label metrics by outcome and kind only (never by proxy id or address, docs/design.md#observability O1).
 * Exceptions thrown here are ignored.
 */
public interface ProbeListener {

    default void succeeded(Proxy proxy, URI target, Duration latency) {}

    default void failed(Proxy proxy, URI target, FailureKind kind) {}

    /** A failure against {@code target} not counted: the proxy then worked against another target. */
    default void excused(Proxy proxy, URI target, FailureKind kind) {}

    default void skipped(Proxy proxy) {}

    default void roundCompleted(ProbeRound round) {}

    static ProbeListener none() {
        return new ProbeListener() {};
    }
}
