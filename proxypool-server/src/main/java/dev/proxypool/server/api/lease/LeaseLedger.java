package dev.proxypool.server.api.lease;

import dev.proxypool.core.model.AddressMask;
import dev.proxypool.core.model.Proxy;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The audit of the acquire API for balance analysis: counters per routing and upstream (acquired,
 * released, expired, each release outcome; refused acquires per routing with upstream {@code -})
 * and the last {@value #RECENT} events, newest first. No secrets: a proxy appears by its id and
 * masked address ({@code 203.0.x.x:8000}), a client by name.
 *
 * <p>Bounded: at most {@value #MAX_GROUPS} routing/upstream pairs (further pairs are counted under
 * {@code other}) and {@value #RECENT} events. Thread-safe (one lock; not on the gateway's path).
 */
final class LeaseLedger {

    static final int RECENT = 256;
    static final int MAX_GROUPS = 1024;
    private static final String OTHER = "other";

    /** Counters of one routing and upstream. */
    private static final class Group {
        long acquired;
        long released;
        long expired;
        long refused;
        final Map<String, Long> outcomes = new TreeMap<>();
    }

    /**
     * One event of the recent log.
     *
     * @param at        when
     * @param event     {@code acquire}, {@code release}, {@code expire} or {@code refuse}
     * @param leaseId   the lease, {@code null} for a refused acquire
     * @param client    the client's name
     * @param routing   the routing, {@code -} when none matched
     * @param upstream  the proxy's upstream, {@code -} for a refused acquire
     * @param proxyId   the proxy's id, {@code null} for a refused acquire
     * @param address   the proxy's masked address, {@code null} for a refused acquire
     * @param outcome   the release's outcome, {@code expired}, or the refusal's error code; {@code null} for an acquire
     * @param latencyMs the reported latency, -1 when none
     * @param heldMs    how long the lease was held (release and expiry), -1 otherwise
     */
    record Event(
            Instant at,
            String event,
            String leaseId,
            String client,
            String routing,
            String upstream,
            String proxyId,
            String address,
            String outcome,
            long latencyMs,
            long heldMs) {}

    private final Map<String, Group> groups = new LinkedHashMap<>();
    private final ArrayDeque<Event> recent = new ArrayDeque<>(RECENT);
    private long acquired;
    private long released;
    private long expired;
    private long refused;

    synchronized void acquired(HeldLease h) {
        acquired++;
        group(h.lease().routing(), h.lease().upstream()).acquired++;
        add(event(h, "acquire", h.acquiredAt(), null, -1, -1));
    }

    synchronized void released(HeldLease h, String outcome, long latencyMs, long heldMs, Instant at) {
        released++;
        Group g = group(h.lease().routing(), h.lease().upstream());
        g.released++;
        g.outcomes.merge(outcome, 1L, Long::sum);
        add(event(h, "release", at, outcome, latencyMs, heldMs));
    }

    synchronized void expired(HeldLease h, long heldMs, Instant at) {
        expired++;
        group(h.lease().routing(), h.lease().upstream()).expired++;
        add(event(h, "expire", at, "expired", -1, heldMs));
    }

    synchronized void refused(String client, String routing, String code, Instant at) {
        refused++;
        group(routing, "-").refused++;
        add(new Event(at, "refuse", null, client, routing, "-", null, null, code, -1, -1));
    }

    /** Leases expired by the server so far ({@code lease_expired}). */
    synchronized long expiredTotal() {
        return expired;
    }

    /** The admin view: totals, per routing and upstream, recent events newest first. */
    synchronized Map<String, Object> view(int held) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("held", held);
        Map<String, Object> totals = new LinkedHashMap<>();
        totals.put("acquired", acquired);
        totals.put("released", released);
        totals.put("lease_expired", expired);
        totals.put("refused", refused);
        out.put("totals", totals);
        List<Map<String, Object>> by = new ArrayList<>(groups.size());
        for (Map.Entry<String, Group> e : groups.entrySet()) {
            Group g = e.getValue();
            String[] key = e.getKey().split("\u0000", 2);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("routing", key[0]);
            row.put("upstream", key.length > 1 ? key[1] : "-");
            row.put("acquired", g.acquired);
            row.put("released", g.released);
            row.put("expired", g.expired);
            row.put("refused", g.refused);
            row.put("outcomes", new LinkedHashMap<>(g.outcomes));
            by.add(row);
        }
        out.put("byRouting", by);
        List<Map<String, Object>> events = new ArrayList<>(recent.size());
        for (Iterator<Event> it = recent.descendingIterator(); it.hasNext(); ) {
            Event ev = it.next();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("at", ev.at().toString());
            m.put("event", ev.event());
            m.put("leaseId", ev.leaseId());
            m.put("client", ev.client());
            m.put("routing", ev.routing());
            m.put("upstream", ev.upstream());
            m.put("proxyId", ev.proxyId());
            m.put("address", ev.address());
            m.put("outcome", ev.outcome());
            m.put("latencyMs", ev.latencyMs() < 0 ? null : ev.latencyMs());
            m.put("heldMs", ev.heldMs() < 0 ? null : ev.heldMs());
            events.add(m);
        }
        out.put("recent", events);
        return out;
    }

    /** The recent events, oldest first (tests). */
    synchronized List<Event> recent() {
        return List.copyOf(recent);
    }

    private Group group(String routing, String upstream) {
        String key = routing + "\u0000" + upstream;
        Group g = groups.get(key);
        if (g == null) {
            if (groups.size() >= MAX_GROUPS) {
                key = OTHER + "\u0000" + OTHER;
                g = groups.get(key);
                if (g != null) {
                    return g;
                }
            }
            g = new Group();
            groups.put(key, g);
        }
        return g;
    }

    private void add(Event e) {
        if (recent.size() == RECENT) {
            recent.removeFirst();
        }
        recent.addLast(e);
    }

    private static Event event(HeldLease h, String kind, Instant at, String outcome, long latencyMs, long heldMs) {
        Proxy p = h.lease().proxy();
        return new Event(
                at,
                kind,
                h.id(),
                h.client(),
                h.lease().routing(),
                p.upstream(),
                p.id(),
                AddressMask.mask(p.host()) + ":" + p.port(),
                outcome,
                latencyMs,
                heldMs);
    }
}
