package dev.proxypool.server.gateway;

import org.junit.jupiter.api.extension.ExtendWith;

/** {@link GatewayStressTest} on the event-loop data plane. */
@ExtendWith(OnEventLoops.class)
class GatewayStressOnEventLoopsTest extends GatewayStressTest {}
