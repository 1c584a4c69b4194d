package dev.proxypool.testkit;

import dev.proxypool.core.time.Ticker;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * The common machinery of every fake: a loopback listener on an ephemeral port, one virtual thread
 * per connection, optional TLS, {@link Faults}, and connection counters.
 *
 * <p>Counters: {@link #acceptedConnections()} only grows; {@link #openConnections()} counts
 * client connections whose handler has not finished, and {@link #openOutboundConnections()} the
 * connections a proxy opened to targets. After every client closed, both open counters return to
 * 0 ({@link #awaitIdle(Duration)}), which is how tests prove nothing leaked.
 *
 * <p>Thread-safety: all public methods may be called from any thread. {@link #faults(Faults)}
 * applies to connections accepted afterwards.
 */
public abstract class FakeServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(FakeServer.class.getName());
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final String name;
    private final ServerSocket listener;
    private final SSLContext tls;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Set<Thread> handlers = ConcurrentHashMap.newKeySet();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong handlerErrors = new AtomicLong();
    private final AtomicInteger delaying = new AtomicInteger();
    private final AtomicInteger maxDelaying = new AtomicInteger();
    private final Object idle = new Object();
    private int open;
    private int openOutbound;
    private int maxOpen;
    private volatile Faults faults;
    private volatile InetAddress outboundFrom;
    private volatile boolean closed;
    private Thread acceptor;

    FakeServer(String name, InetAddress bind, SSLContext tls, Faults faults) {
        this.name = name;
        this.tls = tls;
        this.faults = faults;
        try {
            this.listener = new ServerSocket(0, 512, bind);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind " + name + " on " + bind, e);
        }
    }

    /**
     * Binds the outbound connections of a proxy to {@code local} (e.g. {@code 127.0.0.2}), so an
     * origin sees an exit address other than the client's own loopback address; null for the
     * system's choice. Set by a subclass builder before {@link #begin()}.
     */
    final void outboundFrom(InetAddress local) {
        this.outboundFrom = local;
    }

    /** The local address outbound connections bind to; empty for the system's choice. */
    public final Optional<InetAddress> outboundAddress() {
        return Optional.ofNullable(outboundFrom);
    }

    /** Starts accepting; called once by the subclass factory after construction. */
    final void begin() {
        acceptor = Thread.ofVirtual().name(name + "-accept").start(this::acceptLoop);
    }

    /** Serves one client connection; returning or throwing closes it. */
    abstract void serve(Connection c) throws IOException;

    /** The bound port. */
    public final int port() {
        return listener.getLocalPort();
    }

    /** The bound address as a literal ({@code 127.0.0.1} or {@code ::1}). */
    public final String host() {
        return listener.getInetAddress().getHostAddress();
    }

    /** {@code host:port}, IPv6 in brackets. */
    public final String authority() {
        String h = host();
        return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + port();
    }

    public final InetSocketAddress address() {
        return new InetSocketAddress(listener.getInetAddress(), port());
    }

    public final boolean isTls() {
        return tls != null;
    }

    public final Faults faults() {
        return faults;
    }

    /** Replaces the faults for connections accepted from now on. */
    public final void faults(Faults newFaults) {
        if (newFaults == null) {
            throw new IllegalArgumentException("faults must not be null (use Faults.NONE)");
        }
        this.faults = newFaults;
    }

    public final long acceptedConnections() {
        return accepted.get();
    }

    public final int openConnections() {
        synchronized (idle) {
            return open;
        }
    }

    /** The most client connections that were open at the same time since the start. */
    public final int maxOpenConnections() {
        synchronized (idle) {
            return maxOpen;
        }
    }

    public final int openOutboundConnections() {
        synchronized (idle) {
            return openOutbound;
        }
    }

    /**
     * The most connections that were inside the {@link Faults#latency(Duration) latency} delay at
     * the same time, since the start: how many requests a client had outstanding here at once,
     * exactly (unlike {@link #openConnections()}, which still counts a connection whose client has
     * finished with it until its handler has seen the close).
     */
    public final int maxConcurrentDelays() {
        return maxDelaying.get();
    }

    void delayBegins() {
        maxDelaying.accumulateAndGet(delaying.incrementAndGet(), Math::max);
    }

    void delayEnds() {
        delaying.decrementAndGet();
    }

    /** Handler failures other than I/O errors (a bug in the fake, or a client it could not parse). */
    public final long handlerErrors() {
        return handlerErrors.get();
    }

    /** Waits until no client or outbound connection is open; false if that did not happen in time. */
    public final boolean awaitIdle(Duration timeout) {
        return awaitOpen(0, timeout);
    }

    /**
     * Waits until exactly {@code expected} client connections are open (for 0: and no outbound
     * connection either); false if that did not happen in time.
     */
    public final boolean awaitOpen(int expected, Duration timeout) {
        Ticker ticker = Ticker.system();
        long deadline = ticker.read() + timeout.toNanos();
        synchronized (idle) {
            while (open != expected || (expected == 0 && openOutbound != 0)) {
                long left = deadline - ticker.read();
                if (left <= 0) {
                    return false;
                }
                try {
                    idle.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    /** Stops listening, closes every connection and waits (bounded) for their handlers to end. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (Socket s : sockets) {
            closeQuietly(s);
        }
        for (Thread t : handlers) {
            t.interrupt(); // ends injected delays at once
        }
        if (acceptor != null) {
            try {
                acceptor.join(CLOSE_WAIT);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        awaitIdle(CLOSE_WAIT);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + authority() + (tls != null ? " tls" : "") + "]";
    }

    /**
     * Opens a tracked outbound connection (a proxy to its target); closed with the server. The
     * caller closes it; {@link #outboundClosed(Socket)} must follow.
     */
    final Socket openOutbound(String host, int port, Duration timeout) throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            InetAddress from = outboundFrom;
            if (from != null) {
                s.bind(new InetSocketAddress(from, 0));
            }
            s.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
        } catch (IOException e) {
            s.close();
            throw e;
        }
        synchronized (idle) {
            openOutbound++;
        }
        sockets.add(s);
        if (closed) {
            outboundClosed(s);
            throw new SocketException("server closed");
        }
        return s;
    }

    final void outboundClosed(Socket s) {
        closeQuietly(s);
        if (sockets.remove(s)) {
            synchronized (idle) {
                openOutbound--;
                idle.notifyAll();
            }
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, name + ": accept failed", e);
                }
                return;
            }
            accepted.incrementAndGet();
            synchronized (idle) {
                open++;
                maxOpen = Math.max(maxOpen, open);
                idle.notifyAll(); // awaitOpen(n) waits for a rise too
            }
            sockets.add(s);
            if (closed) {
                closeQuietly(s);
            }
            Thread handler = Thread.ofVirtual().name(name + "-conn").unstarted(() -> handle(s));
            handlers.add(handler);
            handler.start();
        }
    }

    private void handle(Socket raw) {
        Faults f = faults;
        InputStream in = null;
        try {
            raw.setTcpNoDelay(true);
            if (f.hanging()) {
                drain(raw.getInputStream());
                return;
            }
            Socket top = raw;
            if (tls != null) {
                // layered over the TCP socket, so a reset fault can cut below TLS
                SSLSocket ssl = (SSLSocket) tls.getSocketFactory().createSocket(raw, null, true);
                ssl.startHandshake();
                top = ssl;
            }
            in = new BufferedInputStream(top.getInputStream());
            OutputStream out = new FaultyOutput(raw, top, top.getOutputStream(), f, this);
            serve(new Connection(top, raw, in, out));
        } catch (InjectedFault fault) {
            if (fault.kind() == InjectedFault.Kind.HALF_CLOSED && in != null) {
                drainQuietly(in);
            }
        } catch (IOException e) {
            // the client went away or spoke nonsense: normal for a fake
        } catch (RuntimeException e) {
            handlerErrors.incrementAndGet();
            LOG.log(Level.WARNING, name + ": handler failed", e);
        } finally {
            handlers.remove(Thread.currentThread());
            closeQuietly(raw);
            sockets.remove(raw);
            synchronized (idle) {
                open--;
                idle.notifyAll();
            }
        }
    }

    static void drain(InputStream in) throws IOException {
        byte[] buf = new byte[8192];
        while (in.read(buf) >= 0) {
            // discard
        }
    }

    private static void drainQuietly(InputStream in) {
        try {
            drain(in);
        } catch (IOException ignored) {
            // closed
        }
    }

    static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    /**
     * One client connection as a handler sees it.
     *
     * @param socket the socket spoken on (TLS socket in TLS mode)
     * @param raw    the TCP socket
     * @param in     buffered input
     * @param out    output with the connection's faults applied; unbuffered, so write whole messages
     */
    record Connection(Socket socket, Socket raw, InputStream in, OutputStream out) {

        String peerAddress() {
            return raw.getInetAddress().getHostAddress();
        }

        /** Half-closes toward the client (FIN; close_notify over TLS), falling back to a full close. */
        void shutdownOutput() {
            try {
                socket.shutdownOutput();
            } catch (IOException | UnsupportedOperationException e) {
                closeQuietly(raw);
            }
        }
    }
}
