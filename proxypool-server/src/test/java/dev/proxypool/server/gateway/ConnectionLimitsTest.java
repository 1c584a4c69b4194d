package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The default caps sized from the descriptor limit. */
class ConnectionLimitsTest {

    @Test
    void theGatewayGetsHalfOfWhatIsLeftAfterTheApiReserveAndHeadroom() {
        ConnectionLimits l = new ConnectionLimits(2048, 148);
        assertEquals(256, l.apiReserve(), "limit / 8");
        assertEquals((2048 - 148 - 256 - ConnectionLimits.HEADROOM) / 2, l.gatewayDefault());
        // 2,100 idle gateway connections against 2,048 descriptors: most are refused, the API keeps its share
        assertTrue(l.gatewayDefault() + l.gatewayDefault() + l.apiReserve() + 148 <= 2048);
    }

    @Test
    void smallAndHugeLimitsStayWithinBounds() {
        ConnectionLimits tiny = new ConnectionLimits(128, 120);
        assertEquals(32, tiny.apiReserve());
        assertEquals(ConnectionLimits.MIN_GATEWAY, tiny.gatewayDefault());
        ConnectionLimits huge = new ConnectionLimits(1_048_576, 200);
        assertEquals(1024, huge.apiReserve());
        assertEquals((1_048_576 - 200 - 1024 - ConnectionLimits.HEADROOM) / 2, huge.gatewayDefault());
        ConnectionLimits unknown = new ConnectionLimits(-1, -1);
        assertEquals(ConnectionLimits.UNKNOWN_LIMIT_CAP, unknown.gatewayDefault());
    }

    @Test
    void thisProcessHasAKnownLimitOnLinux() {
        ConnectionLimits l = ConnectionLimits.ofThisProcess();
        assertTrue(l.descriptorLimit() > 0, "descriptor limit " + l.descriptorLimit());
        assertTrue(l.gatewayDefault() >= ConnectionLimits.MIN_GATEWAY);
    }
}
