package dev.proxypool.server.gateway;

import org.junit.jupiter.api.extension.ExtendWith;

/** {@link GatewayHttpClientTest} on the event-loop data plane. */
@ExtendWith(OnEventLoops.class)
class GatewayHttpClientOnEventLoopsTest extends GatewayHttpClientTest {}
