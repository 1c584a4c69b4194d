package dev.proxypool.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class RedisClusterServerTest {

    @Test
    void startsThreeMastersWithReplicasFailsOverAKilledMasterAndCleansUp() {
        List<Integer> ports;
        try (RedisClusterServer cluster = RedisClusterServer.start()) {
            ports = cluster.ports();
            assertEquals(6, ports.size());
            assertTrue(ports.stream()
                    .allMatch(p -> p >= RedisClusterServer.PORT_LOW && p <= RedisClusterServer.PORT_HIGH));
            assertEquals(3, cluster.masterPorts().size());
            int master = cluster.masterOf("{k}a");
            assertEquals("OK", RedisClusterServer.command(master, "SET", "{k}a", "1"));

            cluster.kill(master);
            int promoted = cluster.awaitPromotion(master, Duration.ofSeconds(30));
            assertNotEquals(master, promoted);
            assertEquals(promoted, cluster.masterOf("{k}a"));
            assertEquals(3, cluster.masterPorts().size());
        }
        for (int p : ports) {
            assertFalse(isListening(p), "port " + p + " still served after close");
        }
    }

    private static boolean isListening(int port) {
        try {
            RedisClusterServer.command(port, "PING");
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
