package dev.proxypool.server.gateway;

import org.junit.jupiter.api.extension.ExtendWith;

/** {@link GatewayStrictWireTest} on the event-loop data plane. */
@ExtendWith(OnEventLoops.class)
class GatewayStrictWireOnEventLoopsTest extends GatewayStrictWireTest {}
