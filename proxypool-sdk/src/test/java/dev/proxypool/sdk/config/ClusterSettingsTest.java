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
                Duration.ofSeconds(3),
                D.toBuilder().leaseTtl(Duration.ofSeconds(3)).build().leaseTtl());
    }

    record Bad(String key, Supplier<ClusterSettings> build) {}

    @Test
    void badValuesNameTheirKey() {
        List<Bad> table = List.of(
                new Bad(
                        "cluster.validity",
                        () -> D.toBuilder()
                                .validity(Duration.ZERO)
                                .renewAfter(Duration.ofSeconds(1))
                                .build()),
                new Bad(
                        "cluster.renewAfter",
                        () -> D.toBuilder()
                                .validity(Duration.ofMinutes(10))
                                .renewAfter(Duration.ofMinutes(6))
                                .build()),
                new Bad(
                        "cluster.renewAfter",
                        () -> D.toBuilder()
                                .validity(Duration.ofMinutes(10))
                                .renewAfter(Duration.ofSeconds(-1))
                                .build()),
                new Bad(
                        "cluster.deltasKept",
                        () -> D.toBuilder().deltasKept(0).fullEvery(1).build()),
                new Bad(
                        "cluster.fullEvery",
                        () -> D.toBuilder().deltasKept(8).fullEvery(9).build()),
                new Bad(
                        "cluster.fullEvery",
                        () -> D.toBuilder().deltasKept(8).fullEvery(0).build()),
                new Bad(
                        "cluster.pollInterval",
                        () -> D.toBuilder()
                                .pollInterval(Duration.ZERO)
                                .backoffMin(Duration.ofMillis(1))
                                .backoffMax(Duration.ofSeconds(1))
                                .build()),
                new Bad(
                        "cluster.backoffMax",
                        () -> D.toBuilder()
                                .pollInterval(Duration.ofSeconds(1))
                                .backoffMin(Duration.ofSeconds(2))
                                .backoffMax(Duration.ofSeconds(1))
                                .build()),
                new Bad(
                        "cluster.workerTtl",
                        () -> D.toBuilder().workerTtl(Duration.ofMillis(100)).build()),
                new Bad("cluster.workerTtl", () -> D.toBuilder().workerTtl(null).build()),
                new Bad(
                        "cluster.leaseTtl",
                        () -> D.toBuilder().leaseTtl(Duration.ofMillis(999)).build()),
                new Bad(
                        "cluster.leaseTtl",
                        () -> D.toBuilder().leaseTtl(Duration.ZERO).build()));
        for (Bad bad : table) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, bad.build::get, bad.key);
            assertTrue(e.getMessage().startsWith(bad.key), bad.key + ": " + e.getMessage());
        }
    }
}
