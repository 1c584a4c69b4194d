package dev.proxypool.server.gateway;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.routing.RetryRule;
import dev.proxypool.core.wire.HeadReader;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Plain HTTP forwarding of one connection of the HTTP proxy listener on its event loop: the request
 * (a small idempotent body read whole so it can be replayed, else streamed with {@link BodyFramer}),
 * an idle keep-alive upstream connection of the loop reused or a new one opened by {@link
 * UpstreamConnector}, the response head checked and rewritten, its body framed to the client with
 * backpressure, a failure before any response byte retried on another proxy, the upstream connection
 * given back to the loop's pool ({@link IdleUpstreams}) when it may serve again. The state of the
 * request being forwarded lives in the connection's {@link HttpProxyHandler} ({@code fwd}).
 */
final class PlainForward {

    /** The largest request body kept in memory so that an idempotent request can be replayed (64 KiB). */
    static final int MAX_REPLAYABLE_BODY = 64 * 1024;

    private final HttpProxyHandler conn;

    PlainForward(HttpProxyHandler conn) {
        this.conn = conn;
    }

    /** One plain request's forwarding state. */
    static final class Forward {
        boolean keepClient;
        boolean hasBody;
        boolean expectContinue;
        boolean continueSent;
        boolean idempotent;
        int maxAttempts;
        /** A small idempotent request's body, read whole so the request can be replayed; null: streamed. */
        byte[] replayBody;
        /** Bytes of {@link #replayBody} still to collect before routing. */
        long collect;

        UpstreamDial dial;
        int attemptNo;
        List<String> tried = List.of();
        Explain ex = Explain.NONE;
        boolean mayRetry;
        boolean allowReuse;
        boolean reused;
        ByteBuf respPending;
        ResponseHead resp;
        BodyFramer respFramer;
        boolean unreachable;
        boolean keep;
        boolean reusable;
        ScheduledFuture<?> timer;
        long lastActivity;
    }

    void startForward() {
        RequestHead h = conn.head;
        Forward f = new Forward();
        conn.fwd = f;
        f.hasBody = h.framing != 0;
        f.keepClient = conn.clientKeepAlive(h);
        f.expectContinue = h.http11 && f.hasBody && h.headers.hasToken("Expect", "100-continue");
        boolean replay = h.framing > 0
                && h.framing <= MAX_REPLAYABLE_BODY
                && !f.expectContinue
                && RetryRule.retryable(h.method, false);
        boolean unreplayable = f.hasBody && !replay;
        f.idempotent = RetryRule.retryable(h.method, unreplayable);
        f.maxAttempts = RetryRule.attemptsAllowed(h.method, unreplayable, conn.cfg.maxAttempts());
        if (replay) {
            f.collect = h.framing;
            if (conn.pending.readableBytes() >= f.collect) {
                takeReplayBody();
            } else {
                HttpProxyHandler.autoRead(conn.ch, true); // the rest comes in channelRead
            }
            return;
        }
        conn.route(1, List.of(), null, Explain.NONE, false);
    }

    void takeReplayBody() {
        Forward f = conn.fwd;
        HttpProxyHandler.autoRead(conn.ch, false);
        f.replayBody = new byte[(int) f.collect];
        conn.pending.readBytes(f.replayBody);
        conn.exchangeIn += f.replayBody.length;
        f.collect = 0;
        conn.route(1, List.of(), null, Explain.NONE, false);
    }

    /** Client bytes while a plain request is busy: the replay body collected, or the body streamed. */
    void forwardClientBytes() {
        Forward f = conn.fwd;
        if (f == null) {
            return;
        }
        if (f.collect > 0 && conn.pending.readableBytes() >= f.collect) {
            takeReplayBody();
        } else if (conn.reqFramer != null && conn.up != null) {
            pumpRequestBody();
        }
    }

