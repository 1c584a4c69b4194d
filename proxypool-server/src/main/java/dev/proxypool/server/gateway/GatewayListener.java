package dev.proxypool.server.gateway;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;

/**
 * The gateway's own TCP listener: a {@link ServerSocket} (of a {@link ServerSocketChannel}, so
 * established tunnels can move to the selector relay) whose accept loop runs on a virtual
 * thread and hands each connection to a new virtual thread running {@link Gateway#serve}.
 * Chosen over a Helidon connection selector for throughput and full control of socket options
 * and half-close (GATEWAY-DESIGN.md). Started and stopped beside the Helidon WebServer.
 *
 * <p>Limits: with {@link GatewayConfig#maxConnections()} above 0, a connection accepted while that
 * many are open is closed at once (the client sees an immediate close, nothing is read); so is one
 * whose client address holds {@link GatewayConfig#maxConnectionsPerAddress()} open connections on
 * this listener. Both are counted ({@link GatewayMetrics#connectionClosed}). An accept
 * that fails (descriptors exhausted: {@code EMFILE}) never ends the loop: it backs off, from
 * {@value #ACCEPT_BACKOFF_MIN_MILLIS} ms doubling to {@value #ACCEPT_BACKOFF_MAX_MILLIS} ms, and
 * retries; the first failure of a streak is logged.
 */
public final class GatewayListener implements AutoCloseable {

    private static final int BACKLOG = 1024;
    private static final System.Logger LOG = System.getLogger(GatewayListener.class.getName());
    private static final long ACCEPT_BACKOFF_MIN_MILLIS = 10;
    private static final long ACCEPT_BACKOFF_MAX_MILLIS = 500;

    private final Gateway gateway;
    private final ServerSocket server;
    private final Thread acceptor;
    private final Thread.Builder connectionThreads;
    private final int maxConnections;
    /** Shared with a SOCKS5 listener beside this one: one cap on both ({@link #startSocks}). */
    private final AtomicInteger open;

    private final AtomicLong refused;
    /** Open connections per client address on this listener ({@code server.maxConnectionsPerAddress}). */
    private final ConcurrentHashMap<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();

    private final int maxPerAddress;
    private final AtomicLong refusedPerAddress = new AtomicLong();
    /** TLS over each accepted socket ({@code server.gatewayTls}), or null: plain. */
    private final TlsLayer tls;
    /** The {@code listener} tag of the metrics: {@link ClosedReason#LISTENER_GATEWAY} or {@code _SOCKS}. */
    private final String name;
    /** Serves one accepted connection: the HTTP proxy, or SOCKS5; only the former owns the gateway's shutdown. */
    private final BiConsumer<ClientChannel, Runnable> handler;

    private final boolean ownsGateway;
    private final boolean virtualThreads;
    private final AtomicLong acceptFailures = new AtomicLong();
    private volatile boolean running = true;
    /**
     * The event-loop data plane serving this listener instead of the accept loop, or null. Temporary:
     * selected by the internal switch {@value #LOOPS_SWITCH} while it does not carry everything yet.
     */
    private final EventLoopListener loops;

    /** The internal switch (a system property) that puts a plain HTTP listener on the event loops. */
    static final String LOOPS_SWITCH = "proxypool.gateway.loops";

    private GatewayListener(Gateway gateway, EventLoopListener loops) {
        this(gateway, loops, true);
    }

    private GatewayListener(Gateway gateway, EventLoopListener loops, boolean ownsGateway) {
        this.gateway = gateway;
        this.loops = loops;
        this.server = null;
        this.acceptor = null;
        this.connectionThreads = null;
        this.maxConnections = gateway.config().maxConnections();
        this.open = new AtomicInteger();
        this.refused = new AtomicLong();
        this.maxPerAddress = gateway.config().maxConnectionsPerAddress();
        this.tls = null;
        this.name = ClosedReason.LISTENER_GATEWAY;
        this.handler = null;
        this.ownsGateway = ownsGateway;
        this.virtualThreads = true;
    }

    private GatewayListener(Gateway gateway, ServerSocket server, boolean virtualThreads, TlsLayer tls) {
        this(gateway, server, virtualThreads, null, tls);
    }

