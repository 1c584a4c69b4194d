package dev.proxypool.server.gateway;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.routing.RetryRule;
import dev.proxypool.core.wire.HeadReader;
import dev.proxypool.core.wire.Socks5Codec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One client connection of the HTTP proxy listener (or, with {@link SocksHandshake}, of the SOCKS5
 * listener) on its event loop: the request head is collected and checked with the gateway's strict
 * rules ({@link RequestHead}: 400/408/431), the client authenticated, the request routed and the
 * upstream dialed without blocking ({@link ExchangeRouting}: on the loop unless a password hash or a
 * name lookup must wait), plain requests forwarded ({@link PlainForward}), and a CONNECT tunnel relayed with auto-read and backpressure on writability,
 * half-close and byte counts. Deadlines are the loop's timers: from accept to the first complete
 * head ({@code firstRequestTimeout}, a TLS handshake included), from a head's first byte to its end
 * ({@code requestHeadTimeout}), keep-alive idleness, the tunnel's idleness, the close grace.
 *
 * <p>A tunnel that could not be opened is retried on another proxy within the retry budget
 * ({@link RetryRule#retriesTunnel}): until the {@code 200} nothing reached the client. Every attempt
 * is completed exactly once. Everything here runs on the connection's loop.
 */
final class HttpProxyHandler extends ChannelInboundHandlerAdapter implements ServedConnection {

    static final System.Logger LOG = System.getLogger(HttpProxyHandler.class.getName());
    /** How long a connection closed after an error answer keeps reading (and discarding) the client's bytes. */
    private static final long LINGER_MILLIS = 500;

    private static final int LINGER_MAX_BYTES = 256 * 1024;
    /** Bytes collected without a new line feed before the head is parsed again (a line cap may have passed). */
    private static final int REPARSE_BYTES = 1024;
    /** The largest buffer of client bytes kept while none are pending (a burst's larger one is let go). */
    private static final int MAX_IDLE_PENDING = 16 * 1024;

    enum State {
        /** Waiting for or reading a request head. */
        HEAD,
        /** A request is being routed, dialed or answered: client reads paused. */
        BUSY,
        /** An established tunnel relays bytes both ways. */
        TUNNEL,
        /** Closing after an error answer: the client's bytes are read and dropped for a short while. */
        CLOSING,
        CLOSED
    }

    final Gateway gw;
    final GatewayConfig cfg;
    final EventLoopListener listener;
    final long acceptedAt;
    /** A connection of the SOCKS5 listener: the handshake instead of a request head, one tunnel per connection. */
    final boolean socks;
    /** Plain HTTP forwarding of this connection's requests. */
    final PlainForward forward = new PlainForward(this);
    /** Authentication, routing and the dial of each exchange. */
    private final ExchangeRouting routing = new ExchangeRouting(this);
    /** The plain request being forwarded, or null. */
    PlainForward.Forward fwd;
    /** The request body being streamed upstream, or null. */
    BodyFramer reqFramer;
    /** The SOCKS5 handshake of a connection of the SOCKS5 listener, else null. */
    final SocksHandshake socks5;

    private ChannelHandlerContext ctx;
    Channel ch;
    State state = State.HEAD;
    volatile boolean idle = true;
    ByteBuf pending;
    int parsedAt;
    boolean firstRequest = true;
    ScheduledFuture<?> firstTimer;
    private ScheduledFuture<?> headTimer;
    private ScheduledFuture<?> idleTimer;
    private boolean headTimerIsFirst;
    boolean clientEof;
    private String peer;

    // the current exchange
    RequestHead head;
    long exchangeStart;
    long written;
    long exchangeWritten;
    /** Bytes of the client's the current exchange took: its head and body (a tunnel's: its head; see {@link #bytesUp}). */
    long exchangeIn;
    /** Bytes read from the client while no tunnel relayed them (a SOCKS5 handshake that failed counts them all). */
    long received;

    ExchangeResult result;
    String logUser;
    String logAttempted;
    int logStatus;
    String logError;
    Explain logExplain;
    boolean exchangeOpen;

    // the current tunnel
    UpstreamAttempt attempt;
    Channel up;
    long bytesUp;
    long bytesDown;
    boolean upstreamEof;
    boolean upstreamBroke;
    private long lastActivity;
    private ScheduledFuture<?> tunnelTimer;
    private boolean tunnelEnded;
    /** The tunnel opened (a SOCKS5 connection's bytes are then its handshake and what was relayed). */
    boolean tunnelOpened;

    HttpProxyHandler(Gateway gw, EventLoopListener listener, long acceptedAt) {
        this.gw = gw;
        this.socks = listener.socks();
        this.cfg = gw.config();
        this.listener = listener;
        this.acceptedAt = acceptedAt;
        this.socks5 = socks ? new SocksHandshake(this) : null;
    }

    // ---------------------------------------------------------------- ServedConnection (shutdown)

    @Override
    public boolean idle() {
        return idle;
    }

    @Override
    public void abort() {
        Channel c = ch;
        if (c != null) {
            c.close();
        }
        Channel u = up;
        if (u != null) {
            u.close();
        }
    }

    // ---------------------------------------------------------------- lifecycle

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.ch = ctx.channel();
        this.pending = Unpooled.buffer(256); // on the heap, not pooled: a per-connection head, held by the GC alone
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        gw.track(this);
        if (gw.stopping()) {
            ch.close();
            return;
        }
        long left =
                acceptedAt + cfg.firstRequestTimeout().toNanos() - gw.ticker().read();
        firstTimer = ch.eventLoop().schedule(this::firstRequestExpired, Math.max(0, left), TimeUnit.NANOSECONDS);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        gw.untrack(this);
        idle = false;
        cancel(firstTimer);
        cancel(headTimer);
        cancel(idleTimer);
        State was = state;
        if (socks && was == State.HEAD && exchangeOpen && logError == null) {
            result = ExchangeResult.BAD_REQUEST; // reset inside the handshake
            socks5.socksError(400, GatewayErrors.BAD_REQUEST);
        }
        state = State.CLOSED;
        if (was == State.TUNNEL) {
            // the client went away: what the upstream sent is lost, the upstream is closed
            if (up != null) {
                up.close();
            }
            endTunnel();
        } else {
            if (up != null) {
                up.close();
            }
            PlainForward.Forward f = fwd;
            if (f != null) {
                cancel(f.timer);
                forward.releaseResponseBuffer(f);
                fwd = null;
            }
            completeAttempt(AttemptOutcome.ABANDONED); // the client left: not the proxy's fault
        }
        if (pending != null) {
            pending.release();
            pending = null;
        }
        if (exchangeOpen && was != State.TUNNEL) {
            endExchange(); // an exchange the client left while it was routed: its attempt completes when it returns
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof IOException)
                && !(cause instanceof UncheckedIOException)
                && cause instanceof RuntimeException e) {
            Gateway.logHandlerDefect(LOG, "gateway", e);
        }
        ch.close();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            clientEof = true;
            switch (state) {
                case TUNNEL -> {
                    shutdownOutputAfterWrites(up);
                    if (upstreamEof) {
                        closeTunnel();
                    }
                }
                case BUSY -> {
                    // the tunnel (if it opens) gets the end; a plain exchange ends after its response,
                    // unless its body was still coming: then the client broke the exchange
                    if (fwd != null && (reqFramer != null || fwd.collect > 0)) {
                        ch.close();
                    }
                }
                default -> {
                    if (socks && state == State.HEAD && socks5.socksPhase == SocksHandshake.SocksPhase.AUTHENTICATING) {
                        return; // the credentials are being checked; the rest was read already
                    }
                    if (socks && state == State.HEAD && exchangeOpen) {
                        result = ExchangeResult.BAD_REQUEST; // the client closed inside the handshake
                        socks5.socksError(400, GatewayErrors.BAD_REQUEST);
                    }
                    ch.close();
                }
            }
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    // ---------------------------------------------------------------- reading

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        switch (state) {
            case TUNNEL -> {
                int n = in.readableBytes();
                bytesUp += n;
                lastActivity = gw.ticker().read();
                up.write(in, up.voidPromise());
                if (!up.isWritable()) {
                    autoRead(ch, false); // resumed by the upstream's writability
                }
            }
            case HEAD -> {
                received += in.readableBytes();
                if (socks) {
                    append(in);
                    socks5.socksBytes();
                    return;
                }
                boolean lineFeed = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n') >= 0;
                append(in);
                headBytes(lineFeed);
            }
            case BUSY -> {
                received += in.readableBytes();
                append(in); // early tunnel bytes, a request body, or a pipelined request
                forward.forwardClientBytes();
            }
            case CLOSING -> {
                parsedAt += in.readableBytes(); // counts the dropped bytes while closing
                in.release();
                if (parsedAt > LINGER_MAX_BYTES) {
                    ch.close();
                }
            }
            case CLOSED -> in.release();
        }
    }

    /**
     * Adds {@code in} (released) to {@link #pending}, after dropping what was consumed: the bytes of a
     * long keep-alive connection's earlier requests would otherwise stay in it for the connection's life.
     * A buffer a burst made large is given back once it is empty. Only while no slice of it is still on its
     * way upstream (a request body is relayed as slices of this buffer): moving or overwriting its bytes then
     * would change what is sent.
     */
    private void append(ByteBuf in) {
        if (pending.refCnt() > 1) {
            // slices in flight: append only
        } else if (!pending.isReadable()) {
            if (pending.capacity() > MAX_IDLE_PENDING) {
                pending.release();
                pending = Unpooled.buffer(256);
            } else {
                pending.clear();
            }
        } else if (pending.readerIndex() > 0) {
            pending.discardSomeReadBytes();
        }
        pending.writeBytes(in);
        in.release();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (state == State.TUNNEL && up != null) {
            up.flush();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (up != null && (state == State.TUNNEL || fwd != null && fwd.respFramer != null)) {
            autoRead(up, ch.isWritable());
            if (fwd != null && ch.isWritable()) {
                fwd.lastActivity = gw.ticker().read(); // reading resumes: the pause was the client's
            }
        }
        ctx.fireChannelWritabilityChanged();
    }

    /** Bytes of a head arrived; parses when a line may have completed or a cap may have passed. */
    private void headBytes(boolean lineFeed) {
        if (!pending.isReadable()) {
            return;
        }
        if (headTimer == null) {
            // from the head's first byte on it has requestHeadTimeout; the first head no more than the first-request
            // deadline
            idle = false;
            cancel(idleTimer);
            long now = gw.ticker().read();
            long deadline = now + cfg.requestHeadTimeout().toNanos();
            headTimerIsFirst = false;
            if (firstRequest) {
                long first = acceptedAt + cfg.firstRequestTimeout().toNanos();
                if (first - deadline < 0) {
                    deadline = first;
                    headTimerIsFirst = true;
                }
                cancel(firstTimer);
            }
            headTimer = ch.eventLoop().schedule(this::headExpired, Math.max(0, deadline - now), TimeUnit.NANOSECONDS);
        }
        if (!lineFeed && pending.readableBytes() - parsedAt < REPARSE_BYTES) {
            return;
        }
        parseHead();
    }

    private void parseHead() {
        parsedAt = pending.readableBytes();
        HeadReader r = headReader(pending);
        RequestHead h;
        try {
            h = RequestHead.read(r, cfg);
        } catch (WireException e) {
            headFailed(e.status(), e.reason(), e.getMessage());
            return;
        } catch (HeadReader.Incomplete e) {
            return; // not whole yet
        } catch (IOException e) {
            ch.close();
            return;
        }
        if (h == null) {
            return; // only empty lines so far
        }
        int headBytes = r.consumed();
        pending.skipBytes(headBytes);
        exchangeIn = headBytes;
        parsedAt = 0;
        cancel(headTimer);
        headTimer = null;
        cancel(firstTimer);
        firstRequest = false;
        startExchange(h);
    }

    /**
     * The shared HTTP/1 parser over the readable bytes of {@code buf}: its backing array when it
     * has one, else one copy of them (a head is parsed whole each time, from its first byte).
     */
    static HeadReader headReader(ByteBuf buf) {
        int n = buf.readableBytes();
        if (buf.hasArray()) {
            return HeadReader.over(buf.array(), buf.arrayOffset() + buf.readerIndex(), n);
        }
        byte[] bytes = new byte[n];
        buf.getBytes(buf.readerIndex(), bytes);
        return HeadReader.over(bytes, 0, n);
    }

    private void firstRequestExpired() {
        if (socks) {
            socks5.socksExpired();
            return;
        }
        if (state != State.HEAD || !firstRequest || headTimer != null) {
            return;
        }
        // no byte of a request (or not even a finished TLS handshake) since accept: closed without an answer
        gw.metrics().connectionClosed(listener.name(), ClosedReason.FIRST_REQUEST_TIMEOUT);
        ch.close();
    }

    private void headExpired() {
        if (state != State.HEAD) {
            return;
        }
        gw.metrics()
                .connectionClosed(
                        listener.name(),
                        headTimerIsFirst ? ClosedReason.FIRST_REQUEST_TIMEOUT : ClosedReason.REQUEST_HEAD_TIMEOUT);
        headFailed(
                408,
                GatewayErrors.REQUEST_TIMEOUT,
                headTimerIsFirst
                        ? "the first request head did not arrive within "
                                + cfg.firstRequestTimeout().toMillis() + " ms of the connection"
                        : "the request head did not arrive within "
                                + cfg.requestHeadTimeout().toMillis() + " ms");
    }

    /** A head that broke the rules or did not come in time: answered, counted, and the connection closed. */
    private void headFailed(int status, String reason, String message) {
        cancel(headTimer);
        cancel(firstTimer);
        idle = false;
        gw.metrics().started(false);
        long t0 = gw.ticker().read();
        long w0 = written;
        long in0 = pending.readableBytes(); // the broken head's bytes so far (earlier exchanges' were taken)
        sendError(true, status, reason, message, Explain.NONE, false);
        long nanos = gw.ticker().read() - t0;
        gw.metrics().finished(false, ExchangeResult.BAD_REQUEST, nanos);
        AccessLog log = gw.accessLog();
        if (log != null) {
            listener.accessLog(log.line(
                    peer(),
                    null,
                    null,
                    null,
                    status,
                    reason,
                    written - w0,
                    -1,
                    nanos,
                    Explain.NONE,
                    ExchangeResult.BAD_REQUEST));
        }
        ExchangeListener ex = gw.exchanges();
        if (ex != null) {
            ex.ended(ExchangeRecord.of(
                            "http", peer(), null, null, status, reason, Explain.NONE, nanos, ExchangeResult.BAD_REQUEST)
                    .withBytes(in0, written - w0));
        }
    }

    // ---------------------------------------------------------------- exchanges

    private void startExchange(RequestHead h) {
        head = h;
        state = State.BUSY;
        idle = false;
        autoRead(ch, false);
        gw.metrics().started(h.connect);
        exchangeStart = gw.ticker().read();
        exchangeWritten = written;
        exchangeOpen = true; // exchangeIn: the head's bytes, set by the parse
        result = ExchangeResult.ABORTED;
        logUser = null;
        logAttempted = null;
        logStatus = 0;
        logError = null;
        logExplain = null;
        bytesUp = 0;
        bytesDown = 0;
        if (!h.connect) {
            forward.startForward();
            return;
        }
        route(1, List.of(), null, Explain.NONE, false);
    }

    boolean clientKeepAlive(RequestHead h) {
        if (gw.stopping()) {
            return false;
        }
        return h.http11 ? !h.headers.hasToken("Connection", "close") : h.headers.hasToken("Connection", "keep-alive");
    }

    /** Authenticates, routes and dials the current request ({@link ExchangeRouting#route}). */
    void route(int attemptNo, List<String> tried, String client, Explain last, boolean lastTimeout) {
        routing.route(attemptNo, tried, client, last, lastTimeout);
    }

    /** Opens {@code d}'s connection on this connection's loop ({@link UpstreamConnector#open}). */
    void connectUpstream(
            UpstreamDial d, UpstreamAttempt a, UpstreamConnector.Dialed done, Consumer<FailureKind> failed) {
        UpstreamConnector.open(
                ch.eventLoop(),
                listener.loops().socketChannel(),
                gw.ticker(),
                d,
                a,
                new UpstreamHandler(this),
                done,
                failed);
    }

    void opened(UpstreamAttempt a, Channel upstream, Explain ex, ByteBuf early) {
        if (state != State.BUSY || attempt != a) {
            if (early != null) {
                early.release();
            }
            upstream.close();
            if (attempt == a) {
                completeAttempt(AttemptOutcome.ABANDONED);
            }
            return;
        }
        up = upstream;
        state = State.TUNNEL;
        tunnelOpened = true;
        result = ExchangeResult.OK;
        logStatus = 200;
        logExplain = ex;
        if (socks) {
            socks5.writeSocksReply(Socks5Codec.Reply.SUCCEEDED.code());
        } else {
            StringBuilder sb = new StringBuilder(160).append("HTTP/1.1 200 Connection established\r\n");
            ex.appendTo(sb);
            sb.append("\r\n");
            writeClient(sb);
        }
        if (early != null) { // the target spoke first: its bytes came with the proxy's reply
            bytesDown += early.readableBytes();
            ch.write(early, ch.voidPromise());
        }
        lastActivity = gw.ticker().read();
        if (pending.isReadable()) { // what the client sent before the 200 belongs to the tunnel
            bytesUp += pending.readableBytes();
            up.write(pending.retainedSlice());
            pending.skipBytes(pending.readableBytes());
        }
        up.flush();
        ch.flush();
        if (clientEof) {
            shutdownOutputAfterWrites(up);
        }
        long idleNanos = cfg.tunnelIdleTimeout().toNanos();
        tunnelTimer = ch.eventLoop().schedule(this::tunnelIdleCheck, idleNanos, TimeUnit.NANOSECONDS);
        autoRead(up, true);
        if (!clientEof) {
            autoRead(ch, true);
        }
    }

    private void tunnelIdleCheck() {
        if (state != State.TUNNEL) {
            return;
        }
        long idleNanos = cfg.tunnelIdleTimeout().toNanos();
        long left = lastActivity + idleNanos - gw.ticker().read();
        if (left <= 0) {
            closeTunnel();
        } else {
            tunnelTimer = ch.eventLoop().schedule(this::tunnelIdleCheck, left, TimeUnit.NANOSECONDS);
        }
    }

    void upRead(ByteBuf in) {
        if (state == State.TUNNEL) {
            bytesDown += in.readableBytes();
            lastActivity = gw.ticker().read();
            ch.write(in, ch.voidPromise());
            if (!ch.isWritable()) {
                autoRead(up, false); // resumed by the client's writability
            }
        } else if (state == State.BUSY && fwd != null) {
            forward.forwardUpRead(in);
        } else {
            in.release();
        }
    }

    void upEof() {
        if (state == State.TUNNEL) {
            upstreamEof = true;
            shutdownOutputAfterWrites(ch);
            if (clientEof) {
                closeTunnel();
            }
        } else if (state == State.BUSY && fwd != null) {
            forward.forwardUpEnded();
        } else if (up != null) {
            up.close();
        }
    }

    void upInactive() {
        if (state == State.TUNNEL) {
            // the upstream is gone: what it sent is flushed to the client, then the client is closed
            ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            endTunnel();
        } else if (state == State.BUSY && fwd != null) {
            forward.forwardUpEnded();
        }
    }

    private static void shutdownOutputAfterWrites(Channel c) {
        if (c == null || !c.isActive()) {
            return;
        }
        c.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener((ChannelFutureListener) f -> {
            if (c instanceof DuplexChannel d && c.isActive()) {
                d.shutdownOutput();
            }
        });
    }

    /** Both directions ended (or the tunnel idled out): both connections close once their writes are out. */
    private void closeTunnel() {
        if (up != null) {
            up.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
        ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        endTunnel();
    }

    /** Completes the tunnel's attempt and exchange, once. */
    private void endTunnel() {
        if (tunnelEnded) {
            return;
        }
        tunnelEnded = true;
        cancel(tunnelTimer);
        UpstreamAttempt a = attempt;
        attempt = null;
        if (a != null) {
            a.complete(upstreamBroke ? AttemptOutcome.failure(FailureKind.CONNECTION_RESET) : AttemptOutcome.SUCCESS);
        }
        endExchange();
    }

    // ---------------------------------------------------------------- answers
    void completeAttempt(AttemptOutcome outcome) {
        UpstreamAttempt a = attempt;
        attempt = null;
        if (a != null) {
            a.complete(outcome);
        }
    }

    boolean upstreamFailed(Explain last, boolean timeout, boolean keep) {
        result = ExchangeResult.UPSTREAM_FAILED;
        return timeout
                ? sendError(
                        head.http11,
                        504,
                        GatewayErrors.UPSTREAM_TIMEOUT,
                        "the upstream did not answer in time",
                        last,
                        keep)
                : sendError(head.http11, 502, GatewayErrors.UPSTREAM_FAILED, "the upstream proxy failed", last, keep);
    }

    /** An exchange answered by the gateway itself ended: the next request, or the close already under way. */
    void finishAnswered(boolean keep) {
        endExchange();
        if (keep && state == State.BUSY) {
            awaitNextRequest();
        }
    }

    void awaitNextRequest() {
        state = State.HEAD;
        head = null;
        idle = true;
        headTimer = null;
        parsedAt = 0;
        if (clientEof) {
            ch.close();
            return;
        }
        idleTimer = ch.eventLoop()
                .schedule(
                        () -> {
                            if (state == State.HEAD && headTimer == null) {
                                ch.close();
                            }
                        },
                        cfg.idleTimeout().toNanos(),
                        TimeUnit.NANOSECONDS);
        autoRead(ch, true);
        if (pending.isReadable()) {
            headBytes(true); // a pipelined request
        }
    }

    void endExchange() {
        if (!exchangeOpen) {
            return;
        }
        exchangeOpen = false;
        long nanos = gw.ticker().read() - exchangeStart;
        if (socks) {
            socks5.socksEnded(nanos);
            return;
        }
        RequestHead h = head;
        gw.metrics().finished(h.connect, result, nanos);
        AccessLog log = gw.accessLog();
        if (log != null) {
            listener.accessLog(log.line(
                    peer(),
                    logUser,
                    h.method,
                    logTarget(h.target),
                    logStatus,
                    logError,
                    written - exchangeWritten + bytesDown,
                    h.connect ? bytesUp : -1,
                    nanos,
                    logExplain,
                    result));
        }
        ExchangeListener ex = gw.exchanges();
        if (ex != null) {
            ex.ended(ExchangeRecord.of(
                            h.connect ? "connect" : "http",
                            peer(),
                            logUser,
                            h.method,
                            logStatus,
                            logError,
                            logExplain,
                            nanos,
                            result,
                            logAttempted)
                    .withBytes(h.connect ? exchangeIn + bytesUp : exchangeIn, written - exchangeWritten + bytesDown));
        }
    }

    private static String logTarget(RequestTarget t) {
        String h = t.host();
        return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + t.port();
    }

    String peer() {
        String p = peer;
        if (p == null) {
            p = ch.remoteAddress() instanceof InetSocketAddress a
                    ? a.getAddress().getHostAddress()
                    : "?";
            peer = p;
        }
        return p;
    }

    /**
     * Answers with the gateway's own error; without {@code keep} the connection then closes gracefully
     * (half-close, the client's further bytes read and dropped for a short while, then the close).
     *
     * @return {@code keep}
     */
    boolean sendError(boolean http11, int status, String reason, String message, Explain ex, boolean keep) {
        gw.metrics().error(reason);
        logStatus = status;
        logError = reason;
        logExplain = ex;
        byte[] body = (reason + ": " + message + "\n").getBytes(StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(256)
                .append("HTTP/1.1 ")
                .append(status)
                .append(' ')
                .append(StatusText.of(status))
                .append("\r\n");
        header(sb, "X-ProxyPool-Error", reason);
        ex.appendTo(sb);
        if (status == 407) {
            header(sb, "Proxy-Authenticate", "Basic realm=\"proxypool\"");
        }
        header(sb, "Content-Type", "text/plain; charset=utf-8");
        header(sb, "Content-Length", Integer.toString(body.length));
        if (!keep) {
            header(sb, "Connection", "close");
        } else if (!http11) {
            header(sb, "Connection", "keep-alive");
        }
        sb.append("\r\n");
        ByteBuf out = ch.alloc().buffer(sb.length() + body.length);
        out.writeCharSequence(sb, StandardCharsets.ISO_8859_1);
        out.writeBytes(body);
        written += out.readableBytes();
        if (keep) {
            ch.writeAndFlush(out, ch.voidPromise());
        } else {
            state = State.CLOSING;
            idle = false;
            parsedAt = 0;
            ch.writeAndFlush(out).addListener((ChannelFutureListener) f -> lingerThenClose());
        }
        return keep;
    }

    void lingerThenClose() {
        if (!ch.isActive()) {
            return;
        }
        if (ch instanceof DuplexChannel d) {
            d.shutdownOutput();
        }
        if (clientEof) {
            ch.close();
            return;
        }
        autoRead(ch, true);
        ch.eventLoop().schedule(() -> ch.close(), LINGER_MILLIS, TimeUnit.MILLISECONDS);
    }

    void writeClient(ByteBuf b) {
        written += b.readableBytes();
        ch.write(b, ch.voidPromise());
    }

    void writeClient(CharSequence s) {
        ByteBuf out = ch.alloc().buffer(s.length());
        out.writeCharSequence(s, StandardCharsets.ISO_8859_1);
        written += out.readableBytes();
        ch.write(out, ch.voidPromise());
    }

    static void header(StringBuilder sb, String name, String value) {
        sb.append(name).append(": ").append(value).append("\r\n");
    }

    /**
     * Turns reading of {@code c} on or off; nothing once it closed (a peer's reset may close it under the
     * caller, and the change would then fail in the transport).
     */
    static void autoRead(Channel c, boolean on) {
        if (c == null || !c.isOpen() || c.config().isAutoRead() == on) {
            return;
        }
        try {
            c.config().setAutoRead(on);
        } catch (UncheckedIOException e) {
            c.close();
        }
    }

    static void cancel(ScheduledFuture<?> f) {
        if (f != null) {
            f.cancel(false);
        }
    }
}