    void forwardRouted(
            UpstreamAttempt a, UpstreamDial dial, int attemptNo, List<String> tried, IOException openFailed) {
        Forward f = conn.fwd;
        conn.attempt = a;
        f.attemptNo = attemptNo;
        f.tried = tried;
        f.ex = Explain.of(a, attemptNo);
        f.mayRetry = f.idempotent && attemptNo < f.maxAttempts;
        f.allowReuse = f.idempotent;
        if (openFailed != null) {
            forwardFailed(UpstreamConnector.connectFailure(openFailed));
            return;
        }
        f.dial = dial;
        connectForward();
    }

    void connectForward() {
        Forward f = conn.fwd;
        if (f.allowReuse && f.dial.poolKey() != null) {
            Channel c = IdleUpstreams.take(conn.ch.eventLoop(), f.dial.poolKey());
            if (c != null) {
                f.reused = true;
                conn.attempt.connected(-1);
                conn.up = c;
                c.pipeline().get(UpstreamHandler.class).owner = conn;
                sendForward();
                return;
            }
        }
        f.reused = false;
        UpstreamAttempt a = conn.attempt;
        // TLS to an HTTPS proxy and the handshake of a tunnel through a proxy (SOCKS4/4a/5, HTTP CONNECT)
        // come before the request, as for a tunnel
        conn.connectUpstream(
                f.dial,
                a,
                (c, early) -> {
                    if (conn.fwd != f || conn.state != HttpProxyHandler.State.BUSY || conn.attempt != a) {
                        if (early != null) {
                            early.release();
                        }
                        c.close();
                        return;
                    }
                    conn.up = c;
                    sendForward();
                    if (early != null && conn.up == c && conn.fwd == f) { // the origin spoke first
                        forwardUpRead(early);
                    } else if (early != null) {
                        early.release();
                    }
                },
                kind -> {
                    if (conn.fwd == f && conn.state == HttpProxyHandler.State.BUSY && conn.attempt == a) {
                        forwardFailed(kind);
                    }
                });
    }

    void sendForward() {
        Forward f = conn.fwd;
        RequestHead h = conn.head;
        f.resp = null;
        f.respFramer = null;
        if (f.respPending != null) {
            f.respPending.release();
        }
        f.respPending = Unpooled.buffer(512); // the response head: on the heap, not pooled
        StringBuilder sb = new StringBuilder(512);
        requestHead(sb, h, f.dial, conn.attempt.consumedHeader(), conn.attempt.resolvedTarget());
        ByteBuf out = conn.up.alloc().buffer(sb.length());
        out.writeCharSequence(sb, StandardCharsets.ISO_8859_1);
        conn.up.write(out, conn.up.voidPromise());
        if (f.replayBody != null) {
            conn.up.write(Unpooled.wrappedBuffer(f.replayBody), conn.up.voidPromise());
        } else if (h.framing != 0) {
            if (f.expectContinue && !f.continueSent) { // we answer 100 ourselves and send no Expect upstream
                f.continueSent = true;
                conn.writeClient("HTTP/1.1 100 Continue\r\n\r\n");
                conn.ch.flush();
            }
            conn.reqFramer = new BodyFramer(h.framing, false, conn.cfg.maxHeaderBytes(), conn.ch.alloc());
            pumpRequestBody();
        }
        conn.up.flush();
        if (conn.up == null) {
            return; // the request body broke its framing
        }
        HttpProxyHandler.autoRead(conn.up, true);
        long wait = f.mayRetry
                ? Math.min(
                        conn.cfg.firstByteTimeout().toNanos(),
                        conn.cfg.ioTimeout().toNanos())
                : conn.cfg.ioTimeout().toNanos();
        f.timer = conn.ch
                .eventLoop()
                .schedule(
                        () -> {
                            if (conn.fwd == f && f.resp == null) {
                                forwardFailed(FailureKind.SLOW_BODY);
                            }
                        },
                        wait,
                        TimeUnit.NANOSECONDS);
    }