    private GatewayListener(
            Gateway gateway, ServerSocket server, boolean virtualThreads, GatewayListener sibling, TlsLayer tls) {
        this.gateway = gateway;
        this.loops = null;
        this.tls = tls;
        this.name = sibling == null ? ClosedReason.LISTENER_GATEWAY : ClosedReason.LISTENER_SOCKS;
        this.maxPerAddress = gateway.config().maxConnectionsPerAddress();
        this.server = server;
        this.ownsGateway = sibling == null;
        this.virtualThreads = virtualThreads;
        this.handler = sibling == null ? gateway::serve : gateway::serveSocks;
        this.open = sibling == null ? new AtomicInteger() : sibling.open;
        this.refused = sibling == null ? new AtomicLong() : sibling.refused;
        this.maxConnections = gateway.config().maxConnections();
        this.connectionThreads = virtualThreads
                ? Thread.ofVirtual().name("gateway-conn")
                : Thread.ofPlatform().name("gateway-conn").daemon(true);
        // a virtual acceptor hands connections to the scheduler's local queue: no cross-thread wake-up
        this.acceptor = (virtualThreads
                        ? Thread.ofVirtual()
                        : Thread.ofPlatform().daemon(true))
                .name("gateway-accept-" + server.getLocalPort())
                .unstarted(this::acceptLoop);
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
        return start(gateway, bind, port, virtualThreads, null);
    }

    /**
     * Binds a plain channel's server socket and starts accepting; with {@code tls} (for {@code
     * server.gatewayTls}) each accepted socket gets TLS layered over it: the handshake then runs on the
     * connection's own thread at its first read, under the first-request deadline, and its tunnels use
     * the blocking relay. {@code tls} null: plain.
     */
    public static GatewayListener start(
            Gateway gateway, InetAddress bind, int port, boolean virtualThreads, TlsLayer tls) throws IOException {
        return start(gateway, bind, port, virtualThreads, tls, 0);
    }

    /**
     * As {@link #start(Gateway, InetAddress, int, boolean, TlsLayer)}; {@code loopThreads} sizes the
     * event-loop data plane ({@code server.gatewayThreads}, 0: one loop per core) when the internal switch
     * {@value #LOOPS_SWITCH} selects it.
     */
    public static GatewayListener start(
            Gateway gateway, InetAddress bind, int port, boolean virtualThreads, TlsLayer tls, int loopThreads)
            throws IOException {
        if (Boolean.getBoolean(LOOPS_SWITCH) && (tls == null || tls.engine() != null)) {
            return new GatewayListener(gateway, EventLoopListener.start(gateway, bind, port, loopThreads, tls));
        }
        GatewayListener l = new GatewayListener(gateway, bind(bind, port), virtualThreads, tls);
        l.acceptor.start();
        return l;
    }

    /**
     * Binds and starts a SOCKS5 listener ({@code server.socksPort}) beside {@code http}: the same
     * gateway (engine, authenticator, metrics, access log) and the same connection cap, counted
     * across both listeners. Stopping it closes its socket only; stopping {@code http} shuts the
     * gateway down, SOCKS5 connections included. Plain TCP (SOCKS5 has no TLS of its own).
     *
     * @param port 0 picks a free port (tests)
     */
    public static GatewayListener startSocks(GatewayListener http, InetAddress bind, int port) throws IOException {
        if (http.loops != null) {
            return new GatewayListener(http.gateway, EventLoopListener.startSocks(http.loops, bind, port), false);
        }
        GatewayListener l = new GatewayListener(http.gateway, bind(bind, port), http.virtualThreads, http, null);
        l.acceptor.start();
        return l;
    }

    private static ServerSocket bind(InetAddress bind, int port) throws IOException {
        // a channel's server socket: accepted sockets have the SocketChannel TunnelRelay needs, and closing it
        // from another thread ends a blocked read (of a TLS handshake too: FirstRequestDeadline)
        ServerSocket ss = ServerSocketChannel.open().socket();
        ss.setReuseAddress(true);
        ss.bind(new InetSocketAddress(bind, port), BACKLOG);
        return ss;
    }

