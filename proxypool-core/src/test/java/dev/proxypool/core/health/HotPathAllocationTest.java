package dev.proxypool.core.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.time.ManualClock;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The hot-path methods allocate nothing in steady state, measured with the JVM's per-thread
 * allocation counter (HotSpot's {@code com.sun.management.ThreadMXBean}) over a million calls.
 */
class HotPathAllocationTest {

    private static final int CALLS = 1_000_000;

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static long steadyState(ProxyHealth health, ManualClock clock, int rounds) {
        long sink = 0;
        for (int i = 0; i < rounds; i++) {
            long now = clock.read() + i; // time moves through the window's buckets without a clock object call
            Admission a = health.tryAdmit(now);
            sink += health.effectiveWeight(10, now);
            sink += health.isBannedFor("shop.example", now) ? 1 : 0;
            sink += health.isBannedFor("banned.example", now) ? 1 : 0;
            if (i % 3 == 0) {
                health.recordFailure(a, FailureKind.CONNECT_TIMEOUT, now);
            } else {
                health.recordSuccess(a, 1_000_000 + (i & 1023), now);
            }
            if (i % 5 == 0) {
                health.recordFailure(health.tryAdmit(now), FailureKind.UPSTREAM_UNREACHABLE, now);
            }
        }
        return sink;
    }

    @Test
    void tryAdmitWeightBansAndRecordsAllocateNothing() {
        Fx.Policy p = new Fx.Policy();
        p.errorRate = 0.9; // a steady 1-in-3 failure rate stays HEALTHY: no transitions, the steady state
        p.window = Duration.ofMillis(1); // the window rolls over buckets constantly
        ManualClock clock = new ManualClock();
        ProxyHealth health = new ProxyHealth(p.build(), clock.read());
        health.banDomain("banned.example", clock.read() + CALLS * 10L); // a non-empty ban map, one live ban

        steadyState(health, clock, CALLS); // warm up, let the JIT compile
        long before = allocatedBytes();
        long sink = steadyState(health, clock, CALLS);
        long bytes = allocatedBytes() - before;

        assertEquals(HealthState.HEALTHY, health.state(), "measured the steady state, not transitions");
        assertTrue(sink > 0);
        assertTrue(bytes < 1024, "allocated " + bytes + " bytes over " + CALLS + " rounds of hot-path calls");
    }

    private static int deniedWithStragglers(ProxyHealth health, long now) {
        int denied = 0;
        for (int i = 0; i < CALLS; i++) {
            denied += health.tryAdmit(now + i) == Admission.DENIED ? 1 : 0;
            health.recordFailure(Admission.ADMITTED, FailureKind.CONNECT_TIMEOUT, now + i); // stragglers
        }
        return denied;
    }

    @Test
    void deniedAdmissionsOfACoolingProxyAllocateNothing() {
        ManualClock clock = new ManualClock();
        ProxyHealth health = new ProxyHealth(HealthPolicy.DEFAULTS, clock.read());
        for (int i = 0; i < 3; i++) {
            health.recordFailure(Admission.ADMITTED, FailureKind.CONNECT_TIMEOUT, clock.read());
        }
        long now = clock.read();
        // warm up with exactly the measured calls: a first call of a path (the status field's
        // VarHandle linkage, an interpreter-to-JIT switch) may allocate once, which is not the
        // steady state this test is about
        int denied = deniedWithStragglers(health, now);
        long before = allocatedBytes();
        denied += deniedWithStragglers(health, now);
        long bytes = allocatedBytes() - before;
        assertEquals(2 * CALLS, denied);
        assertTrue(bytes < 1024, "allocated " + bytes + " bytes");
    }
}
