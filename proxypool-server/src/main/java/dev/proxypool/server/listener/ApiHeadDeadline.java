package dev.proxypool.server.listener;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.http.RequestException;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionListener;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The REST listener's connection deadlines and per-address cap, which Helidon does not have: its HTTP/1
 * connection waits for a head as long as bytes keep trickling in, and a connection that sends nothing (or
 * trickles its TLS ClientHello) holds one of the listener's connection slots until the idle sweep.
 *
 * <ul>
 *   <li>{@code server.firstRequestTimeout}: from accept (when Helidon hands the connection over, before
 *       any byte is read and before the TLS handshake, which runs at the first read) to the first request's
 *       complete header block. A connection that delivered no request byte by then (silent, or still in its
 *       TLS handshake) is closed at once: the connection's thread is interrupted, which closes its channel
 *       under a blocked read (so no lock of the TLS socket is needed from the timer's thread).</li>
 *   <li>{@code server.requestHeadTimeout}: from a request's first bytes to the end of its header block.</li>
 *   <li>A request whose head has begun when either deadline runs out gets {@code 408 Request Timeout} and
 *       the connection is closed.</li>
 *   <li>{@code server.maxConnectionsPerAddress}: a connection beyond that many open from one client
 *       address is closed at once, so one address cannot take the listener's whole reserve.</li>
 * </ul>
 *
 * <p>The head deadline starts with the first bytes read while no request is in progress, stops when
 * Helidon has parsed the headers, and a final (non-1xx) response status makes the connection idle
 * again. Idle keep-alive connections are Helidon's idle-connection timer's business. Every close counts in
 * {@link ListenerCloses}. Use it alone on its listener ({@code protocolsDiscoverServices(false)}): with a
 * single candidate Helidon hands the connection over without reading first.
 */
public final class ApiHeadDeadline implements ServerConnectionSelector, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ApiHeadDeadline.class.getName());
    /** How long a connection stays open after its 408, its input read and dropped, before it is closed. */
    private static final long LINGER_MILLIS = 1000;

    private final long timeoutNanos;
    private final long firstNanos;
    private final int maxPerAddress;
    private final ListenerCloses closes;
    private final Map<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();
    private final byte[] response;
    private final ScheduledThreadPoolExecutor timer;
    private final ServerConnectionSelector http1;

    /**
     * @param timeout        {@code server.requestHeadTimeout}: a request's first byte to the end of its head
     * @param firstRequest   {@code server.firstRequestTimeout}: accept to the end of the first request's head
     * @param maxPerAddress  {@code server.maxConnectionsPerAddress}: open connections one client address may hold
     * @param closes         where the closes are counted
     */
    public ApiHeadDeadline(Duration timeout, Duration firstRequest, int maxPerAddress, ListenerCloses closes) {
        if (maxPerAddress < 1) {
            throw new IllegalArgumentException(
                    "server.maxConnectionsPerAddress must be at least 1, got " + maxPerAddress);
        }
        this.timeoutNanos = timeout.toNanos();
        this.firstNanos = firstRequest.toNanos();
        this.maxPerAddress = maxPerAddress;
        this.closes = closes;
        // one answer for both deadlines: the head did not arrive within the request-head deadline from its
        // first byte, or (the first request) within the first-request deadline from accept
        byte[] body = ("request_timeout: the request head did not arrive within " + timeout.toMillis()
                        + " ms of its first byte (server.requestHeadTimeout) or, the first one, within "
                        + firstRequest.toMillis() + " ms of the connection (server.firstRequestTimeout)\n")
                .getBytes(StandardCharsets.US_ASCII);
        this.response = ("HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                        + body.length + "\r\nConnection: close\r\n\r\n" + new String(body, StandardCharsets.US_ASCII))
                .getBytes(StandardCharsets.US_ASCII);
        this.timer = new ScheduledThreadPoolExecutor(
                1,
                r -> Thread.ofPlatform().daemon(true).name("api-head-deadline").unstarted(r));
        this.timer.setRemoveOnCancelPolicy(true);
        Http1ConnectionListener received = new Http1ConnectionListener() {
            @Override
            public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
                if (ctx instanceof Tracked t && t.closing()) {
                    // a request pipelined behind one answered with Connection: close is not served (RFC 9112 9.6)
                    throw new CloseConnectionException("Connection: close answered");
                }
            }

            @Override
            public void headers(ConnectionContext ctx, Headers headers) {
                if (ctx instanceof Tracked t) {
                    if (headers.containsToken(HeaderValues.CONNECTION_CLOSE)) {
                        t.closeAfterResponse();
                    }
                    if (headers.containsToken(HeaderValues.TRANSFER_ENCODING_CHUNKED)) {
                        // before the head deadline stops: the first chunk-size line is read under it
                        t.chunkedBody(!headers.containsToken(HeaderValues.EXPECT_100));
                    }
                    t.headComplete();
                }
            }
        };
        Http1ConnectionListener sent = new Http1ConnectionListener() {
            @Override
            public void headers(ConnectionContext ctx, Headers headers) {
                // a handler's own Connection: close (Helidon adds the header for a request's close only after
                // this call, which the request's headers above have noted)
                if (ctx instanceof Tracked t && headers.containsToken(HeaderValues.CONNECTION_CLOSE)) {
                    t.closeAfterResponse();
                }
            }

            @Override
            public void status(ConnectionContext ctx, Status status) {
                if (ctx instanceof Tracked t && status.code() >= 200) {
                    t.responded();
                }
            }
        };
        this.http1 = Http1ConnectionSelector.builder()
                .config(Http1Config.builder()
                        .addReceiveListener(received)
                        .addSendListener(sent)
                        .build())
                .build();
    }

    @Override
    public int bytesToIdentifyConnection() {
        return http1.bytesToIdentifyConnection();
    }

    @Override
    public Support supports(BufferData data) {
        return http1.supports(data);
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return http1.supportedApplicationProtocols();
    }

    @Override
    public ServerConnection connection(ConnectionContext ctx) {
        InetAddress client = ctx.remotePeer().address() instanceof InetSocketAddress isa ? isa.getAddress() : null;
        if (client != null && perAddress.merge(client, 1, Integer::sum) > maxPerAddress) {
            closes.perAddressLimit();
            // nothing read, nothing sent: Helidon closes the socket and frees its slot when handle returns
            return new Refused(() -> release(client));
        }
        Tracked tracked = new Tracked(ctx);
        ServerConnection c = http1.connection(tracked);
        tracked.armFirstRequest();
        return new ServerConnection() {
            @Override
            public void handle(Limit limit) throws InterruptedException {
                try {
                    if (tracked.started()) {
                        c.handle(limit);
                    }
                } finally {
                    tracked.closed();
                    if (client != null) {
                        release(client);
                    }
                }
            }

            @Override
            public Duration idleTime() {
                return c.idleTime();
            }

            @Override
            public void close(boolean interrupt) {
                c.close(interrupt);
            }
        };
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    private void release(InetAddress client) {
        perAddress.computeIfPresent(client, (a, n) -> n <= 1 ? null : n - 1);
    }

    /** Connections open now per client address (tests). */
    int openFrom(InetAddress client) {
        return perAddress.getOrDefault(client, 0);
    }

    /** A connection over the per-address cap: handled by returning at once. */
    private record Refused(Runnable release) implements ServerConnection {
        @Override
        public void handle(Limit limit) {
            release.run();
        }

        @Override
        public Duration idleTime() {
            return Duration.ZERO;
        }

        @Override
        public void close(boolean interrupt) {
            // handle returns at once; nothing to stop
        }
    }

    /** One connection's context, with a reader that reports arriving bytes to the deadline. */
    private final class Tracked implements ConnectionContext {
        private final ConnectionContext ctx;
        private final DataReader reader;
        private ScheduledFuture<?> pending;
        private ScheduledFuture<?> first;
        private Thread thread;
        private boolean firstHeadDone;
        private boolean inRequest;
        private boolean done;
        private boolean expired;
        private boolean closeAfter;
        private ChunkedFraming chunked;

        Tracked(ConnectionContext ctx) {
            this.ctx = ctx;
            DataReader original = ctx.dataReader();
            this.reader = DataReader.create(() -> {
                if (closing()) {
                    // Helidon 4.5 answers "Connection: close" with that header but then waits for the next
                    // request on the same connection (until the idle sweep); its next read ends it instead,
                    // so a client reading to EOF gets EOF right after the response
                    throw new CloseConnectionException("Connection: close answered");
                }
                if (original.available() == 0) {
                    original.pullData(); // blocks; the end of the stream surfaces as Helidon's own exception
                }
                byte[] bytes = original.readBytes(original.available());
                checkFraming(bytes);
                if (draining()) {
                    // the 408 is on its way: what still arrives is read and dropped until the lingering
                    // close (or the client's own) ends the connection, so Helidon answers nothing more
                    // and the close is a FIN, not a reset that could destroy the 408 in the client's buffers
                    while (true) {
                        original.pullData();
                        original.readBytes(original.available());
                    }
                }
                arrived();
                return bytes;
            });
        }

        private synchronized void arrived() {
            if (!inRequest && !done) {
                inRequest = true;
                pending = timer.schedule(() -> expired(false), timeoutNanos, TimeUnit.NANOSECONDS);
            }
        }

        synchronized void armFirstRequest() {
            first = timer.schedule(() -> expired(true), firstNanos, TimeUnit.NANOSECONDS);
        }

        /** Notes the connection's thread; false when the first-request deadline already closed it. */
        synchronized boolean started() {
            thread = Thread.currentThread();
            return !done;
        }

        synchronized void headComplete() {
            if (pending != null) {
                pending.cancel(false);
                pending = null;
            }
            if (first != null) {
                first.cancel(false);
                first = null;
            }
            firstHeadDone = true;
        }

        synchronized void responded() {
            headComplete();
            inRequest = false;
        }

        /**
         * A chunked request body follows the head just parsed: its bytes already read are checked now, and
         * with {@code readFirstSize} (no {@code Expect: 100-continue}, so the client sends the body unasked)
         * more is read until the first chunk-size line is whole, so a broken one is answered 400 before
         * routing (thrown from here, Helidon answers the {@link RequestException} and closes).
         */
        void chunkedBody(boolean readFirstSize) {
            ChunkedFraming framing = new ChunkedFraming();
            synchronized (this) {
                chunked = framing;
            }
            int buffered = reader.available();
            try {
                if (buffered > 0) {
                    byte[] ahead = new byte[buffered];
                    reader.getBuffer(buffered).read(ahead);
                    framing.feed(ahead, 0, buffered);
                }
            } catch (ChunkedFraming.Violation v) {
                throw badFraming(v);
            }
            while (readFirstSize && !framing.firstSizeRead()) {
                reader.pullData(); // checked in checkFraming; a violation is thrown from there
            }
        }

        /** Checks newly read bytes of a chunked body in progress. */
        private void checkFraming(byte[] bytes) {
            ChunkedFraming framing;
            synchronized (this) {
                framing = chunked;
            }
            if (framing == null || framing.done()) {
                return;
            }
            try {
                framing.feed(bytes, 0, bytes.length);
            } catch (ChunkedFraming.Violation v) {
                closeAfterResponse();
                throw badFraming(v);
            }
        }

        private RequestException badFraming(ChunkedFraming.Violation v) {
            synchronized (this) {
                closeAfter = true;
            }
            return RequestException.builder()
                    .type(DirectHandler.EventType.BAD_REQUEST)
                    .status(Status.BAD_REQUEST_400)
                    .setKeepAlive(false)
                    .safeMessage(true)
                    .message("invalid chunked request body: " + v.getMessage())
                    .build();
        }

        /** The response in progress carries {@code Connection: close}. */
        synchronized void closeAfterResponse() {
            closeAfter = true;
        }

        /** A {@code Connection: close} response was sent whole: nothing more is read. */
        synchronized boolean closing() {
            return closeAfter && !inRequest;
        }

        private synchronized boolean draining() {
            return expired;
        }

        synchronized void closed() {
            done = true;
            headComplete();
        }

        private void expired(boolean firstRequest) {
            Thread blocked;
            boolean answer;
            synchronized (this) {
                if (done || (firstRequest ? firstHeadDone : pending == null)) {
                    return; // the head completed meanwhile
                }
                if (pending != null) {
                    pending.cancel(false);
                    pending = null;
                }
                if (first != null) {
                    first.cancel(false);
                    first = null;
                }
                done = true;
                if (firstRequest) {
                    closes.firstRequestTimeout();
                } else {
                    closes.requestHeadTimeout();
                }
                // no request byte yet (silent, or the TLS handshake still running): nothing to answer
                answer = inRequest;
                blocked = thread;
                expired = answer;
            }
            if (!answer) {
                // interrupting a thread blocked on a channel closes the channel (InterruptibleChannel): its
                // read fails and the connection ends; without a thread yet, started() refuses to begin
                if (blocked != null) {
                    blocked.interrupt();
                }
                return;
            }
            try {
                ctx.dataWriter().writeNow(BufferData.create(response));
                // closing at once while the client's bytes keep arriving would reset the connection; after the
                // linger the interrupt closes the channel under the thread's blocked read (never the TLS
                // socket's close from this timer thread, which could wait on the connection's handshake lock)
                timer.schedule(
                        () -> {
                            if (blocked != null) {
                                blocked.interrupt();
                            } else {
                                ctx.serverSocket().close();
                            }
                        },
                        LINGER_MILLIS,
                        TimeUnit.MILLISECONDS);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "408 not delivered: {0}", e.toString());
                ctx.serverSocket().close();
            }
        }

        @Override
        public DataReader dataReader() {
            return reader;
        }

        @Override
        public ListenerContext listenerContext() {
            return ctx.listenerContext();
        }

        @Override
        public ExecutorService executor() {
            return ctx.executor();
        }

        @Override
        public DataWriter dataWriter() {
            return ctx.dataWriter();
        }

        @Override
        public Router router() {
            return ctx.router();
        }

        @Override
        public Optional<ProxyProtocolData> proxyProtocolData() {
            return ctx.proxyProtocolData();
        }

        @Override
        public HelidonSocket serverSocket() {
            return ctx.serverSocket();
        }

        @Override
        public PeerInfo remotePeer() {
            return ctx.remotePeer();
        }

        @Override
        public PeerInfo localPeer() {
            return ctx.localPeer();
        }

        @Override
        public boolean isSecure() {
            return ctx.isSecure();
        }

        @Override
        public String socketId() {
            return ctx.socketId();
        }

        @Override
        public String childSocketId() {
            return ctx.childSocketId();
        }
    }
}
