package dev.proxypool.server.gateway;

import org.junit.jupiter.api.extension.ExtendWith;

/** {@link GatewayWireTest} on the event-loop data plane. */
@ExtendWith(OnEventLoops.class)
class GatewayWireOnEventLoopsTest extends GatewayWireTest {}
