package dev.proxypool.server.gateway;

/**
 * A client connection the {@link Gateway} tracks for shutdown, whatever protocol it speaks
 * ({@link HttpProxyHandler}: HTTP proxy and SOCKS5).
 */
interface ServedConnection {

    /** True while the connection waits for its next request (closed at once on shutdown). */
    boolean idle();

    /** Closes the connection from another thread (shutdown). */
    void abort();
}
