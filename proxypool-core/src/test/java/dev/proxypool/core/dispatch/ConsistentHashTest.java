package dev.proxypool.core.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.capacity.Reservation;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.snapshot.PoolFixture;
import dev.proxypool.core.snapshot.PoolSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsistentHashTest {

    private static final int KEYS = 20_000;

    private final PoolFixture f = new PoolFixture();
    private final Dispatcher dispatcher = new Dispatcher();

    private String owner(PoolSnapshot s, String key) {
        Picked p = assertInstanceOf(
                Picked.class, dispatcher.pick(s, PickRequest.consistentHash(CandidateFilter.ANY, key), f.now()));
        p.reservation().release();
        return p.proxy().id();
    }

    @Test
    void theSameKeyKeepsItsProxy() {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 50));
        for (int k = 0; k < 200; k++) {
            String key = "host-" + k + ".example";
            String first = owner(s, key);
            for (int i = 0; i < 5; i++) {
                assertEquals(first, owner(s, key));
            }
            assertEquals(first, owner(f.build(PoolFixture.proxies("p", 50)), key), "stable across snapshots");
        }
    }

    @Test
    void keysSpreadOverTheProxies() {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 100));
        Map<String, Integer> load = new HashMap<>();
        for (int k = 0; k < KEYS; k++) {
            load.merge(owner(s, "host-" + k + ".example"), 1, Integer::sum);
        }
        assertEquals(100, load.size());
        int max = load.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        assertTrue(max < 2.0 * KEYS / 100, "most loaded proxy owns " + max + " of " + KEYS + " keys");
    }

    @Test
    void whenOneOfAHundredProxiesLeavesOnlyItsKeysMove() {
        List<Proxy> all = PoolFixture.proxies("p", 100);
        List<Proxy> without = new ArrayList<>(all);
        without.remove(37);
        PoolSnapshot before = f.build(all);
        PoolSnapshot after = f.build(without);
        int moved = 0;
        int movedFromOthers = 0;
        for (int k = 0; k < KEYS; k++) {
            String key = "host-" + k + ".example";
            String was = owner(before, key);
            String now = owner(after, key);
            if (!was.equals(now)) {
                moved++;
                if (!was.equals("p37")) {
                    movedFromOthers++;
                }
            }
        }
        double share = moved / (double) KEYS;
        int moduloMoved = 0;
        for (int k = 0; k < KEYS; k++) {
            long h = Hash64.of("host-" + k + ".example");
            if (Math.floorMod(h, 100) != Math.floorMod(h, 99)) {
                moduloMoved++;
            }
        }
        double moduloShare = moduloMoved / (double) KEYS;
        System.out.printf(
                "consistent hash: 1 of 100 proxies left, %.2f%% of %d keys remapped" + " (modulo hashing: %.2f%%)%n",
                100 * share, KEYS, 100 * moduloShare);
        assertEquals(0, movedFromOthers, "keys of the remaining proxies stay put");
        assertTrue(share > 0 && share < 0.03, "remapped share " + share);
        assertTrue(moduloShare > 0.90, "modulo remapped share " + moduloShare);
    }

    @Test
    void aBusyOwnerSendsTheKeyToTheSameNextProxyEveryTime() {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 20).stream()
                .map(p -> p.toBuilder().maxConcurrency(1).build())
                .toList());
        String key = "shop.example";
        String ownerId = owner(s, key);
        Reservation hold = s.runtime(s.slotOf(ownerId)).capacity().tryReserve();
        String next = owner(s, key);
        assertNotEquals(ownerId, next);
        for (int i = 0; i < 20; i++) {
            assertEquals(next, owner(s, key), "deterministic walk");
        }
        hold.release();
        assertEquals(ownerId, owner(s, key), "back to the owner once it has capacity");
    }

    /** The directory-accelerated lookup finds the same point as a linear walk of the circle. */
    @Test
    void ringLookupMatchesALinearSearch() {
        PoolSnapshot s = f.build(PoolFixture.proxies("p", 300));
        HashRing ring = s.candidates(CandidateFilter.ANY).derived(HashRing.KEY);
        java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        long mask = (1L << HashRing.INDEX_BITS) - 1;
        for (int i = 1; i < ring.size(); i++) {
            assertTrue(Long.compareUnsigned(ring.pointAt(i - 1), ring.pointAt(i)) <= 0, "ring sorted at " + i);
        }
        for (int i = 0; i < 5_000; i++) {
            long key = i < 4 ? new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE}[i] : random.nextLong();
            long k = key & ~mask;
            int expected = 0;
            while (expected < ring.size() && Long.compareUnsigned(ring.pointAt(expected), k) < 0) {
                expected++;
            }
            assertEquals(expected == ring.size() ? 0 : expected, ring.positionOf(key), "key " + Long.toHexString(key));
        }
    }

    @Test
    void theRingShrinksVirtualNodesForLargeSets() {
        assertEquals(128, HashRing.virtualNodes(100));
        assertEquals(128, HashRing.virtualNodes(16_384));
        assertEquals(16, HashRing.virtualNodes(100_000));
        assertEquals(8, HashRing.virtualNodes(1_000_000));
    }
}
