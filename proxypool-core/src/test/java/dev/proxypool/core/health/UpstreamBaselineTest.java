package dev.proxypool.core.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.runtime.RuntimeRegistry;
import dev.proxypool.core.snapshot.PoolFixture;
import dev.proxypool.core.time.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The per-upstream sums the dynamic weights compare against (docs/design.md#slow-start, H12). */
class UpstreamBaselineTest {

    private final ManualClock clock = new ManualClock();
    private final UpstreamBaseline upstream = new UpstreamBaseline("up");

    private ProxyHealth member() {
        return new ProxyHealth(HealthPolicy.DEFAULTS, clock.read(), HealthListener.none(), upstream);
    }

    @Test
    void theMeansFollowTheHealthyMembersOnly() {
        ProxyHealth a = member();
        ProxyHealth b = member();
        assertEquals(0, upstream.latencyMembers(), "no sample yet");
        a.recordSuccess(Admission.ADMITTED, 10_000_000, clock.read());
        b.recordSuccess(Admission.ADMITTED, 30_000_000, clock.read());
        assertEquals(2, upstream.latencyMembers());
        assertEquals(20_000_000, upstream.meanLatencyNanos());
        assertEquals(30_000_000, a.peerLatencyNanos(), "a's peers: b");
        assertEquals(10_000_000, b.peerLatencyNanos(), "b's peers: a");
        assertEquals(1.0, a.peerSuccess());

        for (int i = 0; i < 3; i++) { // b cools: its numbers leave the baseline
            b.recordFailure(b.tryAdmit(clock.read()), FailureKind.CONNECT_TIMEOUT, clock.read());
        }
        assertEquals(HealthState.COOLING, b.state());
        assertEquals(1, upstream.latencyMembers());
        assertEquals(10_000_000, upstream.meanLatencyNanos());
        assertEquals(0, a.peerLatencyNanos(), "a has no healthy peer now");
        assertEquals(-1, a.peerSuccess());

        b.enable("back", clock.read()); // one recovery check, then back in service: rejoins with its next outcome
        assertEquals(1, upstream.latencyMembers());
        b.recordSuccess(b.tryAdmit(clock.read()), 30_000_000, clock.read());
        assertEquals(HealthState.HEALTHY, b.state());
        assertEquals(1, upstream.latencyMembers(), "the recovery probe's outcome is not a member's");
        b.recordSuccess(Admission.ADMITTED, 30_000_000, clock.read());
        assertEquals(2, upstream.latencyMembers());
        assertEquals(1.0, b.successEwma(), 0.2);

        a.retire();
        a.recordSuccess(Admission.ADMITTED, 10_000_000, clock.read()); // a straggler after it left the pool
        assertEquals(1, upstream.latencyMembers(), "a retired proxy never comes back into the sums");
        assertEquals(b.latencyEwmaNanos(), upstream.meanLatencyNanos());
    }

    @Test
    void theRegistryKeepsOneBaselinePerUpstreamAndRetiresRemovedProxies() {
        PoolFixture f = new PoolFixture();
        List<Proxy> proxies = new ArrayList<>(PoolFixture.proxies("a", 2));
        proxies.add(PoolFixture.proxy("b0").upstream("up-b").build());
        f.build(proxies);
        RuntimeRegistry registry = f.registry;
        assertTrue(registry.find("a0").health().baseline()
                == registry.find("a1").health().baseline());
        assertTrue(registry.find("a0").health().baseline()
                != registry.find("b0").health().baseline());
        assertEquals("up-b", registry.find("b0").health().baseline().upstream());
        for (String id : List.of("a0", "a1", "b0")) {
            registry.find(id).health().recordSuccess(Admission.ADMITTED, 5_000_000, f.now());
        }
        UpstreamBaseline upA = registry.baseline("up-a");
        assertEquals(2, upA.latencyMembers());
        registry.retainOnly(Set.of("a1", "b0"));
        assertEquals(1, upA.latencyMembers(), "a0 left the pool and the baseline");
        assertEquals(1, registry.baseline("up-b").latencyMembers());
    }

    @Test
    void concurrentUpdatesCoolingAndRecoveryLeaveExactSums() throws Exception {
        HealthPolicy policy = HealthPolicy.DEFAULTS;
        List<ProxyHealth> members = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            members.add(new ProxyHealth(policy, clock.read(), HealthListener.none(), upstream));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long seed = t;
                done.add(pool.submit(() -> {
                    SplittableRandom r = new SplittableRandom(seed);
                    start.await();
                    for (int i = 0; i < 50_000; i++) {
                        ProxyHealth h = members.get(r.nextInt(members.size()));
                        int dice = r.nextInt(100);
                        if (dice < 3) {
                            h.recordFailure(Admission.ADMITTED, FailureKind.CONNECT_TIMEOUT, clock.read());
                        } else if (dice < 4) {
                            h.enable("again", clock.read());
                        } else {
                            h.recordSuccess(Admission.ADMITTED, 1_000_000 + r.nextInt(50_000_000), clock.read());
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> d : done) {
                d.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        for (ProxyHealth h : members) { // one quiet success each: every healthy member publishes its latest
            if (h.state() == HealthState.HEALTHY) {
                h.recordSuccess(Admission.ADMITTED, 10_000_000, clock.read());
            }
        }
        long sum = 0;
        int healthy = 0;
        for (ProxyHealth h : members) {
            if (h.state() == HealthState.HEALTHY) {
                sum += h.latencyEwmaNanos();
                healthy++;
            }
        }
        assertEquals(healthy, upstream.latencyMembers(), "exactly the healthy members are counted");
        assertEquals(healthy == 0 ? 0 : sum / healthy, upstream.meanLatencyNanos(), "and the sum is exact");
    }
}