    void pumpRequestBody() {
        Forward f = conn.fwd;
        Channel u = conn.up;
        try {
            int before = conn.pending.readerIndex();
            boolean done = conn.reqFramer.feed(conn.pending, b -> u.write(b, u.voidPromise()));
            conn.exchangeIn += conn.pending.readerIndex() - before;
            u.flush();
            if (done) {
                conn.reqFramer = null;
                HttpProxyHandler.autoRead(conn.ch, false);
            } else {
                HttpProxyHandler.autoRead(conn.ch, u.isWritable());
            }
        } catch (BodyFramer.FramingException e) {
            // the client's own chunked body is malformed: answered 400 before any response byte, else cut
            conn.reqFramer = null;
            HttpProxyHandler.cancel(f.timer);
            conn.up = null;
            u.close();
            conn.completeAttempt(AttemptOutcome.ABANDONED);
            conn.fwd = null;
            if (f.resp != null) {
                conn.result = ExchangeResult.ABORTED;
                conn.endExchange();
                conn.ch.close();
                return;
            }
            conn.result = ExchangeResult.BAD_REQUEST;
            conn.sendError(
                    conn.head.http11,
                    400,
                    GatewayErrors.BAD_FRAMING,
                    "malformed chunked request body",
                    Explain.NONE,
                    false);
            conn.endExchange();
        }
    }

    void forwardUpRead(ByteBuf in) {
        Forward f = conn.fwd;
        f.lastActivity = conn.gw.ticker().read();
        if (f.resp == null) {
            f.respPending.writeBytes(in);
            in.release();
            parseResponse();
            return;
        }
        try {
            feedResponse(in);
        } finally {
            in.release();
        }
    }

    void parseResponse() {
        Forward f = conn.fwd;
        while (true) {
            ByteBuf buf = f.respPending;
            if (!buf.isReadable()) {
                return;
            }
            HeadReader r = HttpProxyHandler.headReader(buf);
            ResponseHead resp;
            try {
                resp = ResponseHead.read(r, conn.cfg);
            } catch (WireException e) {
                forwardFailed(FailureKind.PROTOCOL_ERROR);
                return;
            } catch (IOException e) {
                return; // not whole yet
            }
            if (resp == null) {
                return;
            }
            buf.skipBytes(r.consumed());
            if (resp.status == 101) {
                forwardFailed(FailureKind.PROTOCOL_ERROR); // no upgrade through the gateway
                return;
            }
            if (resp.status >= 200) {
                responseHead(resp);
                return;
            }
            // 1xx interim responses are ours to swallow: we already answered Expect ourselves
        }
    }

    void responseHead(ResponseHead resp) {
        Forward f = conn.fwd;
        RequestHead h = conn.head;
        HttpProxyHandler.cancel(f.timer);
        boolean forwardMode = f.dial.mode() == UpstreamDial.Mode.FORWARD;
        if (forwardMode && resp.status == 407) {
            forwardFailed(FailureKind.PROXY_AUTH_REJECTED);
            return;
        }
        f.unreachable = forwardMode && (resp.status == 502 || resp.status == 504);
        if (f.unreachable && f.mayRetry) {
            forwardFailed(FailureKind.UPSTREAM_UNREACHABLE);
            return;
        }
        long framing;
        try {
            framing = resp.framing(h.method);
        } catch (WireException e) {
            forwardFailed(FailureKind.PROTOCOL_ERROR);
            return;
        }
        conn.attempt.answered(resp.status);
        f.resp = resp;
        boolean dechunk = framing == Framing.CHUNKED && !h.http11;
        f.keep = f.keepClient && framing != Framing.UNTIL_CLOSE && !dechunk;
        f.reusable = framing != Framing.UNTIL_CLOSE
                && (resp.http11
                        ? !resp.headers.hasToken("Connection", "close")
                        : resp.headers.hasToken("Connection", "keep-alive"));
        conn.logStatus = resp.status;
        conn.logExplain = f.ex;
        StringBuilder sb = new StringBuilder(512)
                .append("HTTP/1.1 ")
                .append(resp.status)
                .append(' ')
                .append(resp.reasonPhrase)
                .append("\r\n");
        HeaderFields rh = resp.headers;
        String connection = HopByHop.connection(rh);
        for (int i = 0, n = rh.size(); i < n; i++) {
            String name = rh.name(i);
            if (HopByHop.skip(name, connection) || dechunk && name.equalsIgnoreCase("Transfer-Encoding")) {
                continue;
            }
            HttpProxyHandler.header(sb, name, rh.value(i));
        }
        f.ex.appendTo(sb);
        if (!f.keep) {
            HttpProxyHandler.header(sb, "Connection", "close");
        } else if (!h.http11) {
            HttpProxyHandler.header(sb, "Connection", "keep-alive");
        }
        sb.append("\r\n");
        conn.writeClient(sb);
        f.respFramer = new BodyFramer(framing, dechunk, conn.cfg.maxHeaderBytes(), conn.ch.alloc());
        f.lastActivity = conn.gw.ticker().read();
        scheduleBodyIdle(f);
        if (f.respFramer.done()) {
            forwardDone();
            return;
        }
        feedResponse(f.respPending);
    }

