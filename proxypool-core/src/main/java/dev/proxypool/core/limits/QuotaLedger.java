package dev.proxypool.core.limits;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * Per-client extraction quotas ({@code clients[].quota.extractionsPerHour}, 0 = unlimited): a
 * sliding one-hour window that counts extracted <em>proxies</em>, not calls.
 *
 * <p><b>Algorithm.</b> Each client with a limit has a window: a queue of (instant, proxies)
 * entries in time order and their running sum. {@link #reserve} first drops entries older than one
 * hour, then grants {@code min(wanted, limit - used)} when that is at least {@code atLeast}, and
 * appends the grant as an entry <em>before</em> the extraction runs, so concurrent requests of one
 * client can never overshoot the limit together. {@link Granted#settle} shrinks the entry to what
 * was really handed out (removing it at 0). An entry holds at least one proxy, so a window holds at
 * most {@code limit} entries plus the reservations in flight: O(limit) memory per client, O(1)
 * amortized per call (the refusal path walks the queue to compute {@code Retry-After}).
 *
 * <p><b>Scope.</b> The ledger is per process: behind a load balancer with N API processes a client
 * can extract up to N times its limit per hour. A cluster-wide quota needs the shared store.
 * Clients not named in the map, and clients with limit 0, are unlimited and tracked not at all.
 *
 * <p>Thread-safe: one monitor per client window; clients never contend with each other. Time comes
 * from the injected {@link InstantSource}; an entry never gets an instant earlier than the one
 * before it, so a wall clock stepping back cannot reorder the queue.
 */
public final class QuotaLedger {

    /** The length of the sliding window. */
    public static final Duration WINDOW = Duration.ofHours(1);

    private volatile Map<String, Window> windows;
    private final InstantSource clock;

    /**
     * A ledger with empty windows.
     *
     * @param extractionsPerHour client name → proxies per hour, 0 = unlimited
     * @param clock              wall clock the window slides on; not null
     * @throws IllegalArgumentException naming the client whose limit is negative
     */
    public QuotaLedger(Map<String, Integer> extractionsPerHour, InstantSource clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.windows = windows(extractionsPerHour, Map.of());
    }

    /**
     * New limits (the client list changed). A client whose limit changed keeps its window: what it
     * extracted in the last hour still counts against the new limit. A client removed or set to 0
     * is no longer tracked (added back later, it starts with an empty window).
     *
     * @throws IllegalArgumentException naming the client whose limit is negative; the ledger is unchanged then
     * @param extractionsPerHour client name → proxies per hour, 0 = unlimited
     */
    public synchronized void update(Map<String, Integer> extractionsPerHour) {
        windows = windows(extractionsPerHour, windows);
    }

    private static Map<String, Window> windows(Map<String, Integer> extractionsPerHour, Map<String, Window> previous) {
        Map<String, Integer> limits = new HashMap<>();
        extractionsPerHour.forEach((client, limit) -> {
            if (client == null || client.isBlank()) {
                throw new IllegalArgumentException("clients[].name must not be blank");
            }
            if (limit == null || limit < 0) {
                throw new IllegalArgumentException(
                        "clients[" + client + "].quota.extractionsPerHour must be 0 (unlimited) or more, got " + limit);
            }
            if (limit > 0) {
                limits.put(client, limit);
            }
        });
        Map<String, Window> w = new HashMap<>();
        limits.forEach((client, limit) -> {
            Window old = previous.get(client);
            if (old != null) {
                old.limit(limit);
                w.put(client, old);
            } else {
                w.put(client, new Window(limit));
            }
        });
        return Map.copyOf(w);
    }

    /**
     * A ledger without limits.
     *
     * @param clock wall clock; not null
     * @return a ledger that grants every reservation in full
     */
    public static QuotaLedger unlimited(InstantSource clock) {
        return new QuotaLedger(Map.of(), clock);
    }

    /**
     * Reserves up to {@code wanted} proxies for {@code client}, refusing when fewer than
     * {@code atLeast} are left in its window ({@code 1} for a partial extraction, the count for
     * allOrNothing). Settle the grant once the extraction is over.
     *
     * @param client  the authenticated client's name
     * @param wanted  how many proxies the extraction asks for, at least 1
     * @param atLeast the fewest that still serve the request, 1..wanted
     * @return Granted with {@code min(wanted, limit - used)} proxies, or Exceeded
     * @throws IllegalArgumentException unless {@code 1 <= atLeast <= wanted}
     */
    public Decision reserve(String client, int wanted, int atLeast) {
        if (wanted < 1 || atLeast < 1 || atLeast > wanted) {
            throw new IllegalArgumentException(
                    "quota reservation needs 1 <= atLeast <= wanted, got " + atLeast + " and " + wanted);
        }
        Window w = windows.get(client);
        if (w == null) {
            return new Granted(null, null, wanted);
        }
        return w.reserve(wanted, atLeast, clock.instant());
    }

    /**
     * Proxies counted against {@code client} in the current window (reservations in flight included).
     *
     * @param client the client's name
     * @return proxies counted; 0 for an unlimited client
     */
    public int used(String client) {
        Window w = windows.get(client);
        return w == null ? 0 : w.used(clock.instant());
    }

    /**
     * The limit of {@code client}; 0 = unlimited.
     *
     * @param client the client's name
     * @return proxies per hour
     */
    public int limit(String client) {
        Window w = windows.get(client);
        return w == null ? 0 : w.limit;
    }

    /** The answer of {@link #reserve}. */
    public sealed interface Decision permits Granted, Exceeded {}

    /**
     * Up to {@link #proxies()} proxies may be extracted. Call {@link #settle} exactly once with the
     * number really handed out (0 when the extraction failed).
     */
    public static final class Granted implements Decision {
        private final Window window;
        private final Entry entry;
        private final int proxies;

        private Granted(Window window, Entry entry, int proxies) {
            this.window = window;
            this.entry = entry;
            this.proxies = proxies;
        }

        /**
         * The most proxies the extraction may hand out.
         *
         * @return the grant: {@code wanted} for an unlimited client, else at least {@code atLeast}
         */
        public int proxies() {
            return proxies;
        }

        /**
         * Keeps {@code handedOut} (0..{@link #proxies()}) of the reservation in the window, frees the rest.
         *
         * @param handedOut proxies really extracted
         * @throws IllegalArgumentException if {@code handedOut} is outside 0..proxies()
         */
        public void settle(int handedOut) {
            if (handedOut < 0 || handedOut > proxies) {
                throw new IllegalArgumentException("handedOut must be 0.." + proxies + ", got " + handedOut);
            }
            if (window != null) {
                window.settle(entry, handedOut);
            }
        }
    }

    /**
     * Refused: the window holds {@code used} of {@code limit}; enough of it frees up in
     * {@code retryAfterSeconds} (at least 1). When the request can never fit (an allOrNothing
     * count above the limit) it is the time until the whole window is free.
     *
     * @param limit             the client's proxies per hour
     * @param used              proxies counted in the window now
     * @param retryAfterSeconds the {@code Retry-After} value, at least 1
     */
    public record Exceeded(int limit, int used, long retryAfterSeconds) implements Decision {}

    private static final class Entry {
        final Instant at;
        int proxies;
        boolean live = true;

        Entry(Instant at, int proxies) {
            this.at = at;
            this.proxies = proxies;
        }
    }

    private static final class Window {
        private volatile int limit;
        private final ArrayDeque<Entry> entries = new ArrayDeque<>();
        private int used;

        Window(int limit) {
            this.limit = limit;
        }

        synchronized void limit(int next) {
            limit = next;
        }

        synchronized Decision reserve(int wanted, int atLeast, Instant now) {
            prune(now);
            int grant = Math.min(wanted, limit - used);
            if (grant < atLeast) {
                return new Exceeded(limit, used, retryAfterSeconds(atLeast, now));
            }
            Entry last = entries.peekLast();
            Entry e = new Entry(last != null && last.at.isAfter(now) ? last.at : now, grant);
            entries.addLast(e);
            used += grant;
            return new Granted(this, e, grant);
        }

        synchronized void settle(Entry e, int keep) {
            if (!e.live) {
                return; // already slid out of the window
            }
            used -= e.proxies - keep;
            e.proxies = keep;
            if (keep == 0) {
                e.live = false;
                entries.remove(e);
            }
        }

        synchronized int used(Instant now) {
            prune(now);
            return used;
        }

        private void prune(Instant now) {
            Entry head;
            while ((head = entries.peekFirst()) != null && !head.at.plus(WINDOW).isAfter(now)) {
                entries.pollFirst();
                head.live = false;
                used -= head.proxies;
            }
        }

        /** Time until {@code need} proxies fit: the oldest entries must slide out first. */
        private long retryAfterSeconds(int need, Instant now) {
            int mustFree = need > limit ? used : used - (limit - need);
            int freed = 0;
            Instant until = now.plus(WINDOW);
            for (Iterator<Entry> it = entries.iterator(); it.hasNext(); ) {
                Entry e = it.next();
                freed += e.proxies;
                until = e.at.plus(WINDOW);
                if (freed >= mustFree) {
                    break;
                }
            }
            Duration d = Duration.between(now, until);
            long s = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
            return Math.max(1, s);
        }
    }
}
