package dev.proxypool.server.listener;

import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Tag;
import java.util.List;

/**
 * {@code proxypool.connections.closed{listener, reason}} (Prometheus
 * {@code proxypool_connections_closed_total}): connections a listener closed because a deadline ran out or a
 * limit was reached, so an operator sees a slow-connection flood in {@code /observe/metrics}. The gateway
 * listener counts under the same meter name with {@code listener="gateway"}.
 */
public final class ListenerCloses {

    /** Meter name; Prometheus adds {@code _total}. */
    static final String METER = "proxypool.connections.closed";

    static final String FIRST_REQUEST_TIMEOUT = "first_request_timeout";
    static final String REQUEST_HEAD_TIMEOUT = "request_head_timeout";
    static final String PER_ADDRESS_LIMIT = "per_address_limit";

    private final Counter firstRequest;
    private final Counter requestHead;
    private final Counter perAddress;

    public ListenerCloses(MeterRegistry registry, String listener) {
        this.firstRequest = counter(registry, listener, FIRST_REQUEST_TIMEOUT);
        this.requestHead = counter(registry, listener, REQUEST_HEAD_TIMEOUT);
        this.perAddress = counter(registry, listener, PER_ADDRESS_LIMIT);
    }

    private static Counter counter(MeterRegistry registry, String listener, String reason) {
        return registry.getOrCreate(Counter.builder(METER)
                .description("Connections a listener closed because a deadline ran out or a limit was reached")
                .tags(List.of(Tag.create("listener", listener), Tag.create("reason", reason))));
    }

    void firstRequestTimeout() {
        firstRequest.increment();
    }

    void requestHeadTimeout() {
        requestHead.increment();
    }

    void perAddressLimit() {
        perAddress.increment();
    }
}
