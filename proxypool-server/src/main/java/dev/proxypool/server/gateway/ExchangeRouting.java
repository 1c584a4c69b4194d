package dev.proxypool.server.gateway;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.routing.RetryRule;
import dev.proxypool.core.wire.Socks5Codec;
import dev.proxypool.server.access.AttemptedUser;
import io.netty.channel.EventLoop;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * One exchange's way to an upstream on its connection's event loop: the client authenticated (first
 * attempt), the request routed, the dial prepared, then the upstream opened without blocking, or the
 * client answered (407, a rejection, the last attempt's failure); a tunnel that failed to open before any
 * byte reached the client is retried on another proxy within the routing's budget (HTTP {@code CONNECT}
 * and SOCKS5 alike). The steps run on the loop when nothing in them can wait; a password hash to compute
 * or a name to look up runs on the listener's off-loop executor, and its result comes back to the loop.
 * Confined to the connection's loop, like its {@link HttpProxyHandler}.
 */
final class ExchangeRouting {

    private final HttpProxyHandler conn;

    ExchangeRouting(HttpProxyHandler conn) {
        this.conn = conn;
    }

    /** What an off-loop routing task brings back to the loop. */
    private record Routed(String client, RouteDecision decision, UpstreamDial dial, IOException openFailed) {}

    /**
     * Authenticates (first conn.attempt), routes and prepares the dial, then continues on the loop with
     * {@link #routed}. All of it runs on the loop when nothing in it can wait (a remembered or plain
     * secret, no destination name to look up, a proxy given by address); a password hash to compute
     * moves the whole step to the off-loop executor, and a name to look up moves the dial's preparation
     * there (the pick stays on the loop).
     *
     * @param client the authenticated client of an earlier conn.attempt, or null on the first
     */
    void route(int attemptNo, List<String> tried, String client, Explain last, boolean lastTimeout) {
        RequestHead h = conn.head;
        EventLoop loop = conn.ch.eventLoop();
        String c = client != null
                ? client
                : conn.gw.authenticator().tryAuthenticate(h.headers.first("Proxy-Authorization"));
        if (c == ProxyAuthenticator.NEEDS_THREAD) {
            offLoop(
                    h,
                    () -> {
                        String verified = conn.gw.authenticator().authenticate(h.headers.first("Proxy-Authorization"));
                        return prepare(
                                h, verified, verified == null ? null : decide(h, verified, attemptNo, tried, true));
                    },
                    attemptNo,
                    tried,
                    last,
                    lastTimeout);
            return;
        }
        RouteDecision d;
        try {
            d = c == null ? null : decide(h, c, attemptNo, tried, false);
        } catch (RuntimeException e) {
            Gateway.logHandlerDefect(HttpProxyHandler.LOG, "gateway", e);
            conn.ch.close();
            return;
        }
        if (c != null && d == null) { // the routing may wait for a proxy: all of it off the loop
            String known = c;
            offLoop(
                    h,
                    () -> prepare(h, known, decide(h, known, attemptNo, tried, true)),
                    attemptNo,
                    tried,
                    last,
                    lastTimeout);
            return;
        }
        if (d instanceof UpstreamAttempt a && a.dialBlocks()) {
            offLoop(h, () -> prepare(h, c, a), attemptNo, tried, last, lastTimeout);
            return;
        }
        Routed r;
        try {
            r = prepare(h, c, d);
        } catch (RuntimeException e) {
            Gateway.logHandlerDefect(HttpProxyHandler.LOG, "gateway", e);
            conn.ch.close();
            return;
        }
        loop.execute(() -> routed(r, attemptNo, tried, last, lastTimeout)); // a task of its own, as off-loop
    }

    private RouteDecision decide(RequestHead h, String client, int attemptNo, List<String> tried, boolean mayLookUp) {
        RouteRequest req = new RouteRequest(
                client, h.target.host(), h.target.port(), h.method, h.connect, h.headers, attemptNo, tried);
        return mayLookUp ? conn.gw.engine().route(req) : conn.gw.engine().routeWithoutLookup(req);
    }

    /** The dial of {@code d}: on the loop only when {@link UpstreamAttempt#dialBlocks()} is false. */
    private static Routed prepare(RequestHead h, String client, RouteDecision d) {
        if (client == null) {
            return new Routed(null, null, null, null);
        }
        UpstreamDial dial = null;
        IOException failed = null;
        if (d instanceof UpstreamAttempt a) {
            try {
                dial = a.dial();
                if (h.connect && dial.mode() != UpstreamDial.Mode.TUNNEL) {
                    throw new IllegalStateException("an engine's dial for a CONNECT is not a tunnel");
                }
            } catch (RouteRefusedException e) {
                a.complete(AttemptOutcome.ABANDONED); // nothing was tried: no health report
                return new Routed(client, e.rejected(), null, null);
            } catch (IOException e) {
                failed = e;
            } catch (RuntimeException e) {
                a.complete(AttemptOutcome.ABANDONED);
                throw e;
            }
        }
        return new Routed(client, d, dial, failed);
    }

