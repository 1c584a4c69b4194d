package dev.proxypool.sdk.coordination;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PoolContentTest {

    @Test
    void digestIgnoresOrderAndSeesEveryField() {
        List<Proxy> pool = Proxies.pool(200, 5);
        List<Proxy> shuffled = new ArrayList<>(pool);
        Collections.shuffle(shuffled, new java.util.Random(1));
        assertEquals(ContentDigest.of(pool), ContentDigest.of(shuffled));
        Proxy p = pool.get(0);
        List<Proxy> variants = List.of(
                p.toBuilder().weight(p.weight() + 1).build(),
                p.toBuilder().maxConcurrency(p.maxConcurrency() + 1).build(),
                p.toBuilder().upstream("other").build(),
                p.toBuilder().provider("other").build(),
                p.toBuilder()
                        .labels(dev.proxypool.core.model.Labels.of("country", "ZZ"))
                        .build(),
                p.toBuilder().expiresAt(p.expiresAt().minusNanos(1)).build(),
                p.toBuilder()
                        .anonymity(
                                dev.proxypool.core.model.Anonymity.UNKNOWN == p.anonymity()
                                        ? dev.proxypool.core.model.Anonymity.ELITE
                                        : dev.proxypool.core.model.Anonymity.UNKNOWN)
                        .build());
        for (Proxy v : variants) {
            assertNotEquals(ContentDigest.of(p), ContentDigest.of(v), v.toString());
        }
    }

    @Test
    void diffThenApplyReachesTheNextContent() {
        SplittableRandom rnd = new SplittableRandom(8);
        List<Proxy> current = Proxies.pool(1000, 1);
        PoolContent worker = PoolContent.of(current);
        for (int round = 0; round < 50; round++) {
            List<Proxy> next = new ArrayList<>(current);
            for (int k = 0; k < 20; k++) {
                int i = rnd.nextInt(next.size());
                switch (rnd.nextInt(3)) {
                    case 0 -> next.remove(i);
                    case 1 ->
                        next.set(
                                i,
                                next.get(i).toBuilder()
                                        .weight(1 + rnd.nextInt(9))
                                        .build());
                    default -> next.add(Proxies.proxy(10_000 + round * 100 + k, 1000 + round, rnd));
                }
            }
            PoolContent target = PoolContent.of(next);
            PoolContent.Change change = PoolContent.of(current).diff(target);
            assertTrue(
                    worker.apply(change.upserts(), change.removed(), target.size(), target.digest()), "round " + round);
            assertEquals(target.digest(), worker.digest());
            assertEquals(new java.util.HashSet<>(next), new java.util.HashSet<>(worker.proxies()));
            current = next;
        }
    }

    @Test
    void aDeltaThatDoesNotFitChangesNothing() {
        List<Proxy> pool = Proxies.pool(100, 2);
        PoolContent content = PoolContent.of(pool);
        long digest = content.digest();
        Proxy changed = pool.get(3).toBuilder().weight(99).build();
        PoolContent target = PoolContent.of(replace(pool, 3, changed));
        // wrong digest
        assertFalse(content.apply(List.of(changed), List.of(), target.size(), target.digest() + 1));
        // removal of an id it does not hold (a delta of another lineage)
        assertFalse(content.apply(List.of(), List.of("p-unknown"), 99, digest));
        // the same id twice
        assertFalse(content.apply(List.of(changed, changed), List.of(), target.size(), target.digest()));
        assertEquals(digest, content.digest());
        assertEquals(pool, content.proxies());
        assertTrue(content.apply(List.of(changed), List.of(), target.size(), target.digest()));
        assertEquals(replace(pool, 3, changed), content.proxies(), "an update keeps the proxy's place");
    }

    @Test
    void duplicateIdsAreRefused() {
        Proxy p = Proxies.pool(1, 1).getFirst();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PoolContent.of(List.of(p, p)));
        assertTrue(e.getMessage().contains(p.id()), e.getMessage());
    }

    private static List<Proxy> replace(List<Proxy> pool, int i, Proxy p) {
        List<Proxy> out = new ArrayList<>(pool);
        out.set(i, p);
        return out;
    }
}
