package dev.proxypool.server.metrics;

import dev.proxypool.server.gateway.ClosedReason;
import dev.proxypool.server.gateway.ExchangeResult;
import dev.proxypool.server.gateway.GatewayErrors;
import dev.proxypool.server.gateway.GatewayMetrics;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Gauge;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Tag;
import io.helidon.metrics.api.Timer;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Gateway metrics in the Helidon (Micrometer-backed) registry, served at {@code /observe/metrics}:
 * <ul>
 *   <li>{@code proxypool.gateway.requests{kind, result}}: counter, kind = http|connect|socks (the
 *       SOCKS5 listener's tunnels), result =
 *       {@link ExchangeResult}</li>
 *   <li>{@code proxypool.gateway.latency{kind}}: timer, exported as the Prometheus histogram
 *       {@code proxypool_gateway_latency_seconds} with the fixed {@link #LATENCY_BUCKETS} (no
 *       client-side quantiles: P50/P95/P99 come from {@code histogram_quantile} over the buckets,
 *       which also aggregates across workers)</li>
 *   <li>{@code proxypool.gateway.inflight}: gauge of requests and tunnels in progress</li>
 *   <li>{@code proxypool.gateway.errors{reason}}: counter, reason = {@link GatewayErrors}</li>
 *   <li>{@code proxypool.gateway.retries}: counter</li>
 *   <li>{@code proxypool.connections.closed{listener, reason}}: counter of client connections a listener
 *       closed by itself, listener = gateway|socks, reason = {@link ClosedReason} (a deadline or a cap)</li>
 * </ul>
 * Every meter is created up front (closed tag sets), so the hot path only indexes arrays.
 */
public final class HelidonGatewayMetrics implements GatewayMetrics {

    /**
     * Upper bounds of the latency histogram's buckets (plus {@code +Inf}): few, so a scrape stays
     * small (16 series per kind), spanning a fast loopback exchange (1 ms) to a long tunnel (5 min).
     */
    private static final Duration[] LATENCY_BUCKETS = {
        Duration.ofMillis(1),
        Duration.ofMillis(5),
        Duration.ofMillis(10),
        Duration.ofMillis(25),
        Duration.ofMillis(50),
        Duration.ofMillis(100),
        Duration.ofMillis(250),
        Duration.ofMillis(500),
        Duration.ofSeconds(1),
        Duration.ofMillis(2500),
        Duration.ofSeconds(5),
        Duration.ofSeconds(10),
        Duration.ofSeconds(30),
        Duration.ofSeconds(60),
        Duration.ofSeconds(300)
    };

    private final Counter[][] requests = new Counter[3][ExchangeResult.values().length];
    private final Timer[] latency = new Timer[3];
    private final Map<String, Counter> errors = new ConcurrentHashMap<>();
    private final Counter retries;
    private final Map<String, Counter> closed = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final MeterRegistry registry;

    public HelidonGatewayMetrics(MeterRegistry registry) {
        this.registry = registry;
        String[] kinds = {"http", "connect", "socks"};
        for (int k = 0; k < kinds.length; k++) {
            for (ExchangeResult r : ExchangeResult.values()) {
                requests[k][r.ordinal()] = registry.getOrCreate(Counter.builder("proxypool.gateway.requests")
                        .description("Gateway requests and tunnels by outcome")
                        .tags(List.of(Tag.create("kind", kinds[k]), Tag.create("result", r.tag()))));
            }
            latency[k] = registry.getOrCreate(Timer.builder("proxypool.gateway.latency")
                    .description("Gateway request latency (tunnels: whole tunnel lifetime)")
                    .tags(List.of(Tag.create("kind", kinds[k])))
                    .publishPercentileHistogram(false)
                    .percentiles(new double[0]) // none: Helidon's default P50…P99.9 would come out as quantile series
                    .buckets(LATENCY_BUCKETS));
        }
        for (var f : GatewayErrors.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                try {
                    counter((String) f.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        for (String listener : List.of(ClosedReason.LISTENER_GATEWAY, ClosedReason.LISTENER_SOCKS)) {
            for (String reason : List.of(
                    ClosedReason.FIRST_REQUEST_TIMEOUT,
                    ClosedReason.REQUEST_HEAD_TIMEOUT,
                    ClosedReason.MAX_CONNECTIONS,
                    ClosedReason.PER_ADDRESS_LIMIT)) {
                closedCounter(listener, reason);
            }
        }
        retries = registry.getOrCreate(
                Counter.builder("proxypool.gateway.retries").description("Gateway retries on another proxy"));
        registry.getOrCreate(Gauge.builder("proxypool.gateway.inflight", inFlight, AtomicInteger::get)
                .description("Gateway requests and tunnels in progress"));
    }

    private Counter counter(String reason) {
        return errors.computeIfAbsent(
                reason,
                r -> registry.getOrCreate(Counter.builder("proxypool.gateway.errors")
                        .description("Gateway error responses by X-ProxyPool-Error reason")
                        .tags(List.of(Tag.create("reason", r)))));
    }

    private Counter closedCounter(String listener, String reason) {
        return closed.computeIfAbsent(
                listener + ' ' + reason,
                k -> registry.getOrCreate(Counter.builder("proxypool.connections.closed")
                        .description("Connections a listener closed because a deadline ran out or a limit was reached")
                        .tags(List.of(Tag.create("listener", listener), Tag.create("reason", reason)))));
    }

    @Override
    public void connectionClosed(String listener, String reason) {
        closedCounter(listener, reason).increment();
    }

    @Override
    public void started(boolean tunnel) {
        inFlight.incrementAndGet();
    }

    @Override
    public void finished(boolean tunnel, ExchangeResult result, long nanos) {
        finished(tunnel ? 1 : 0, result, nanos);
    }

    @Override
    public void socksFinished(ExchangeResult result, long nanos) {
        finished(2, result, nanos);
    }

    private void finished(int kind, ExchangeResult result, long nanos) {
        inFlight.decrementAndGet();
        requests[kind][result.ordinal()].increment();
        latency[kind].record(Duration.ofNanos(nanos));
    }

    @Override
    public void error(String reason) {
        Counter c = errors.get(reason);
        (c != null ? c : counter(reason)).increment();
    }

    @Override
    public void retried() {
        retries.increment();
    }
}
