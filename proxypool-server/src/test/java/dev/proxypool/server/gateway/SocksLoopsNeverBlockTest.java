package dev.proxypool.server.gateway;

import org.junit.jupiter.api.extension.ExtendWith;

/** The SOCKS5 wire suite ({@link SocksWireTest}) on the event loops, failing if a loop thread blocked. */
@ExtendWith({OnEventLoops.class, NoLoopBlocking.class})
class SocksLoopsNeverBlockTest extends SocksWireTest {}
