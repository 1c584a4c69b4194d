package dev.proxypool.core.health;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-destination exclusions of one proxy: domain → ticker deadline. A destination's 403/429/captcha
 * says the target dislikes this exit, not that the proxy is broken, so a ban never touches the
 * proxy's {@link HealthState}.
 *
 * <p>Reads are lock-free and, with no bans (the common case), touch one volatile field and allocate
 * nothing; the map is created on the first ban. Expired bans are dropped lazily by the read that
 * notices them. Writes are serialized (rare) and keep at most {@code maxBans} entries: at the bound,
 * expired entries go first, then the one expiring soonest (with a fixed duration, the oldest) —
 * an O(n) scan paid only by a ban that overflows the bound.
 */
final class DomainBans {

    private final long durationNanos;
    private final int maxBans;
    private volatile ConcurrentHashMap<String, Long> bans;

    DomainBans(long durationNanos, int maxBans) {
        this.durationNanos = durationNanos;
        this.maxBans = maxBans;
    }

    boolean isBanned(String domain, long nowNanos) {
        ConcurrentHashMap<String, Long> map = bans;
        if (map == null || map.isEmpty()) {
            return false;
        }
        String key = normalize(domain);
        Long until = map.get(key);
        if (until == null) {
            return false;
        }
        if (nowNanos - until < 0) {
            return true;
        }
        map.remove(key, until);
        return false;
    }

    synchronized void ban(String domain, long nowNanos) {
        if (domain == null || domain.isBlank()) {
            throw new IllegalArgumentException("ban domain must not be blank, got '" + domain + "'");
        }
        String key = normalize(domain);
        ConcurrentHashMap<String, Long> map = bans;
        if (map == null) {
            map = new ConcurrentHashMap<>();
            bans = map;
        }
        if (!map.containsKey(key) && map.size() >= maxBans) {
            makeRoom(map, nowNanos);
        }
        map.put(key, nowNanos + durationNanos);
    }

    /** The bans in force at {@code nowNanos}: domain → nanoseconds left (a copy; for operators, not the hot path). */
    Map<String, Long> active(long nowNanos) {
        ConcurrentHashMap<String, Long> map = bans;
        Map<String, Long> out = new TreeMap<>();
        if (map != null) {
            map.forEach((domain, until) -> {
                if (nowNanos - until < 0) {
                    out.put(domain, until - nowNanos);
                }
            });
        }
        return out;
    }

    /** Bans currently remembered, expired ones not yet dropped included. */
    int size() {
        ConcurrentHashMap<String, Long> map = bans;
        return map == null ? 0 : map.size();
    }

    private void makeRoom(ConcurrentHashMap<String, Long> map, long nowNanos) {
        String soonest = null;
        long soonestUntil = 0;
        for (Map.Entry<String, Long> e : map.entrySet()) {
            long until = e.getValue();
            if (nowNanos - until >= 0) {
                map.remove(e.getKey(), e.getValue());
            } else if (soonest == null || until - soonestUntil < 0) {
                soonest = e.getKey();
                soonestUntil = until;
            }
        }
        if (map.size() >= maxBans && soonest != null) {
            map.remove(soonest);
        }
    }

    private static String normalize(String domain) {
        return domain.toLowerCase(Locale.ROOT); // returns the same instance when already lower case
    }
}
