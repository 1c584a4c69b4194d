package dev.proxypool.core.extract;

import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Idempotency records of {@link MemoryPoolStore}, with a lock of their own: they share nothing with
 * the pool, so a replay never waits for an extraction. Kept in the order keys were started, which
 * is the eviction order of the size cap. Each operation is O(1) amortized; {@link #purge} is O(n),
 * n bounded by the cap.
 */
final class IdempotencyTable {

    /** A held key; {@code response == null} while the request runs. */
    private record Held(String fingerprint, String response, Instant expiresAt) {
        boolean expired(Instant now) {
            return !now.isBefore(expiresAt);
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final LinkedHashMap<IdempotencyKey, Held> held = new LinkedHashMap<>();
    private final StoreSettings settings;

    IdempotencyTable(StoreSettings settings) {
        this.settings = settings;
    }

    IdempotencyStart begin(IdempotencyKey key, String fingerprint, Instant now) {
        lock.lock();
        try {
            Held h = held.get(key);
            if (h != null && h.expired(now)) {
                held.remove(key);
                h = null;
            }
            if (h == null) {
                held.put(key, new Held(fingerprint, null, now.plus(settings.idempotencyInProgressTimeout())));
                evictOverflow();
                return IdempotencyStart.STARTED;
            }
            if (!h.fingerprint().equals(fingerprint)) {
                return IdempotencyStart.MISMATCH;
            }
            return h.response() == null ? IdempotencyStart.IN_PROGRESS : new IdempotencyStart.Replay(h.response());
        } finally {
            lock.unlock();
        }
    }

    boolean complete(IdempotencyKey key, String fingerprint, String response, Instant now) {
        lock.lock();
        try {
            Held h = held.get(key);
            if (h != null && !h.expired(now) && !h.fingerprint().equals(fingerprint)) {
                return false;
            }
            if (h != null && h.expired(now)) {
                held.remove(key); // re-inserted below as the newest
            }
            held.put(key, new Held(fingerprint, response, now.plus(settings.idempotencyRetention())));
            evictOverflow();
            return true;
        } finally {
            lock.unlock();
        }
    }

    boolean abandon(IdempotencyKey key, String fingerprint) {
        lock.lock();
        try {
            Held h = held.get(key);
            if (h == null || h.response() != null || !h.fingerprint().equals(fingerprint)) {
                return false;
            }
            held.remove(key);
            return true;
        } finally {
            lock.unlock();
        }
    }

    int purge(Instant now) {
        lock.lock();
        try {
            int n = 0;
            for (Iterator<Held> it = held.values().iterator(); it.hasNext(); ) {
                if (it.next().expired(now)) {
                    it.remove();
                    n++;
                }
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    private void evictOverflow() {
        Iterator<IdempotencyKey> oldest = held.keySet().iterator();
        while (held.size() > settings.idempotencyMaxEntries()) {
            oldest.next();
            oldest.remove();
        }
    }
}