    public int port() {
        return loops != null ? loops.port() : server.getLocalPort();
    }

    public Gateway gateway() {
        return gateway;
    }

    /** The cap on open client connections (0: none). */
    public int maxConnections() {
        return maxConnections;
    }

    /** Client connections open now (accepted and not yet closed). */
    public int openConnections() {
        return loops != null ? loops.openConnections() : open.get();
    }

    /** Connections closed at once because {@link #maxConnections()} were open. */
    public long refusedConnections() {
        return loops != null ? loops.refusedConnections() : refused.get();
    }

    /** The cap on one client address's open connections on this listener. */
    public int maxConnectionsPerAddress() {
        return maxPerAddress;
    }

    /** Connections closed at once because their address held {@link #maxConnectionsPerAddress()} here. */
    public long refusedPerAddress() {
        return loops != null ? loops.refusedPerAddress() : refusedPerAddress.get();
    }

    /** Accept calls that failed (descriptors exhausted, ...) and were retried. */
    public long acceptFailures() {
        return acceptFailures.get();
    }

    private void acceptLoop() {
        long backoff = 0;
        while (running) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException | RuntimeException e) {
                if (!running || server.isClosed()) {
                    return; // closed by stop()
                }
                // e.g. "Too many open files": transient, never a reason to stop listening for good
                acceptFailures.incrementAndGet();
                if (backoff == 0) {
                    LOG.log(
                            System.Logger.Level.WARNING,
                            "gateway accept failed ({0}); retrying with backoff",
                            e.getMessage());
                }
                backoff = backoff == 0 ? ACCEPT_BACKOFF_MIN_MILLIS : Math.min(backoff * 2, ACCEPT_BACKOFF_MAX_MILLIS);
                LockSupport.parkNanos(backoff * 1_000_000L);
                continue;
            }
            backoff = 0;
            if (maxConnections > 0 && open.get() >= maxConnections) {
                refused.incrementAndGet();
                // counted before the close: whoever sees the close also sees the count
                gateway.metrics().connectionClosed(name, ClosedReason.MAX_CONNECTIONS);
                closeQuietly(s); // over the cap: refused at once, before any byte is read
                continue;
            }
            InetAddress client = s.getInetAddress();
            if (!admit(client)) {
                refusedPerAddress.incrementAndGet();
                gateway.metrics().connectionClosed(name, ClosedReason.PER_ADDRESS_LIMIT);
                closeQuietly(s); // one address may not take the whole reserve
                continue;
            }
            open.incrementAndGet();
            Runnable closed = () -> {
                open.decrementAndGet();
                release(client);
            };
            try {
                s.setTcpNoDelay(true);
                OptionalLong at = OptionalLong.of(gateway.ticker().read());
                SocketClientChannel ch = new SocketClientChannel(tls == null ? s : tls.wrap(s), s, at);
                // the gateway runs the callback once the connection has closed: on this thread, or on the
                // selector relay's for a CONNECT tunnel handed over to it
                connectionThreads.start(() -> handler.accept(ch, closed));
            } catch (IOException | RuntimeException e) {
                closed.run();
                closeQuietly(s);
            }
        }
    }

    /** Counts a connection of {@code client} in; false when it holds the per-address cap already. */
    private boolean admit(InetAddress client) {
        boolean[] admitted = {false};
        perAddress.compute(client, (a, n) -> {
            int held = n == null ? 0 : n;
            if (held >= maxPerAddress) {
                return n;
            }
            admitted[0] = true;
            return held + 1;
        });
        return admitted[0];
    }

    private void release(InetAddress client) {
        perAddress.computeIfPresent(client, (a, n) -> n <= 1 ? null : n - 1);
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    /** Stops accepting, then shuts the gateway down with the given grace period. */
    public void stop(Duration grace) {
        running = false;
        if (loops != null) {
            loops.stop(grace);
            return;
        }
        try {
            server.close();
        } catch (IOException ignored) {
            // already closed
        }
        if (ownsGateway) {
            gateway.shutdown(grace);
        }
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(5));
    }
}
