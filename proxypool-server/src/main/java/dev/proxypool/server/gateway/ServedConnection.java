package dev.proxypool.server.gateway;

/**
 * A client connection the {@link Gateway} tracks for shutdown, whatever protocol it speaks (HTTP
 * proxy: {@link GatewayConnection}; SOCKS5: {@link SocksConnection}).
 */
interface ServedConnection {

    /** True while the connection waits for its next request (closed at once on shutdown). */
    boolean idle();

    /** Closes the connection from another thread (shutdown). */
    void abort();

    /**
     * Serves the connection on the calling thread until it closes (returns false), or until it hands
     * itself over to another thread (returns true; only a connection made to allow it does): that
     * thread then runs {@code ended} once the connection has closed.
     */
    boolean run(Runnable ended);
}
