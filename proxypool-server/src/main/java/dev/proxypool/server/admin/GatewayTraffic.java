package dev.proxypool.server.admin;

import dev.proxypool.server.gateway.ExchangeListener;
import dev.proxypool.server.gateway.ExchangeRecord;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Tag;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Bytes through this process's gateway per upstream and per client, counted from the ended
 * exchanges ({@link ExchangeListener}: gateway HTTP requests, CONNECT tunnels and SOCKS5
 * connections alike): residential traffic is billed per gigabyte.
 *
 * <p>Two directions, the same for both views: {@code sent} is what the client sent (request heads
 * and bodies, a tunnel's CONNECT head or SOCKS5 handshake and every byte it relayed upstream),
 * {@code received} what the client was sent (response heads and bodies, error pages, a tunnel's
 * replies and every byte it relayed down). An exchange counts against the client it authenticated
 * as ({@value #NONE} when none) and the upstream of the last proxy it tried ({@value #NONE} when it
 * tried none: a denial, an answer before routing).
 *
 * <ul>
 *   <li>Prometheus counters {@code proxypool.gateway.upstream.bytes{upstream, direction}} and
 *       {@code proxypool.gateway.client.bytes{client, direction}} ({@code direction}: {@code sent},
 *       {@code received}). Upstream and client names are configured names, so the label sets are
 *       bounded; past {@value #MAX_KEYS} names in either view (a configuration renamed over and
 *       over) the rest count as {@value #OTHER}.</li>
 *   <li>{@code GET /v1/admin/traffic}: the same totals with the exchanges counted, since the
 *       process started ({@link #view()}).</li>
 * </ul>
 *
 * <p>Cost on the gateway: per exchange, two map lookups and a few adder increments. Thread-safe,
 * never throws into the gateway.
 */
public final class GatewayTraffic implements ExchangeListener {

    /** The name an exchange without a client or an upstream counts under. */
    static final String NONE = "none";
    /** The name counted under once {@value #MAX_KEYS} names were seen. */
    static final String OTHER = "other";
    /** Distinct names kept per view at most. */
    static final int MAX_KEYS = 1024;

    private final MeterRegistry registry;
    private final Instant since;
    private final View upstreams = new View("upstream");
    private final View clients = new View("client");

    /**
     * @param wall     when counting began (the answer's {@code since})
     * @param registry where the byte counters are registered, or null for none
     */
    public GatewayTraffic(InstantSource wall, MeterRegistry registry) {
        this.registry = registry;
        this.since = Objects.requireNonNull(wall, "wall").instant();
    }

    /**
     * A listener telling this one and then {@code next} about every exchange.
     *
     * @param next another listener, or null
     * @return the listener to hand the gateway
     */
    public ExchangeListener andThen(ExchangeListener next) {
        if (next == null) {
            return this;
        }
        return x -> {
            ended(x);
            next.ended(x);
        };
    }

    @Override
    public void ended(ExchangeRecord x) {
        try {
            long sent = Math.max(0, x.bytesFromClient());
            long received = Math.max(0, x.bytesToClient());
            upstreams.add(x.attempts() == 0 ? NONE : x.upstream(), sent, received);
            clients.add(x.client(), sent, received);
        } catch (RuntimeException e) {
            // never the gateway's problem: a missed exchange is a smaller figure, not a failed request
        }
    }

    /**
     * What {@code GET /v1/admin/traffic} answers: {@code since}, and {@code upstreams} and
     * {@code clients}, each a list by name of {@code bytesSent}, {@code bytesReceived} and
     * {@code exchanges}.
     *
     * @return the answer's body
     */
    public Map<String, Object> view() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("since", since.toString());
        body.put("upstreams", upstreams.rows());
        body.put("clients", clients.rows());
        return body;
    }

    /** Bytes counted for one upstream ({@code [sent, received, exchanges]}), zeros when none. */
    long[] upstream(String name) {
        return upstreams.totals(name);
    }

    /** Bytes counted for one client ({@code [sent, received, exchanges]}), zeros when none. */
    long[] client(String name) {
        return clients.totals(name);
    }

    /** The totals by name of one view. */
    private final class View {
        private final String label;
        private final ConcurrentHashMap<String, Totals> byName = new ConcurrentHashMap<>();

        View(String label) {
            this.label = label;
        }

        void add(String name, long sent, long received) {
            String key = name == null || name.isEmpty() ? NONE : name;
            Totals t = byName.get(key);
            if (t == null) {
                if (byName.size() >= MAX_KEYS) {
                    key = OTHER;
                }
                t = byName.computeIfAbsent(key, this::newTotals);
            }
            t.add(sent, received);
        }

        private Totals newTotals(String name) {
            return new Totals(counter(name, "sent"), counter(name, "received"));
        }

        private Counter counter(String name, String direction) {
            if (registry == null) {
                return null;
            }
            return registry.getOrCreate(Counter.builder("proxypool.gateway." + label + ".bytes")
                    .description("Bytes through the gateway by " + label
                            + ": sent by the clients (request and tunnel upstream) or received by them")
                    .tags(List.of(Tag.create(label, name), Tag.create("direction", direction))));
        }

        long[] totals(String name) {
            Totals t = byName.get(name);
            return t == null ? new long[3] : new long[] {t.sent.sum(), t.received.sum(), t.exchanges.sum()};
        }

        List<Map<String, Object>> rows() {
            List<Map<String, Object>> out = new ArrayList<>();
            new TreeMap<>(byName).forEach((name, t) -> {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put(label, name);
                row.put("bytesSent", t.sent.sum());
                row.put("bytesReceived", t.received.sum());
                row.put("exchanges", t.exchanges.sum());
                out.add(row);
            });
            return out;
        }
    }

    /** One name's totals, and its two meters (null without a registry). */
    private static final class Totals {
        final LongAdder sent = new LongAdder();
        final LongAdder received = new LongAdder();
        final LongAdder exchanges = new LongAdder();
        private final Counter sentMeter;
        private final Counter receivedMeter;

        Totals(Counter sentMeter, Counter receivedMeter) {
            this.sentMeter = sentMeter;
            this.receivedMeter = receivedMeter;
        }

        void add(long s, long r) {
            sent.add(s);
            received.add(r);
            exchanges.increment();
            if (sentMeter != null) {
                sentMeter.increment(s);
                receivedMeter.increment(r);
            }
        }
    }
}
