package dev.proxypool.server.gateway;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * The gateway's own TCP listener: a {@link ServerSocket} whose accept loop runs on a virtual
 * thread and hands each connection to a new virtual thread running {@link Gateway#serve}.
 * Chosen over a Helidon connection selector for throughput and full control of socket options
 * and half-close (GATEWAY-DESIGN.md). Started and stopped beside the Helidon WebServer.
 */
public final class GatewayListener implements AutoCloseable {

    private static final int BACKLOG = 1024;
    private static final long ACCEPT_BACKOFF_NANOS = 50_000_000L;

    private final Gateway gateway;
    private final ServerSocket server;
    private final Thread acceptor;
    private final Thread.Builder connectionThreads;
    private volatile boolean running = true;

    private GatewayListener(Gateway gateway, ServerSocket server, boolean virtualThreads) {
        this.gateway = gateway;
        this.server = server;
        this.connectionThreads = virtualThreads ? Thread.ofVirtual().name("gateway-conn")
                : Thread.ofPlatform().name("gateway-conn").daemon(true);
        // a virtual acceptor hands connections to the scheduler's local queue: no cross-thread wake-up
        this.acceptor = (virtualThreads ? Thread.ofVirtual() : Thread.ofPlatform().daemon(true))
                .name("gateway-accept-" + server.getLocalPort()).unstarted(this::acceptLoop);
    }

    /**
     * Binds and starts accepting.
     *
     * @param port 0 picks a free port (tests)
     */
    public static GatewayListener start(Gateway gateway, InetAddress bind, int port) throws IOException {
        return start(gateway, bind, port, true);
    }

    /**
     * Binds and starts accepting, with one virtual thread per connection (the default) or one
     * platform thread per connection (measured in GATEWAY-DESIGN.md).
     */
    public static GatewayListener start(Gateway gateway, InetAddress bind, int port, boolean virtualThreads)
            throws IOException {
        ServerSocket ss = new ServerSocket();
        ss.setReuseAddress(true);
        ss.bind(new InetSocketAddress(bind, port), BACKLOG);
        GatewayListener l = new GatewayListener(gateway, ss, virtualThreads);
        l.acceptor.start();
        return l;
    }

    public int port() {
        return server.getLocalPort();
    }

    public Gateway gateway() {
        return gateway;
    }

    private void acceptLoop() {
        while (running) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (!running || server.isClosed()) {
                    return; // closed by stop()
                }
                // e.g. "Too many open files": transient, never a reason to stop listening for good
                LockSupport.parkNanos(ACCEPT_BACKOFF_NANOS);
                continue;
            }
            try {
                s.setTcpNoDelay(true);
                SocketClientChannel ch = new SocketClientChannel(s);
                connectionThreads.start(() -> gateway.serve(ch));
            } catch (IOException | RuntimeException e) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // nothing to do
                }
            }
        }
    }

    /** Stops accepting, then shuts the gateway down with the given grace period. */
    public void stop(Duration grace) {
        running = false;
        try {
            server.close();
        } catch (IOException ignored) {
            // already closed
        }
        gateway.shutdown(grace);
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(5));
    }
}
