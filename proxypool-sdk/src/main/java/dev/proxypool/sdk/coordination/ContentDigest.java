package dev.proxypool.sdk.coordination;

import dev.proxypool.core.model.ExitNetwork;
import dev.proxypool.core.model.Proxy;
import java.util.Collection;
import java.util.Map;

/**
 * An order-independent 64-bit checksum of pool content: the sum (mod 2^64) of one 64-bit hash per
 * proxy record. Why a sum: it updates in O(changes) — a worker verifies a delta by subtracting the
 * hashes of the records it replaces or removes and adding those of the new ones, without touching
 * the other 100,000 — and it does not depend on the order of the list.
 *
 * <p>The per-proxy hash covers every field the wire format carries, in a fixed order: each field
 * becomes one 64-bit value (numbers as they are; texts as their length and {@link String#hashCode()},
 * which the JLS fixes and each String caches, so repeated label and upstream texts cost nothing),
 * is scrambled by the SplitMix64 finalizer and folded in by a multiply. Enums go in by their wire
 * names, so two builds of the product agree. It detects bugs and lost or misapplied deltas; it is
 * not a defence against a forger (Redis is trusted). Cost is memory-bound: ~60 ms for 100,000
 * proxies (the walk over every record's objects), so the publisher reuses the hash of an unchanged
 * proxy instance.
 */
public final class ContentDigest {

    private static final long OFFSET = 0xcbf29ce484222325L;
    private static final long PRIME = 0x9E3779B97F4A7C15L;

    private ContentDigest() {}

    /** The digest of a whole content. */
    public static long of(Collection<Proxy> proxies) {
        long sum = 0;
        for (Proxy p : proxies) {
            sum += of(p);
        }
        return sum;
    }

    /** The hash of one proxy record. */
    public static long of(Proxy p) {
        long h = OFFSET;
        h = text(h, p.id());
        h = text(h, p.protocol().wireName());
        h = text(h, p.host());
        h = number(h, p.port());
        h = text(h, p.credentialRef().name());
        h = text(h, p.provider());
        h = text(h, p.upstream());
        if (p.expires()) {
            h = number(h, p.expiresAt().getEpochSecond());
            h = number(h, p.expiresAt().getNano());
        } else {
            h = number(h, -1);
        }
        h = number(h, p.maxConcurrency());
        h = number(h, p.weight());
        h = text(h, p.anonymity().wireName());
        ExitNetwork x = p.exitNetwork();
        h = text(h, x.exitIp());
        h = number(h, x.asn());
        h = text(h, x.organization());
        h = text(h, x.prefix());
        h = number(h, p.labels().size());
        for (Map.Entry<String, String> l : p.labels().values().entrySet()) {
            h = text(h, l.getKey());
            h = text(h, l.getValue());
        }
        return mix(h);
    }

    private static long text(long h, String s) {
        return number(h, ((long) s.length() << 32) ^ (s.hashCode() & 0xFFFF_FFFFL));
    }

    private static long number(long h, long v) {
        return (h ^ mix(v)) * PRIME;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
