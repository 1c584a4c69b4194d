package dev.proxypool.core.health;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The different destinations that failed target-side through one proxy since its last success
 * ({@link FailureEffect#TARGET_SIDE}). The same destination failing again adds nothing: a dead site
 * asked for in a loop is the site's problem; many different ones in a row are the proxy's.
 *
 * <p>A failure without a known destination counts as a new one (the caller could not say, so the
 * proxy gets no benefit of the doubt). Bounded: it never remembers more than {@code limit} names.
 * {@link #reset()} on the success path reads one volatile field and allocates nothing when the
 * streak is already empty; additions (failures only) are serialized.
 */
final class TargetStreak {

    private final int limit;
    private final Set<String> seen = new HashSet<>();
    private int anonymous;
    private volatile int size;

    TargetStreak(int limit) {
        this.limit = limit;
    }

    /** Adds a failed destination (null: unknown); returns the number of different ones now in the streak. */
    synchronized int add(String destination) {
        if (size >= limit) {
            return size;
        }
        if (destination == null || destination.isBlank()) {
            anonymous++;
        } else {
            seen.add(destination.trim().toLowerCase(Locale.ROOT));
        }
        size = seen.size() + anonymous;
        return size;
    }

    /** Different destinations failed in a row now. */
    int size() {
        return size;
    }

    /** Forgets the streak (a success through the proxy, or a fresh start). */
    void reset() {
        if (size != 0) {
            synchronized (this) {
                seen.clear();
                anonymous = 0;
                size = 0;
            }
        }
    }
}
