package dev.proxypool.server.gateway;

import org.junit.jupiter.api.extension.ExtendWith;

/** {@link SocksWireTest} on the event-loop data plane. */
@ExtendWith(OnEventLoops.class)
class SocksWireOnEventLoopsTest extends SocksWireTest {}
