package dev.proxypool.server.gateway;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The HTTP wire suite ({@link GatewayWireTest}: forwarding, CONNECT, framing, errors, keep-alive) on
 * the event-loop data plane while {@link NoLoopBlocking} records the loops: the class fails if a loop
 * thread blocked anywhere in it.
 */
@ExtendWith({OnEventLoops.class, NoLoopBlocking.class})
class LoopsNeverBlockTest extends GatewayWireTest {}
