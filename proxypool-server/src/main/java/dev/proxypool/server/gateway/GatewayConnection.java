package dev.proxypool.server.gateway;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.routing.RetryRule;
import dev.proxypool.server.access.AttemptedUser;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One client connection: reads requests one after another (keep-alive), authenticates, routes,
 * forwards each absolute-form request through an {@link UpstreamAttempt} with retries, or opens a
 * CONNECT {@link Tunnel}. Runs on one virtual thread; an established tunnel is relayed by the
 * shared selector threads ({@link TunnelRelay}), which, when the connection was made to allow it
 * and the access log is off, also complete the exchange and close the connection at the tunnel's
 * end while this thread has ended (it hands the connection over: {@link #run(Runnable)} returns
 * true); otherwise this thread waits for the tunnel, or, without plain socket channels, relays it
 * with a second thread for the upstream direction.
 *
 * <p>Error policy: bad client input is answered (400/431 with {@code X-ProxyPool-Error}) and the
 * connection closed; an upstream failure before any response byte reached the client is retried
 * (GET/HEAD without body, another proxy) or answered 502/504; a failure after that cuts the
 * connection, the only honest signal left. Every attempt is completed exactly once, in a finally.
 */
final class GatewayConnection implements ServedConnection {

    private static final System.Logger LOG = System.getLogger(GatewayConnection.class.getName());

    /** The largest request body kept in memory so that an idempotent request can be replayed (64 KiB). */
    static final int MAX_REPLAYABLE_BODY = 64 * 1024;

    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final Gateway gw;
    private final GatewayConfig cfg;
    private final ClientChannel ch;
    private final WireReader in;
    private final WireWriter out;
    private volatile boolean idle = true;
    private boolean lingerOnClose;
    private ExchangeResult result;
    /** The access log, null when off; the log* fields describe the current exchange for it. */
    private final AccessLog accessLog;
    /** Told about every ended exchange (request log, error breakdown), null when none. */
    private final ExchangeListener exchanges;
    /** The client's address for {@link #exchanges}, read once per connection (keep-alive serves many). */
    private String peer;

    private String logUser;
    private String logAttempted; // the username a refused Proxy-Authorization named (request log only)
    private int logStatus;
    private String logError;
    private Explain logExplain;
    private long logTunnelDown;
    private long logTunnelUp;
    /** Bytes the client sent up to its tunnel's start (CONNECT head), -1 while no tunnel started. */
    private long logTunnelHeadIn = -1;
    /** The tunnel this connection is relaying, for {@link #abort()}; null otherwise. */
    private volatile Tunnel tunnel;
    /** False while a thread other than this connection's may still use the buffers (a tunnel that did not end). */
    private boolean buffersFree = true;
    /** Whether an established tunnel may be handed over to the selector relay with no thread waiting for it. */
    private final boolean mayHandOver;
    /**
     * Set by the connection's thread when it handed the connection over to the selector relay; from then on
     * that thread touches nothing and the relay's thread completes the exchange and closes the connection.
     */
    private boolean handedOver;
    /** What to run once the connection has closed ({@link #run(Runnable)}). */
    private Runnable ended;
    /** The current exchange's start ({@link Gateway#ticker()}) and bytes written to the client before it. */
    private long exchangeStart;

    private long exchangeWritten;

    /** Bytes read from the client before the current exchange ({@link WireReader#consumed()}). */
    private long exchangeConsumed;

    /** The current request's body, read whole for a replay (small, idempotent request); null: streamed. */
    private byte[] replayBody;

    /** The deadline from accept to the first complete request head (TLS handshake included). */
    private final FirstRequestDeadline first;

    /**
     * @param mayHandOver true when the caller accepts {@link #run(Runnable)} returning before the connection
     *                    has closed (an established tunnel carried on by the selector relay)
     */
    GatewayConnection(Gateway gw, ClientChannel ch, boolean mayHandOver, FirstRequestDeadline first) {
        this.gw = gw;
        this.first = first;
        this.mayHandOver = mayHandOver;
        this.cfg = gw.config();
        this.ch = ch;
        this.in = new WireReader(ch.input(), gw.buffers().take(), true);
        this.out = new WireWriter(ch.output(), gw.buffers().take(), true);
        this.accessLog = gw.accessLog();
        this.exchanges = gw.exchanges();
    }

    @Override
    public boolean idle() {
        return idle;
    }

    @Override
    public void abort() {
        ch.close();
        Tunnel t = tunnel;
        if (t != null) {
            t.abort(); // a tunnel on the selector relay does not notice a close made behind its back
        }
    }

    @Override
    public boolean run(Runnable ended) {
        this.ended = ended;
        try {
            loop();
        } catch (IOException e) {
            // the client went away or timed out: nothing to answer
        } catch (RuntimeException e) {
            Gateway.logHandlerDefect(LOG, "gateway", e);
        } finally {
            if (!handedOver) {
                closeDown();
            }
        }
        return handedOver;
    }

    private void closeDown() {
        idle = false;
        gw.closeConnection(ch, lingerOnClose, in, out, buffersFree);
    }

    private void loop() throws IOException {
        boolean firstRequest = true;
        while (!gw.stopping()) {
            idle = true;
            // idle keep-alive: up to idleTimeout for a first byte. On a socket channel the connection watchdog
            // keeps that deadline, so the read has no timeout (FirstByteWait says why). The first request's
            // wait, TLS handshake included, is bounded by the first-request deadline, which aborts the
            // connection: no read timeout either (a trickled ClientHello would restart any per-read timeout)
            if (in.buffered() == 0) {
                if (firstRequest && first.guarding()) {
                    ch.readTimeout(0);
                    if (!in.fill()) {
                        return;
                    }
                } else if (ch.readsInterruptible()) {
                    if (!FirstByteWait.fill(
                            in,
                            ch,
                            gw.connectionWatchdog(),
                            gw.ticker().read(),
                            cfg.idleTimeout().toNanos())) {
                        return;
                    }
                } else {
                    ch.readTimeout(cfg.idleTimeoutMillis());
                    if (!in.fill()) {
                        return;
                    }
                }
            }
            // from the first byte on, the whole head has requestHeadTimeout (slow-header clients); the first
            // head no more than the first-request deadline
            long c0 = in.consumed();
            long headDeadline = gw.ticker().read() + cfg.requestHeadTimeout().toNanos();
            boolean firstDeadline = firstRequest && first.deadline() - headDeadline < 0;
            if (firstDeadline) {
                headDeadline = first.deadline();
            }
            in.deadline(gw.ticker(), headDeadline, ch::readTimeout);
            RequestHead head;
            try {
                head = RequestHead.read(in, cfg);
            } catch (WireException | WireReader.HeadTimeoutException e) {
                if (firstRequest && !first.met()) {
                    return; // the first-request deadline aborted the connection already: nothing to answer
                }
                idle = false;
                gw.metrics().started(false);
                long t0 = gw.ticker().read();
                long w0 = out.written();
                int status;
                String reason;
                if (e instanceof WireException w) {
                    status = w.status();
                    reason = w.reason();
                    sendError(true, status, reason, w.getMessage(), Explain.NONE, false);
                } else {
                    status = 408;
                    reason = GatewayErrors.REQUEST_TIMEOUT;
                    gw.metrics()
                            .connectionClosed(
                                    ClosedReason.LISTENER_GATEWAY,
                                    firstDeadline
                                            ? ClosedReason.FIRST_REQUEST_TIMEOUT
                                            : ClosedReason.REQUEST_HEAD_TIMEOUT);
                    sendError(
                            true,
                            status,
                            reason,
                            firstDeadline
                                    ? "the first request head did not arrive within "
                                            + cfg.firstRequestTimeout().toMillis() + " ms of the connection"
                                    : "the request head did not arrive within "
                                            + cfg.requestHeadTimeout().toMillis() + " ms",
                            Explain.NONE,
                            false);
                }
                gw.metrics()
                        .finished(false, ExchangeResult.BAD_REQUEST, gw.ticker().read() - t0);
                if (accessLog != null) {
                    accessLog.write(
                            ch.peer(),
                            null,
                            null,
                            null,
                            status,
                            reason,
                            out.written() - w0,
                            -1,
                            gw.ticker().read() - t0,
                            Explain.NONE,
                            ExchangeResult.BAD_REQUEST);
                }
                if (exchanges != null) {
                    exchanges.ended(ExchangeRecord.of(
                                    "http",
                                    peer(),
                                    null,
                                    null,
                                    status,
                                    reason,
                                    Explain.NONE,
                                    gw.ticker().read() - t0,
                                    ExchangeResult.BAD_REQUEST)
                            .withBytes(in.consumed() + in.buffered() - c0, out.written() - w0));
                }
                return;
            } finally {
                in.clearDeadline();
            }
            if (head == null) {
                return;
            }
            if (firstRequest) {
                firstRequest = false;
                if (!first.met()) {
                    return; // aborted by the first-request deadline just as the head completed
                }
            }
            idle = false;
            ch.readTimeout(cfg.ioTimeoutMillis());
            gw.metrics().started(head.connect);
            exchangeStart = gw.ticker().read();
            exchangeWritten = out.written();
            exchangeConsumed = c0;
            result = ExchangeResult.ABORTED;
            if (accessLog != null || exchanges != null) {
                startLogEntry();
            }
            boolean keep = false;
            try {
                keep = head.connect ? tunnel(head) : forward(head);
            } finally {
                if (!handedOver) {
                    endExchange(head);
                }
            }
            if (!keep) {
                return;
            }
        }
    }

    /** Records the ended exchange: metrics, access log, the exchange listener. */
    private void endExchange(RequestHead head) {
        long nanos = gw.ticker().read() - exchangeStart;
        gw.metrics().finished(head.connect, result, nanos);
        if (accessLog != null) {
            accessLog.write(
                    ch.peer(),
                    logUser,
                    head.method,
                    logTarget(head.target),
                    logStatus,
                    logError,
                    out.written() - exchangeWritten + logTunnelDown,
                    head.connect ? logTunnelUp : -1,
                    nanos,
                    logExplain,
                    result);
        }
        if (exchanges != null) {
            exchanges.ended(ExchangeRecord.of(
                            head.connect ? "connect" : "http",
                            peer(),
                            logUser,
                            head.method,
                            logStatus,
                            logError,
                            logExplain,
                            nanos,
                            result,
                            logAttempted)
                    .withBytes(
                            logTunnelHeadIn >= 0 ? logTunnelHeadIn + logTunnelUp : in.consumed() - exchangeConsumed,
                            out.written() - exchangeWritten + logTunnelDown));
        }
    }

    private String peer() {
        String p = peer;
        if (p == null) {
            p = ch.peer();
            peer = p;
        }
        return p;
    }

    private void startLogEntry() {
        logUser = null;
        logAttempted = null;
        logStatus = 0;
        logError = null;
        logExplain = null;
        logTunnelDown = 0;
        logTunnelUp = 0;
        logTunnelHeadIn = -1;
    }

    private static String logTarget(RequestTarget t) {
        String h = t.host();
        return (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + t.port();
    }

    private boolean clientKeepAlive(RequestHead head) {
        if (gw.stopping()) {
            return false;
        }
        return head.http11
                ? !head.headers.hasToken("Connection", "close")
                : head.headers.hasToken("Connection", "keep-alive");
    }

    // ---------------------------------------------------------------- HTTP forwarding

    private boolean forward(RequestHead head) throws IOException {
        HeaderFields h = head.headers;
        boolean hasBody = head.framing != 0;
        boolean keepClient = clientKeepAlive(head);
        String client = gw.authenticator().authenticate(h.first("Proxy-Authorization"));
        logUser = client;
        if (client == null) {
            logAttempted = AttemptedUser.of(h.first("Proxy-Authorization"));
            result = ExchangeResult.AUTH_REQUIRED;
            return sendError(
                    head.http11,
                    407,
                    GatewayErrors.AUTH_REQUIRED,
                    "proxy authentication required",
                    Explain.NONE,
                    keepClient && !hasBody);
        }
        boolean expectContinue = head.http11 && hasBody && h.hasToken("Expect", "100-continue");
        // a small body of an idempotent request is read first and kept, so that the request can be replayed
        // on another proxy like a body-less one (not with 100-continue: the client waits for our go-ahead)
        replayBody = null;
        if (head.framing > 0
                && head.framing <= MAX_REPLAYABLE_BODY
                && !expectContinue
                && RetryRule.retryable(head.method, false)) {
            replayBody = readBody((int) head.framing);
        }
        boolean unreplayable = hasBody && replayBody == null;
        boolean idempotent = RetryRule.retryable(head.method, unreplayable);
        int maxAttempts = RetryRule.attemptsAllowed(head.method, unreplayable, cfg.maxAttempts());
        List<String> tried = List.of();
        Explain last = Explain.NONE;
        boolean lastTimeout = false;
        for (int attempt = 1; ; attempt++) {
            RouteDecision d = gw.engine()
                    .route(new RouteRequest(
                            client, head.target.host(), head.target.port(), head.method, false, h, attempt, tried));
            switch (d) {
                case RouteDecision.Rejected r -> {
                    if (attempt > 1) { // nothing left to retry on: report the failure we had
                        return upstreamFailed(head, last, lastTimeout, keepClient && !hasBody);
                    }
                    result = ExchangeResult.REJECTED;
                    return sendError(
                            head.http11,
                            r.status(),
                            r.reason(),
                            "the gateway rejected the request",
                            new Explain("none", "none", r.routing(), 0),
                            keepClient && !hasBody);
                }
                case UpstreamAttempt a -> {
                    last = Explain.of(a, attempt);
                    boolean mayRetry = idempotent && attempt < maxAttempts;
                    AttemptEnd end = exchange(head, a, last, keepClient, expectContinue, idempotent, mayRetry);
                    switch (end) {
                        case AttemptEnd.Relayed r -> {
                            result = ExchangeResult.OK;
                            return r.keepClient();
                        }
                        case AttemptEnd.Broken b -> {
                            result = ExchangeResult.ABORTED;
                            return false;
                        }
                        case AttemptEnd.ClientBadFraming c -> {
                            result = ExchangeResult.BAD_REQUEST;
                            return sendError(
                                    head.http11,
                                    400,
                                    GatewayErrors.BAD_FRAMING,
                                    "malformed chunked request body",
                                    Explain.NONE,
                                    false);
                        }
                        case AttemptEnd.Failed f -> { // before any response byte
                            lastTimeout = f.timeout();
                            if (!mayRetry) {
                                return upstreamFailed(head, last, lastTimeout, keepClient && !hasBody);
                            }
                            tried = RetryRule.excluding(tried, a.proxyId());
                            gw.metrics().retried();
                        }
                    }
                }
            }
        }
    }

    /** Reads a request body of {@code len} bytes whole (the client's reads keep their I/O timeout). */
    private byte[] readBody(int len) throws IOException {
        byte[] b = new byte[len];
        int off = 0;
        while (off < len) {
            int n = in.read(b, off, len - off);
            if (n < 0) {
                throw in.unexpectedEnd("stream ended inside a body, " + (len - off) + " bytes missing");
            }
            off += n;
        }
        return b;
    }

    private boolean upstreamFailed(RequestHead head, Explain last, boolean timeout, boolean keep) throws IOException {
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

    /** One attempt; completes {@code a} and releases its link before returning. */
    private AttemptEnd exchange(
            RequestHead head,
            UpstreamAttempt a,
            Explain ex,
            boolean keepClient,
            boolean expectContinue,
            boolean idempotent,
            boolean mayRetry)
            throws IOException {
        UpstreamLink link = null;
        AttemptOutcome outcome = AttemptOutcome.ABANDONED;
        boolean reusable = false;
        boolean responseStarted = false;
        try {
            ResponseHead resp = null;
            boolean allowReuse = idempotent;
            while (resp == null) {
                try {
                    link = a.open(allowReuse);
                    // a request another attempt may still serve waits firstByteTimeout for the answer: a proxy
                    // that stalls is blamed and left then, as one that refused would be (the rest: ioTimeout)
                    link.readTimeout(
                            mayRetry
                                    ? Math.min(cfg.firstByteTimeoutMillis(), cfg.ioTimeoutMillis())
                                    : cfg.ioTimeoutMillis());
                } catch (IOException e) {
                    FailureKind kind = dialFailure(e);
                    outcome = AttemptOutcome.failure(kind);
                    return new AttemptEnd.Failed(kind);
                }
                try {
                    resp = send(head, link, expectContinue, a.consumedHeader(), a.resolvedTarget());
                } catch (PeerIOException e) {
                    if (e.client()) {
                        return e.framing() ? new AttemptEnd.ClientBadFraming() : new AttemptEnd.Broken();
                    }
                    if (e.timeout()) {
                        outcome = AttemptOutcome.failure(FailureKind.SLOW_BODY);
                        return new AttemptEnd.Failed(FailureKind.SLOW_BODY);
                    }
                }
                if (resp == null) { // closed or reset before a status line
                    boolean stale = link.reused() && allowReuse;
                    link.close();
                    link = null;
                    if (!stale) {
                        outcome = AttemptOutcome.failure(FailureKind.CONNECTION_RESET);
                        return new AttemptEnd.Failed(FailureKind.CONNECTION_RESET);
                    }
                    allowReuse = false; // a pooled link had gone stale: once more on a fresh one
                }
            }
            boolean forwardMode = link.mode() == UpstreamLink.Mode.FORWARD;
            if (forwardMode && resp.status == 407) {
                outcome = AttemptOutcome.failure(FailureKind.PROXY_AUTH_REJECTED);
                return new AttemptEnd.Failed(FailureKind.PROXY_AUTH_REJECTED);
            }
            boolean unreachable = forwardMode && (resp.status == 502 || resp.status == 504);
            if (unreachable && mayRetry) {
                outcome = AttemptOutcome.failure(FailureKind.UPSTREAM_UNREACHABLE);
                return new AttemptEnd.Failed(FailureKind.UPSTREAM_UNREACHABLE);
            }
            if (mayRetry) {
                link.readTimeout(cfg.ioTimeoutMillis()); // the body's reads: the usual bound
            }
            a.answered(resp.status);
            long framing = resp.framing(head.method);
            boolean dechunk = framing == Framing.CHUNKED && !head.http11;
            boolean keep = keepClient && framing != Framing.UNTIL_CLOSE && !dechunk;
            responseStarted = true;
            writeResponseHead(resp, ex, keep, head.http11, dechunk);
            BodyRelay.relay(link.reader(cfg.bufferBytes()), out, framing, dechunk, cfg.maxHeaderBytes());
            out.flush();
            reusable = framing != Framing.UNTIL_CLOSE
                    && (resp.http11
                            ? !resp.headers.hasToken("Connection", "close")
                            : resp.headers.hasToken("Connection", "keep-alive"));
            outcome = unreachable
                    ? AttemptOutcome.failure(FailureKind.UPSTREAM_UNREACHABLE)
                    : AttemptOutcome.success(resp.status);
            return new AttemptEnd.Relayed(keep);
        } catch (PeerIOException e) {
            FailureKind kind = e.timeout() ? FailureKind.SLOW_BODY : FailureKind.CONNECTION_RESET;
            outcome = e.client() ? AttemptOutcome.ABANDONED : AttemptOutcome.failure(kind);
            return responseStarted || e.client() ? new AttemptEnd.Broken() : new AttemptEnd.Failed(kind);
        } catch (WireException e) {
            outcome = AttemptOutcome.failure(FailureKind.PROTOCOL_ERROR);
            return responseStarted ? new AttemptEnd.Broken() : new AttemptEnd.Failed(FailureKind.PROTOCOL_ERROR);
        } finally {
            if (link != null) {
                link.release(reusable);
            }
            a.complete(outcome);
        }
    }

    static FailureKind dialFailure(IOException e) {
        if (e instanceof UpstreamDialException d) {
            return d.kind();
        }
        if (e instanceof SocketTimeoutException) {
            return FailureKind.CONNECT_TIMEOUT;
        }
        if (e instanceof ConnectException) {
            return FailureKind.CONNECTION_REFUSED;
        }
        return FailureKind.CONNECTION_RESET;
    }

    /**
     * Sends the request head and body upstream and reads the final response head.
     *
     * @return the head, or {@code null} when the upstream closed or reset before a status line
     */
    private ResponseHead send(
            RequestHead head, UpstreamLink link, boolean expectContinue, String consumedHeader, InetAddress resolved)
            throws IOException, WireException {
        WireWriter uw = link.writer(cfg.bufferBytes());
        WireReader ur = link.reader(cfg.bufferBytes());
        try {
            writeRequestHead(uw, head, link, consumedHeader, resolved);
            if (replayBody != null) {
                uw.write(replayBody, 0, replayBody.length);
            } else if (head.framing != 0) {
                if (expectContinue) { // we answer 100 ourselves and send no Expect upstream
                    out.write(CONTINUE, 0, CONTINUE.length);
                    out.flush();
                }
                BodyRelay.relay(in, uw, head.framing, false, cfg.maxHeaderBytes());
            }
            uw.flush();
            while (true) {
                ResponseHead resp = ResponseHead.read(ur, cfg);
                if (resp == null || resp.status >= 200 || resp.status == 101) {
                    if (resp != null && resp.status == 101) {
                        throw new WireException(502, GatewayErrors.UPSTREAM_PROTOCOL, "unexpected 101 upstream");
                    }
                    return resp;
                }
                // 1xx interim responses are ours to swallow: we already answered Expect ourselves
            }
        } catch (PeerIOException e) {
            if (!e.client() && !e.timeout() && (head.framing == 0 || replayBody != null)) {
                uw.discard();
                return null; // reset before an answer: the caller treats it like a close
            }
            throw e;
        }
    }

    private void writeRequestHead(
            WireWriter uw, RequestHead head, UpstreamLink link, String consumedHeader, InetAddress resolved)
            throws IOException {
        RequestTarget t = head.target;
        uw.writeAscii(head.method);
        uw.writeByte(' ');
        if (link.mode() == UpstreamLink.Mode.FORWARD) {
            uw.writeAscii("http://");
            if (resolved == null) {
                uw.writeAscii(t.authority());
            } else { // the checked address for the upstream to connect to; Host below keeps the name
                String a = resolved.getHostAddress();
                uw.writeAscii(resolved instanceof Inet6Address ? "[" + a + "]" : a);
                uw.writeByte(':');
                uw.writeAscii(Integer.toString(t.port()));
            }
        }
        uw.writeAscii(t.path());
        uw.writeAscii(" HTTP/1.1\r\n");
        uw.header("Host", t.authority());
        UpstreamLink.InjectedHeader inject = link.injectedHeader();
        if (inject != null && link.mode() == UpstreamLink.Mode.FORWARD) {
            uw.header(inject.name(), inject.value());
        }
        HeaderFields h = head.headers;
        String connection = HopByHop.connection(h);
        for (int i = 0, n = h.size(); i < n; i++) {
            String name = h.name(i);
            if (HopByHop.skip(name, connection)
                    || name.equalsIgnoreCase("Host")
                    || name.equalsIgnoreCase("Expect")
                    || name.equalsIgnoreCase(consumedHeader)) {
                continue;
            }
            uw.header(name, h.value(i));
        }
        uw.crlf();
    }

    private void writeResponseHead(ResponseHead resp, Explain ex, boolean keep, boolean http11Client, boolean dechunk)
            throws IOException {
        logStatus = resp.status;
        logExplain = ex;
        out.writeAscii("HTTP/1.1 ");
        out.writeAscii(Integer.toString(resp.status));
        out.writeByte(' ');
        out.writeAscii(resp.reasonPhrase);
        out.crlf();
        HeaderFields h = resp.headers;
        String connection = HopByHop.connection(h);
        for (int i = 0, n = h.size(); i < n; i++) {
            String name = h.name(i);
            if (HopByHop.skip(name, connection) || dechunk && name.equalsIgnoreCase("Transfer-Encoding")) {
                continue;
            }
            out.header(name, h.value(i));
        }
        ex.writeTo(out);
        if (!keep) {
            out.header("Connection", "close");
        } else if (!http11Client) {
            out.header("Connection", "keep-alive");
        }
        out.crlf();
    }

    // ---------------------------------------------------------------- CONNECT

    private boolean tunnel(RequestHead head) throws IOException {
        boolean keepClient = clientKeepAlive(head) && head.framing == 0;
        String client = gw.authenticator().authenticate(head.headers.first("Proxy-Authorization"));
        logUser = client;
        if (client == null) {
            logAttempted = AttemptedUser.of(head.headers.first("Proxy-Authorization"));
            result = ExchangeResult.AUTH_REQUIRED;
            return sendError(
                    head.http11,
                    407,
                    GatewayErrors.AUTH_REQUIRED,
                    "proxy authentication required",
                    Explain.NONE,
                    keepClient);
        }
        // a tunnel that could not be opened is retried on another proxy like a SOCKS5 one (RetryRule.retriesTunnel):
        // until the 200 below nothing reached the client, so a retry is invisible to it
        List<String> tried = List.of();
        Explain last = Explain.NONE;
        boolean lastTimeout = false;
        for (int attempt = 1; ; attempt++) {
            RouteDecision d = gw.engine()
                    .route(new RouteRequest(
                            client,
                            head.target.host(),
                            head.target.port(),
                            head.method,
                            true,
                            head.headers,
                            attempt,
                            tried));
            switch (d) {
                case RouteDecision.Rejected r -> {
                    if (attempt > 1) { // nothing left to retry on: report the failure we had
                        return upstreamFailed(head, last, lastTimeout, keepClient);
                    }
                    result = ExchangeResult.REJECTED;
                    return sendError(
                            head.http11,
                            r.status(),
                            r.reason(),
                            "the gateway rejected the tunnel",
                            new Explain("none", "none", r.routing(), 0),
                            keepClient);
                }
                case UpstreamAttempt a -> {
                    last = Explain.of(a, attempt);
                    OpenedTunnel opened = openTunnel(a);
                    if (opened.link() != null) {
                        return runTunnel(head, a, opened.link(), last, keepClient);
                    }
                    FailureKind kind = opened.failure();
                    lastTimeout = kind == FailureKind.CONNECT_TIMEOUT;
                    if (gw.stopping() || !RetryRule.retriesTunnel(kind, attempt, cfg.maxAttempts())) {
                        return upstreamFailed(head, last, lastTimeout, keepClient);
                    }
                    tried = RetryRule.excluding(tried, a.proxyId());
                    gw.metrics().retried();
                }
            }
        }
    }

    /** A tunnel's upstream end: {@code link} when it opened, else why it did not ({@code failure}). */
    private record OpenedTunnel(UpstreamLink link, FailureKind failure) {}

    /**
     * Opens the tunnel of {@code a}. When it could not be opened, {@code a} is completed with the failure
     * and nothing is left open; when it was, {@link #runTunnel} completes {@code a}.
     */
    private static OpenedTunnel openTunnel(UpstreamAttempt a) {
        AttemptOutcome outcome = AttemptOutcome.ABANDONED; // an unexpected exception: still completed once
        UpstreamLink link = null;
        try {
            link = a.open(false);
            if (link.mode() == UpstreamLink.Mode.TUNNEL) {
                OpenedTunnel opened = new OpenedTunnel(link, null);
                link = null;
                outcome = null;
                return opened;
            }
            outcome = AttemptOutcome.failure(FailureKind.PROTOCOL_ERROR);
            return new OpenedTunnel(null, FailureKind.PROTOCOL_ERROR);
        } catch (IOException e) {
            FailureKind kind = dialFailure(e);
            outcome = AttemptOutcome.failure(kind);
            return new OpenedTunnel(null, kind);
        } finally {
            if (link != null) {
                link.close();
            }
            if (outcome != null) {
                a.complete(outcome);
            }
        }
    }

    private boolean runTunnel(RequestHead head, UpstreamAttempt a, UpstreamLink link, Explain ex, boolean keepClient)
            throws IOException {
        AttemptOutcome outcome = AttemptOutcome.ABANDONED;
        try {
            out.writeAscii("HTTP/1.1 200 Connection established\r\n");
            ex.writeTo(out);
            out.crlf();
            out.flush();
            outcome = AttemptOutcome.SUCCESS; // established: from here on it is never replayed
            result = ExchangeResult.OK;
            logStatus = 200;
            logExplain = ex;
            idle = false;
            logTunnelHeadIn = in.consumed() - exchangeConsumed; // the tunnel counts what follows (drained bytes too)
            // the connection's own buffers carry the tunnel: `in` is drained into it first, `out` is flushed
            Tunnel t = new Tunnel(
                    ch, in, link, cfg.tunnelIdleTimeoutMillis(), gw.ticker(), gw.tunnelWatchdog(), out.buffer());
            buffersFree = false;
            tunnel = t;
            // on the selector relay no thread needs to wait for the end: the relay's thread completes the
            // exchange (attempt, metrics, exchange record) and closes the connection. Not with the access
            // log on: a log line goes through the logging handlers' I/O, which must not stall that thread
            if (mayHandOver && accessLog == null && t.onSelector()) {
                UpstreamLink l = link;
                handedOver = true; // from here on this thread touches nothing of the connection
                t.startDetached(() -> handedOverTunnelEnded(head, a, l, t));
                return false;
            }
            t.run();
            outcome = afterTunnel(t);
            return false;
        } finally {
            if (!handedOver) {
                if (link != null) {
                    link.close();
                }
                a.complete(outcome);
            }
        }
    }

    /** The tunnel's figures for the log, and its outcome: a reset by the upstream is reported against the proxy. */
    private AttemptOutcome afterTunnel(Tunnel t) {
        tunnel = null;
        buffersFree = t.ended();
        logTunnelDown = t.bytesDown();
        logTunnelUp = t.bytesUp();
        // never replayed, but the proxy that reset it is told
        return t.upstreamBroke() ? AttemptOutcome.failure(FailureKind.CONNECTION_RESET) : AttemptOutcome.SUCCESS;
    }

    /**
     * The end of a tunnel handed over to the selector relay, on the relay's thread (nothing here blocks):
     * what the connection's own thread does after a tunnel it waited for, then the connection's close.
     */
    private void handedOverTunnelEnded(RequestHead head, UpstreamAttempt a, UpstreamLink link, Tunnel t) {
        try {
            AttemptOutcome outcome = AttemptOutcome.ABANDONED;
            try {
                outcome = afterTunnel(t);
            } finally {
                link.close();
                a.complete(outcome);
            }
            endExchange(head);
        } catch (RuntimeException e) {
            Gateway.logHandlerDefect(LOG, "gateway", e);
        } finally {
            try {
                closeDown();
            } finally {
                ended.run();
            }
        }
    }

    // ---------------------------------------------------------------- errors

    private boolean sendError(boolean http11, int status, String reason, String message, Explain ex, boolean keep)
            throws IOException {
        gw.metrics().error(reason);
        logStatus = status;
        logError = reason;
        logExplain = ex;
        byte[] body = (reason + ": " + message + "\n").getBytes(StandardCharsets.UTF_8);
        out.discard();
        out.writeAscii("HTTP/1.1 ");
        out.writeAscii(Integer.toString(status));
        out.writeByte(' ');
        out.writeAscii(StatusText.of(status));
        out.crlf();
        out.header("X-ProxyPool-Error", reason);
        ex.writeTo(out);
        if (status == 407) {
            out.header("Proxy-Authenticate", "Basic realm=\"proxypool\"");
        }
        out.header("Content-Type", "text/plain; charset=utf-8");
        out.header("Content-Length", Integer.toString(body.length));
        if (!keep) {
            out.header("Connection", "close");
        } else if (!http11) {
            out.header("Connection", "keep-alive");
        }
        out.crlf();
        out.write(body, 0, body.length);
        out.flush();
        if (!keep) {
            lingerOnClose = true;
        }
        return keep;
    }
}
