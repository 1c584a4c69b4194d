package dev.proxypool.server.admin;

import dev.proxypool.core.model.AddressMask;
import dev.proxypool.server.gateway.ExchangeListener;
import dev.proxypool.server.gateway.ExchangeRecord;
import dev.proxypool.server.gateway.GatewayErrors;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Tag;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What this process's gateway did lately, for the console (docs/console.md#pages): fed by the
 * gateway at the moment it writes the access-log line ({@link ExchangeListener}), whether the access
 * log is on or not.
 *
 * <ul>
 *   <li>{@code GET /v1/admin/requests}: the last {@code admin.requestLog} exchanges (default
 *       {@value #DEFAULT_CAPACITY}, 0 keeps none) in a lock-free ring, and as many failures (an
 *       exchange with a reason) in a second ring of their own, so a failure stays findable for as
 *       long as it takes {@code admin.requestLog} more failures, however many successes follow
 *       (the answer's {@code oldest} and {@code failuresOldest} say how far back each goes): time, kind, the client's
 *       masked address and name, routing, upstream, opaque proxy id, status, reason, duration, result;
 *       never a secret, a proxy address or a destination. Filters: {@code status} (a class {@code 2xx}
 *       … {@code 5xx}, {@code error} for anything with a reason, or one status), {@code routing},
 *       {@code upstream}, {@code client}, {@code reason}, {@code kind}, {@code limit}.</li>
 *   <li>{@code GET /v1/admin/errors?window=15m}: gateway errors ({@code X-ProxyPool-Error}) counted
 *       by (reason, routing, upstream) in one-minute buckets for the last hour, plus totals since
 *       the process started; summed by reason, by routing and by upstream. Routings and upstreams are
 *       configured names, reasons a closed set: the key space is bounded (and capped at
 *       {@value #MAX_KEYS} keys, the rest counted under {@code other}).</li>
 *   <li>The Prometheus counter {@code proxypool.gateway.routed.errors{reason, routing, upstream}}
 *       (the existing {@code proxypool.gateway.errors{reason}} stays as it is): one meter per key,
 *       created on the first error of that key. Never a proxy id, client or host as a tag.</li>
 * </ul>
 *
 * <p>Cost on the gateway: a successful exchange writes one ring slot (an atomic increment, one small
 * record, an array store; addresses are masked when served, not when recorded); only an error
 * touches the counters. Thread-safe.
 */
public final class GatewayActivity implements ExchangeListener {

    /** Entries kept by default ({@code admin.requestLog}). */
    public static final int DEFAULT_CAPACITY = 500;
    /** The largest {@code admin.requestLog}. */
    public static final int MAX_CAPACITY = 100_000;
    /** Distinct (reason, routing, upstream) keys counted at most; the rest count as {@code other}. */
    static final int MAX_KEYS = 4096;
    /** Minutes of per-minute counts kept: the longest {@code window}. */
    static final int WINDOW_MINUTES = 60;

    private static final int DEFAULT_LIMIT = 100;
    private static final Pattern WINDOW = Pattern.compile("(\\d{1,4})([smh])");

    /** One ended exchange as kept (in memory only: its peer is masked when it is served). */
    record Entry(long seq, long atMillis, ExchangeRecord x) {}

    /** One (reason, routing, upstream) key. */
    record Key(String reason, String routing, String upstream) {}

    private final InstantSource wall;
    private final MeterRegistry registry;
    private final AtomicReferenceArray<Entry> ring;
    private final AtomicLong written = new AtomicLong();
    /** Failures only (an exchange with a reason): successes cannot push them out. */
    private final AtomicReferenceArray<Entry> failures;

    private final AtomicLong failuresWritten = new AtomicLong();
    private final ConcurrentHashMap<Key, Counts> errors = new ConcurrentHashMap<>();
    private final Instant since;

    /**
     * @param capacity how many exchanges the request log keeps (0: none)
     * @param wall     stamps the entries and the error buckets
     * @param registry where the routed error counter is registered, or null for none
     */
    public GatewayActivity(int capacity, InstantSource wall, MeterRegistry registry) {
        if (capacity < 0 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException(
                    "admin.requestLog must be between 0 and " + MAX_CAPACITY + ", got " + capacity);
        }
        this.wall = Objects.requireNonNull(wall, "wall");
        this.registry = registry;
        this.ring = new AtomicReferenceArray<>(capacity);
        this.failures = new AtomicReferenceArray<>(capacity);
        this.since = wall.instant();
    }

    @Override
    public void ended(ExchangeRecord x) {
        try {
            long at = wall.millis();
            int n = ring.length();
            if (n > 0) {
                long seq = written.getAndIncrement();
                Entry e = new Entry(seq, at, x);
                ring.set((int) (seq % n), e);
                if (x.reason() != null) {
                    failures.set((int) (failuresWritten.getAndIncrement() % n), e);
                }
            }
            if (x.reason() != null) {
                countError(x, at);
            }
        } catch (RuntimeException e) {
            // never the gateway's problem: a view that missed one exchange is still a view
        }
    }

    private void countError(ExchangeRecord x, long atMillis) {
        Key key = new Key(x.reason(), name(x.routing()), name(x.upstream()));
        Counts c = errors.get(key);
        if (c == null) {
            if (errors.size() >= MAX_KEYS) {
                key = new Key(x.reason(), "other", "other");
            }
            // the meter is made outside the map's bin lock (a first error of a key, on an event loop)
            Counts fresh = new Counts(counter(key));
            Counts raced = errors.putIfAbsent(key, fresh);
            c = raced != null ? raced : fresh;
        }
        c.add(atMillis / 60_000);
    }

    private Counter counter(Key k) {
        if (registry == null) {
            return null;
        }
        return registry.getOrCreate(Counter.builder("proxypool.gateway.routed.errors")
                .description("Gateway error responses by X-ProxyPool-Error reason, routing and upstream")
                .tags(List.of(
                        Tag.create("reason", k.reason()),
                        Tag.create("routing", k.routing()),
                        Tag.create("upstream", k.upstream()))));
    }

    private static String name(String s) {
        return s == null || s.isEmpty() ? "none" : s;
    }

    /**
     * Per-minute counts of one key over the last {@value #WINDOW_MINUTES} minutes, and its total. Lock-free:
     * {@link #add} runs on the gateway's event loops. Each slot packs its minute (the high {@value
     * #MINUTE_BITS} bits: epoch minutes up to the year 2097) and that minute's count in one long.
     */
    static final class Counts {
        static final int MINUTE_BITS = 26;
        private static final int COUNT_BITS = 63 - MINUTE_BITS;
        private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;

        private final AtomicLongArray slots = new AtomicLongArray(WINDOW_MINUTES);
        private final Counter meter;
        private final LongAdder total = new LongAdder();

        Counts(Counter meter) {
            this.meter = meter;
        }

        void add(long epochMinute) {
            int i = (int) Math.floorMod(epochMinute, (long) WINDOW_MINUTES);
            long stamp = epochMinute << COUNT_BITS;
            while (true) {
                long v = slots.get(i);
                long next = (v & ~COUNT_MASK) == stamp ? v + 1 : stamp | 1;
                if (slots.compareAndSet(i, v, next)) {
                    break;
                }
            }
            total.increment();
            if (meter != null) {
                meter.increment();
            }
        }

        /** Errors in the minutes {@code from..to} (inclusive), and the total since the start. */
        long[] read(long from, long to) {
            long sum = 0;
            for (int i = 0; i < WINDOW_MINUTES; i++) {
                long v = slots.get(i);
                long minute = v >>> COUNT_BITS;
                if (v != 0 && minute >= from && minute <= to) {
                    sum += v & COUNT_MASK;
                }
            }
            return new long[] {sum, total.sum()};
        }
    }

    // ------------------------------------------------------------------------------ GET /errors

    /** Errors over the window, in memory only: what {@code GET /v1/admin/errors} answers. */
    Map<String, Object> errors(int windowMinutes) {
        long now = wall.millis() / 60_000;
        long from = now - windowMinutes + 1;
        List<Map<String, Object>> rows = new ArrayList<>();
        Map<String, long[]> byReason = new TreeMap<>();
        Map<String, Agg> byRouting = new TreeMap<>();
        Map<String, Agg> byUpstream = new TreeMap<>();
        long inWindow = 0;
        long total = 0;
        for (Map.Entry<Key, Counts> e : errors.entrySet()) {
            Key k = e.getKey();
            long[] c = e.getValue().read(from, now);
            inWindow += c[0];
            total += c[1];
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("reason", k.reason());
            row.put("routing", k.routing());
            row.put("upstream", k.upstream());
            row.put("count", c[0]);
            row.put("total", c[1]);
            rows.add(row);
            long[] r = byReason.computeIfAbsent(k.reason(), x -> new long[2]);
            r[0] += c[0];
            r[1] += c[1];
            byRouting.computeIfAbsent(k.routing(), x -> new Agg()).add(k.reason(), c);
            byUpstream.computeIfAbsent(k.upstream(), x -> new Agg()).add(k.reason(), c);
        }
        Comparator<Map<String, Object>> worst = Comparator.<Map<String, Object>>comparingLong(
                        m -> (long) m.get("count"))
                .thenComparingLong(m -> (long) m.get("total"))
                .reversed();
        rows.sort(worst);
        List<Map<String, Object>> reasons = new ArrayList<>();
        byReason.forEach((reason, c) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("reason", reason);
            m.put("count", c[0]);
            m.put("total", c[1]);
            reasons.add(m);
        });
        reasons.sort(worst);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("windowSeconds", windowMinutes * 60L);
        body.put("since", since.toString());
        body.put("count", inWindow);
        body.put("total", total);
        body.put("byReason", reasons);
        body.put("byRouting", Agg.list("routing", byRouting, worst));
        body.put("byUpstream", Agg.list("upstream", byUpstream, worst));
        body.put("rows", rows);
        return body;
    }

    /** One routing's or upstream's errors, with its reasons. */
    private static final class Agg {
        long count;
        long total;
        final Map<String, Long> reasons = new TreeMap<>();

        void add(String reason, long[] c) {
            count += c[0];
            total += c[1];
            if (c[0] > 0) {
                reasons.merge(reason, c[0], Long::sum);
            }
        }

        static List<Map<String, Object>> list(
                String field, Map<String, Agg> by, Comparator<Map<String, Object>> order) {
            List<Map<String, Object>> out = new ArrayList<>();
            by.forEach((name, a) -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put(field, name);
                m.put("count", a.count);
                m.put("total", a.total);
                m.put("reasons", a.reasons);
                out.add(m);
            });
            out.sort(order);
            return out;
        }
    }

    void serveErrors(ServerRequest req, ServerResponse res) {
        int minutes = 15;
        for (String name : req.query().names()) {
            String v = req.query().get(name);
            if (!name.equals("window")) {
                throw AdminException.invalid("unknown query parameter '" + name + "' (expected window)");
            }
            minutes = windowMinutes(v);
        }
        AdminJson.send(res, 200, errors(minutes));
    }

    /** {@code 90s}, {@code 15m}, {@code 1h}: whole minutes (rounded up) from 1 to {@value #WINDOW_MINUTES}. */
    static int windowMinutes(String v) {
        Matcher m = WINDOW.matcher(v == null ? "" : v.strip());
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            long seconds = switch (m.group(2)) {
                case "s" -> n;
                case "m" -> n * 60;
                default -> n * 3600;
            };
            if (seconds >= 1 && seconds <= WINDOW_MINUTES * 60L) {
                return (int) ((seconds + 59) / 60);
            }
        }
        throw AdminException.invalid(
                "window must be a duration such as 5m, 15m or 1h, at most " + WINDOW_MINUTES + "m, got '" + v + "'");
    }

    // ------------------------------------------------------------------------------ GET /requests

    /** A request-log filter; null fields match anything. */
    record Filter(
            String status, String routing, String upstream, String client, String reason, String kind, int limit) {

        boolean matches(Entry e) {
            ExchangeRecord x = e.x();
            return statusMatches(x.status(), x.reason())
                    && (routing == null || routing.equals(x.routing()))
                    && (upstream == null || upstream.equals(x.upstream()))
                    && (client == null || client.equals(x.client() == null ? "-" : x.client()))
                    && (reason == null || reason.equals(x.reason()))
                    && (kind == null || kind.equals(x.kind()));
        }

        private boolean statusMatches(int s, String why) {
            if (status == null) {
                return true;
            }
            return switch (status) {
                case "error" -> why != null;
                case "ok" -> why == null && s > 0 && s < 400;
                case "none" -> s == 0;
                default ->
                    status.length() == 3 && status.endsWith("xx")
                            ? s / 100 == status.charAt(0) - '0'
                            : Integer.toString(s).equals(status);
            };
        }
    }

    /**
     * The newest entries first, at most {@code f.limit()}: both rings merged by sequence number (a
     * failure still in both is listed once), with how far back each ring goes.
     */
    Map<String, Object> requests(Filter f) {
        int n = ring.length();
        List<Entry> all = newestFirst(ring, written.get());
        List<Entry> failed = newestFirst(failures, failuresWritten.get());
        List<Object> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        long last = Long.MAX_VALUE;
        while ((i < all.size() || j < failed.size()) && out.size() < f.limit()) {
            Entry e;
            if (j >= failed.size()
                    || (i < all.size() && all.get(i).seq() >= failed.get(j).seq())) {
                e = all.get(i++);
            } else {
                e = failed.get(j++);
            }
            if (e.seq() == last) {
                continue; // a failure in both rings
            }
            last = e.seq();
            if (f.matches(e)) {
                out.add(json(e));
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("capacity", n);
        body.put("recorded", written.get());
        body.put("failuresRecorded", failuresWritten.get());
        body.put("oldest", all.isEmpty() ? null : at(all.getLast()));
        body.put("failuresOldest", failed.isEmpty() ? null : at(failed.getLast()));
        body.put("entries", out);
        return body;
    }

    /**
     * Per routing, the requests of the ring of all exchanges ended at or after {@code fromMillis}:
     * {@code [requests, no_candidate answers]} (for the red flags: a routing that mostly finds no proxy).
     */
    Map<String, long[]> routingOutcomes(long fromMillis) {
        Map<String, long[]> out = new TreeMap<>();
        for (Entry e : newestFirst(ring, written.get())) {
            if (e.atMillis() < fromMillis) {
                break;
            }
            String routing = e.x().routing();
            if (routing == null || routing.isEmpty() || routing.equals("none")) {
                continue; // refused before routing (authentication, policy): no routing to blame
            }
            long[] c = out.computeIfAbsent(routing, k -> new long[2]);
            c[0]++;
            if (GatewayErrors.NO_CANDIDATE.equals(e.x().reason())) {
                c[1]++;
            }
        }
        return out;
    }

    /** The ring's entries, newest first, skipping slots overwritten meanwhile. */
    private static List<Entry> newestFirst(AtomicReferenceArray<Entry> r, long end) {
        int n = r.length();
        List<Entry> out = new ArrayList<>((int) Math.min(n, end));
        long newest = Long.MAX_VALUE;
        for (long k = end - 1; k >= 0 && k >= end - n; k--) {
            Entry e = r.get((int) (k % n));
            if (e == null || e.seq() >= newest) {
                continue; // overwritten by a newer one meanwhile
            }
            newest = e.seq();
            out.add(e);
        }
        return out;
    }

    private static String at(Entry e) {
        return Instant.ofEpochMilli(e.atMillis()).toString();
    }

    private static Map<String, Object> json(Entry e) {
        ExchangeRecord x = e.x();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seq", e.seq());
        m.put("at", Instant.ofEpochMilli(e.atMillis()).toString());
        m.put("kind", x.kind());
        m.put("peer", x.peer() == null ? "?" : AddressMask.mask(x.peer()));
        m.put("client", x.client());
        m.put("attemptedUser", x.client() == null ? x.attemptedUser() : null);
        m.put("method", x.method());
        m.put("status", x.status() > 0 ? x.status() : null);
        m.put("reason", x.reason());
        m.put("routing", x.routing());
        m.put("upstream", x.upstream());
        m.put("proxy", x.proxy());
        m.put("attempts", x.attempts());
        m.put("ms", Math.round(x.nanos() / 1_000.0) / 1_000.0);
        m.put("result", x.result().tag());
        m.put("bytesSent", x.bytesFromClient());
        m.put("bytesReceived", x.bytesToClient());
        return m;
    }

    void serveRequests(ServerRequest req, ServerResponse res) {
        String status = null, routing = null, upstream = null, client = null, reason = null, kind = null;
        int limit = Math.min(DEFAULT_LIMIT, Math.max(1, ring.length()));
        for (String name : req.query().names()) {
            String v = req.query().get(name).strip();
            if (v.isEmpty()) {
                continue;
            }
            switch (name) {
                case "status" -> {
                    if (!v.matches("[1-5]xx|[1-5]\\d\\d|error|ok|none")) {
                        throw AdminException.invalid(
                                "status must be a class (2xx ... 5xx), a status (503), error, ok or none, got '" + v
                                        + "'");
                    }
                    status = v;
                }
                case "routing" -> routing = v;
                case "upstream" -> upstream = v;
                case "client" -> client = v;
                case "reason" -> reason = v;
                case "kind" -> {
                    if (!v.equals("http") && !v.equals("connect") && !v.equals("socks")) {
                        throw AdminException.invalid("kind must be http, connect or socks, got '" + v + "'");
                    }
                    kind = v;
                }
                case "limit" -> {
                    try {
                        limit = Integer.parseInt(v);
                    } catch (NumberFormatException e) {
                        limit = -1;
                    }
                    if (limit < 1 || limit > MAX_CAPACITY) {
                        throw AdminException.invalid(
                                "limit must be a whole number between 1 and " + MAX_CAPACITY + ", got '" + v + "'");
                    }
                }
                default ->
                    throw AdminException.invalid("unknown query parameter '" + name
                            + "' (expected status, routing, upstream, client, reason, kind, limit)");
            }
        }
        AdminJson.send(res, 200, requests(new Filter(status, routing, upstream, client, reason, kind, limit)));
    }
}
