package dev.proxypool.sdk.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class ClusterSettingsTest {

    private static final ClusterSettings D = ClusterSettings.DEFAULTS;

    @Test
    void defaultsAreTheDocumentedOnes() {
        assertEquals(Duration.ofMinutes(10), D.validity());
        assertEquals(Duration.ofMinutes(1), D.renewAfter());
        assertEquals(64, D.deltasKept());
        assertEquals(1, D.fullEvery());
        assertEquals(Duration.ofSeconds(5), D.pollInterval());
        assertEquals(Duration.ofSeconds(15), D.workerTtl());
        assertEquals(Duration.ofSeconds(5), D.leaseTtl());
        assertEquals(
                Duration.ofSeconds(3), D.withLeaseTtl(Duration.ofSeconds(3)).leaseTtl());
    }

    record Bad(String key, Supplier<ClusterSettings> build) {}

    @Test
    void badValuesNameTheirKey() {
        List<Bad> table = List.of(
                new Bad("cluster.validity", () -> D.withValidity(Duration.ZERO, Duration.ofSeconds(1))),
                new Bad("cluster.renewAfter", () -> D.withValidity(Duration.ofMinutes(10), Duration.ofMinutes(6))),
                new Bad("cluster.renewAfter", () -> D.withValidity(Duration.ofMinutes(10), Duration.ofSeconds(-1))),
                new Bad("cluster.deltasKept", () -> D.withDeltas(0, 1)),
                new Bad("cluster.fullEvery", () -> D.withDeltas(8, 9)),
                new Bad("cluster.fullEvery", () -> D.withDeltas(8, 0)),
                new Bad(
                        "cluster.pollInterval",
                        () -> D.withPolling(Duration.ZERO, Duration.ofMillis(1), Duration.ofSeconds(1))),
                new Bad(
                        "cluster.backoffMax",
                        () -> D.withPolling(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(1))),
                new Bad("cluster.workerTtl", () -> D.withWorkerTtl(Duration.ofMillis(100))),
                new Bad("cluster.workerTtl", () -> D.withWorkerTtl(null)),
                new Bad("cluster.leaseTtl", () -> D.withLeaseTtl(Duration.ofMillis(999))),
                new Bad("cluster.leaseTtl", () -> D.withLeaseTtl(Duration.ZERO)));
        for (Bad bad : table) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, bad.build::get, bad.key);
            assertTrue(e.getMessage().startsWith(bad.key), bad.key + ": " + e.getMessage());
        }
    }
}
