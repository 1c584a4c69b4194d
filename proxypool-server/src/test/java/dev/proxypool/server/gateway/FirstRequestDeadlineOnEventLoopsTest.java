package dev.proxypool.server.gateway;

import org.junit.jupiter.api.extension.ExtendWith;

/** {@link FirstRequestDeadlineTest} on the event-loop data plane. */
@ExtendWith(OnEventLoops.class)
class FirstRequestDeadlineOnEventLoopsTest extends FirstRequestDeadlineTest {}
