package dev.proxypool.server.gateway;

import org.junit.jupiter.api.extension.ExtendWith;

/** {@link GatewayCurlTest} on the event-loop data plane. */
@ExtendWith(OnEventLoops.class)
class GatewayCurlOnEventLoopsTest extends GatewayCurlTest {}