    void scheduleBodyIdle(Forward f) {
        long left = f.lastActivity
                + conn.cfg.ioTimeout().toNanos()
                - conn.gw.ticker().read();
        f.timer = conn.ch
                .eventLoop()
                .schedule(
                        () -> {
                            if (conn.fwd != f) {
                                return;
                            }
                            if (f.lastActivity
                                            + conn.cfg.ioTimeout().toNanos()
                                            - conn.gw.ticker().read()
                                    > 0) {
                                scheduleBodyIdle(f);
                            } else if (!conn.ch.isWritable()) {
                                // the client has not taken what was already read: reading from the proxy
                                // was paused for the client, so the wait is the client's, not the proxy's
                                forwardCut(AttemptOutcome.ABANDONED);
                            } else {
                                forwardBroken(FailureKind.SLOW_BODY);
                            }
                        },
                        Math.max(1, left),
                        TimeUnit.NANOSECONDS);
    }

    void feedResponse(ByteBuf in) {
        Forward f = conn.fwd;
        boolean done;
        try {
            done = f.respFramer.feed(in, b -> {
                conn.written += b.readableBytes();
                conn.ch.write(b, conn.ch.voidPromise());
            });
        } catch (BodyFramer.FramingException e) {
            forwardBroken(FailureKind.PROTOCOL_ERROR);
            return;
        }
        if (done) {
            if (in.isReadable()) {
                f.reusable = false; // bytes after the response: the connection is not trusted again
            }
            forwardDone();
        } else if (!conn.ch.isWritable() && conn.up != null) {
            HttpProxyHandler.autoRead(conn.up, false); // resumed by the client's writability
        }
    }

    /** The upstream ended its side (or went away) during a plain exchange. */
    void forwardUpEnded() {
        Forward f = conn.fwd;
        if (f.resp == null) {
            Channel u = conn.up;
            conn.up = null;
            if (u != null) {
                u.close();
            }
            boolean stale = f.reused && f.allowReuse;
            if (stale && (conn.head.framing == 0 || f.replayBody != null)) {
                HttpProxyHandler.cancel(f.timer);
                f.allowReuse = false; // a pooled connection had gone stale: once more on a fresh one
                connectForward();
                return;
            }
            forwardFailed(FailureKind.CONNECTION_RESET);
        } else if (f.respFramer.untilClose()) {
            f.reusable = false;
            forwardDone();
        } else {
            forwardBroken(FailureKind.CONNECTION_RESET);
        }
    }

