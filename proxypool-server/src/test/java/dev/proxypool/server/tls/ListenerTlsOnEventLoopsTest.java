package dev.proxypool.server.tls;

import dev.proxypool.server.gateway.OnEventLoops;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ListenerTlsTest} on the event-loop data plane. */
@ExtendWith(OnEventLoops.class)
class ListenerTlsOnEventLoopsTest extends ListenerTlsTest {}