    /** Runs {@code step} on the off-loop executor and its conn.result on the loop with {@link #routed}. */
    private void offLoop(
            RequestHead h,
            Supplier<Routed> step,
            int attemptNo,
            List<String> tried,
            Explain last,
            boolean lastTimeout) {
        EventLoop loop = conn.ch.eventLoop();
        Runnable task = () -> {
            Routed r;
            try {
                r = step.get();
            } catch (RuntimeException e) {
                Gateway.logHandlerDefect(HttpProxyHandler.LOG, "gateway", e);
                loop.execute(() -> conn.ch.close());
                return;
            }
            try {
                loop.execute(() -> routed(r, attemptNo, tried, last, lastTimeout));
            } catch (RejectedExecutionException e) {
                abandon(r); // the loop has stopped
            }
        };
        try {
            conn.listener.offLoop().execute(task);
        } catch (RejectedExecutionException e) {
            conn.result = ExchangeResult.REJECTED;
            conn.sendError(h.http11, 503, GatewayErrors.OVERLOADED, "the gateway is overloaded", Explain.NONE, false);
            conn.endExchange();
        }
    }

    private static void abandon(Routed r) {
        if (r.decision() instanceof UpstreamAttempt a) {
            a.complete(AttemptOutcome.ABANDONED);
        }
    }

    private void routed(Routed r, int attemptNo, List<String> tried, Explain last, boolean lastTimeout) {
        if (conn.state != HttpProxyHandler.State.BUSY) {
            abandon(r); // the client left meanwhile
            return;
        }
        RequestHead h = conn.head;
        boolean keepClient = conn.clientKeepAlive(h) && h.framing == 0;
        if (!h.connect && r.client() != null && r.decision() instanceof UpstreamAttempt a) {
            conn.logUser = r.client();
            conn.forward.forwardRouted(a, r.dial(), attemptNo, tried, r.openFailed());
            return;
        }
        if (!h.connect && r.client() != null && attemptNo > 1) {
            conn.logUser = r.client();
            conn.forward.forwardExhausted(last, lastTimeout);
            return;
        }
        if (r.client() == null) {
            conn.logUser = null;
            conn.logAttempted = AttemptedUser.of(h.headers.first("Proxy-Authorization"));
            conn.result = ExchangeResult.AUTH_REQUIRED;
            conn.finishAnswered(conn.sendError(
                    h.http11,
                    407,
                    GatewayErrors.AUTH_REQUIRED,
                    "proxy authentication required",
                    Explain.NONE,
                    keepClient));
            return;
        }
        conn.logUser = r.client();
        switch (r.decision()) {
            case RouteDecision.Rejected rej -> {
                if (conn.socks) {
                    if (attemptNo > 1) {
                        conn.socks5.socksUpstreamFailed(lastTimeout);
                        return;
                    }
                    conn.logExplain = new Explain("none", "none", rej.routing(), 0);
                    conn.socks5.socksReply(
                            Socks5Wire.rejectionReply(rej), rej.status(), rej.reason(), ExchangeResult.REJECTED);
                    return;
                }
                if (attemptNo > 1) {
                    conn.finishAnswered(conn.upstreamFailed(last, lastTimeout, keepClient));
                    return;
                }
                conn.result = ExchangeResult.REJECTED;
                conn.finishAnswered(conn.sendError(
                        h.http11,
                        rej.status(),
                        rej.reason(),
                        "the gateway rejected the tunnel",
                        new Explain("none", "none", rej.routing(), 0),
                        keepClient));
            }
            case UpstreamAttempt a -> {
                Explain ex = Explain.of(a, attemptNo);
                conn.attempt = a;
                if (conn.socks) {
                    conn.logExplain = ex;
                }
                if (r.openFailed() != null) {
                    openFailed(a, UpstreamConnector.connectFailure(r.openFailed()), attemptNo, tried, ex);
                } else {
                    dial(a, r.dial(), attemptNo, tried, ex);
                }
            }
        }
    }

    private void dial(UpstreamAttempt a, UpstreamDial d, int attemptNo, List<String> tried, Explain ex) {
        conn.connectUpstream(
                d, a, (c, early) -> conn.opened(a, c, ex, early), kind -> openFailed(a, kind, attemptNo, tried, ex));
    }

    /** The tunnel of {@code a} could not be opened: the conn.attempt completes, and another proxy is tried or the client told. */
    private void openFailed(UpstreamAttempt a, FailureKind kind, int attemptNo, List<String> tried, Explain ex) {
        if (conn.attempt != a) {
            return; // completed when the client left
        }
        conn.completeAttempt(AttemptOutcome.failure(kind));
        if (conn.state != HttpProxyHandler.State.BUSY) {
            return;
        }
        boolean timeout = kind == FailureKind.CONNECT_TIMEOUT;
        if (conn.socks && (conn.gw.stopping() || !RetryRule.retriesTunnel(kind, attemptNo, conn.cfg.maxAttempts()))) {
            if (conn.gw.stopping()) {
                conn.socks5.socksReply(
                        Socks5Codec.Reply.GENERAL_FAILURE.code(),
                        503,
                        GatewayErrors.SHUTTING_DOWN,
                        ExchangeResult.REJECTED);
            } else {
                conn.socks5.socksFailure = Socks5Wire.failureReply(kind);
                conn.socks5.socksUpstreamFailed(timeout);
            }
            return;
        }
        if (conn.socks) {
            conn.socks5.socksFailure = Socks5Wire.failureReply(kind);
        }
        if (conn.gw.stopping() || !RetryRule.retriesTunnel(kind, attemptNo, conn.cfg.maxAttempts())) {
            conn.finishAnswered(
                    conn.upstreamFailed(ex, timeout, conn.clientKeepAlive(conn.head) && conn.head.framing == 0));
            return;
        }
        conn.gw.metrics().retried();
        route(attemptNo + 1, RetryRule.excluding(tried, a.proxyId()), conn.logUser, ex, timeout);
    }
}
