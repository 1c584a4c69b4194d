package dev.proxypool.server.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.nodes.NodeSettings;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.ProxyPool;
import dev.proxypool.server.e2e.security.LogCapture;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Closing the registry stops its sweeper before it returns, so a sweep never runs into the pool
 * store the server closes next ("node sweep failed: pool store is closed" after a clean shutdown).
 */
class NodeSweeperCloseTest {

    private static final NodeSettings FAST_SWEEPS = new NodeSettings(
            Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofMinutes(10), Duration.ofMillis(1));

    @Test
    void closeWaitsForTheSweeperSoClosingTheStoreNextLogsNothing() {
        try (LogCapture logs = LogCapture.install()) {
            for (int round = 0; round < 20; round++) { // a sweep runs every millisecond: close lands mid-sweep often
                ManualClock clock = new ManualClock(NodeFixture.START);
                ProxyPool pool = ProxyPool.builder()
                        .background(false)
                        .clocks(clock, clock)
                        .build();
                NodeRegistry registry = new NodeRegistry(pool, clock, FAST_SWEEPS, NodeStore.NONE).restore();
                registry.startSweeping();
                assertTrue(registry.sweeping());
                for (int i = 0; i < 5; i++) {
                    registry.sweep(); // the same work the sweeper does, so it is certainly under way
                }
                registry.close();
                assertFalse(registry.sweeping(), "round " + round + ": the sweeper ended before close returned");
                pool.close();
            }
            List<LogCapture.Line> failures = logs.lines().stream()
                    .filter(l -> l.text().contains("node sweep failed"))
                    .toList();
            assertEquals(List.of(), failures);
        }
    }
}