    /** The attempt failed before any response byte reached the client: retried on another proxy, or answered. */
    void forwardFailed(FailureKind kind) {
        Forward f = conn.fwd;
        HttpProxyHandler.cancel(f.timer);
        conn.reqFramer = null;
        Channel u = conn.up;
        conn.up = null;
        if (u != null) {
            u.close();
        }
        UpstreamAttempt a = conn.attempt;
        conn.completeAttempt(AttemptOutcome.failure(kind));
        boolean timeout = kind == FailureKind.CONNECT_TIMEOUT || kind == FailureKind.SLOW_BODY;
        if (f.mayRetry && a != null) {
            conn.gw.metrics().retried();
            conn.route(f.attemptNo + 1, RetryRule.excluding(f.tried, a.proxyId()), conn.logUser, f.ex, timeout);
            return;
        }
        forwardExhausted(f.ex, timeout);
    }

    void forwardExhausted(Explain last, boolean timeout) {
        Forward f = conn.fwd;
        conn.fwd = null;
        releaseResponseBuffer(f);
        conn.finishAnswered(conn.upstreamFailed(last, timeout, f.keepClient && !f.hasBody));
    }

    /** Broke after the response had started: the client connection is cut, the only honest signal left. */
    void forwardBroken(FailureKind kind) {
        forwardCut(AttemptOutcome.failure(kind));
    }

    /** The exchange cannot finish after its response started: the attempt ends with {@code outcome}, the client is cut. */
    void forwardCut(AttemptOutcome outcome) {
        Forward f = conn.fwd;
        HttpProxyHandler.cancel(f.timer);
        conn.fwd = null;
        conn.reqFramer = null;
        releaseResponseBuffer(f);
        Channel u = conn.up;
        conn.up = null;
        if (u != null) {
            u.close();
        }
        conn.completeAttempt(outcome);
        conn.result = ExchangeResult.ABORTED;
        conn.endExchange();
        conn.ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    void forwardDone() {
        Forward f = conn.fwd;
        HttpProxyHandler.cancel(f.timer);
        conn.fwd = null;
        releaseResponseBuffer(f);
        Channel u = conn.up;
        conn.up = null;
        boolean reusable = f.reusable && conn.reqFramer == null && f.dial.poolKey() != null;
        conn.reqFramer = null;
        if (u != null) {
            u.pipeline().get(UpstreamHandler.class).owner = null;
            if (reusable) {
                HttpProxyHandler.autoRead(u, true); // an idle connection that speaks or closes is dropped
                IdleUpstreams.give(f.dial.poolKey(), u);
            } else {
                u.close();
            }
        }
        conn.completeAttempt(
                f.unreachable
                        ? AttemptOutcome.failure(FailureKind.UPSTREAM_UNREACHABLE)
                        : AttemptOutcome.success(f.resp.status));
        conn.result = ExchangeResult.OK;
        conn.ch.flush();
        conn.endExchange();
        if (f.keep && !conn.clientEof && !conn.gw.stopping()) {
            conn.awaitNextRequest();
        } else {
            conn.state = HttpProxyHandler.State.CLOSING;
            conn.ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }

    static void releaseResponseBuffer(Forward f) {
        if (f != null && f.respPending != null) {
            f.respPending.release();
            f.respPending = null;
        }
    }

    static void requestHead(
            StringBuilder sb, RequestHead head, UpstreamDial dial, String consumedHeader, InetAddress resolved) {
        RequestTarget t = head.target;
        boolean forward = dial.mode() == UpstreamDial.Mode.FORWARD;
        sb.append(head.method).append(' ');
        if (forward) {
            sb.append("http://");
            if (resolved == null) {
                sb.append(t.authority());
            } else { // the checked address for the upstream to connect to; Host below keeps the name
                String a = resolved.getHostAddress();
                sb.append(resolved instanceof Inet6Address ? "[" + a + "]" : a)
                        .append(':')
                        .append(t.port());
            }
        }
        sb.append(t.path()).append(" HTTP/1.1\r\n");
        HttpProxyHandler.header(sb, "Host", t.authority());
        UpstreamDial.InjectedHeader inject = dial.injectedHeader();
        if (inject != null && forward) {
            HttpProxyHandler.header(sb, inject.name(), inject.value());
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
            HttpProxyHandler.header(sb, name, h.value(i));
        }
        sb.append("\r\n");
    }
}
