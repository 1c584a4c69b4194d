package dev.proxypool.server.gateway;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;

/**
 * A gateway listener (HTTP proxy, or SOCKS5 beside it) on the gateway's event loops
 * ({@link EventLoopListener}): started and stopped beside the Helidon WebServer that serves the REST API.
 *
 * <p>Limits: with {@link GatewayConfig#maxConnections()} above 0, a connection accepted while that
 * many are open (across the HTTP and SOCKS5 listeners) is closed at once, nothing read; so is one whose
 * client address holds {@link GatewayConfig#maxConnectionsPerAddress()} open connections on this
 * listener. Both are counted ({@link GatewayMetrics#connectionClosed}). A failed accept (descriptors
 * exhausted: {@code EMFILE}) never ends the listener: the transport retries it.
 */
public final class GatewayListener implements AutoCloseable {

    private final Gateway gateway;
    private final EventLoopListener loops;

    private GatewayListener(Gateway gateway, EventLoopListener loops) {
        this.gateway = gateway;
        this.loops = loops;
    }

    /** Binds {@code port} (0 picks a free one) and starts serving, plain, one event loop per core. */
    public static GatewayListener start(Gateway gateway, InetAddress bind, int port) throws IOException {
        return start(gateway, bind, port, null, 0);
    }

    /**
     * Binds {@code port} and starts serving.
     *
     * @param tls         TLS on the listener ({@code server.gatewayTls}), or null: plain
     * @param loopThreads the event loops ({@code server.gatewayThreads}); 0: one per core
     */
    public static GatewayListener start(Gateway gateway, InetAddress bind, int port, TlsLayer tls, int loopThreads)
            throws IOException {
        return new GatewayListener(gateway, EventLoopListener.start(gateway, bind, port, loopThreads, tls));
    }

    /**
     * Binds and starts a SOCKS5 listener ({@code server.socksPort}) beside {@code http}: the same
     * gateway (engine, authenticator, metrics, access log), event loops and connection cap. Stopping it
     * closes its socket only; stopping {@code http} shuts the gateway down, SOCKS5 connections included.
     *
     * @param port 0 picks a free port (tests)
     */
    public static GatewayListener startSocks(GatewayListener http, InetAddress bind, int port) throws IOException {
        return new GatewayListener(http.gateway, EventLoopListener.startSocks(http.loops, bind, port));
    }

    public int port() {
        return loops.port();
    }

    public Gateway gateway() {
        return gateway;
    }

    /** The cap on open client connections (0: none). */
    public int maxConnections() {
        return gateway.config().maxConnections();
    }

    /** Client connections open now (accepted and not yet closed). */
    public int openConnections() {
        return loops.openConnections();
    }

    /** Connections closed at once because {@link #maxConnections()} were open. */
    public long refusedConnections() {
        return loops.refusedConnections();
    }

    /** The cap on one client address's open connections on this listener. */
    public int maxConnectionsPerAddress() {
        return gateway.config().maxConnectionsPerAddress();
    }

    /** Connections closed at once because their address held {@link #maxConnectionsPerAddress()} here. */
    public long refusedPerAddress() {
        return loops.refusedPerAddress();
    }

    /** Accepts that failed (descriptors exhausted, ...) and were retried. */
    public long acceptFailures() {
        return loops.acceptFailures();
    }

    /** Stops accepting, then (the HTTP listener) shuts the gateway down with the given grace period. */
    public void stop(Duration grace) {
        loops.stop(grace);
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(5));
    }
}
