package dev.proxypool.server.gateway;

import dev.proxypool.core.wire.Socks5Codec;
import dev.proxypool.server.access.AttemptedUser;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.EventLoop;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * The SOCKS5 handshake (RFC 1928, with RFC 1929 username/password) of one connection of the SOCKS5
 * listener on its event loop: each message taken once whole from the collected bytes, the
 * credentials checked off the loop, the request turned into a tunnel the connection's {@link
 * HttpProxyHandler} routes, dials and relays as it does a CONNECT; the replies and the exchange's
 * end (metrics, access log, exchange record) of a SOCKS5 connection.
 */
final class SocksHandshake {

    private final HttpProxyHandler h;

    SocksHandshake(HttpProxyHandler h) {
        this.h = h;
    }

    enum SocksPhase {
        GREETING,
        AUTH,
        AUTHENTICATING,
        REQUEST
    }

    SocksPhase socksPhase = SocksPhase.GREETING;
    String socksClient;
    HeaderFields socksHeaders;
    String socksTarget;
    /** The reply for the last tunnel that could not be opened. */
    int socksFailure = Socks5Codec.Reply.GENERAL_FAILURE.code();

    /** Handshake bytes arrived: each message is taken once whole (every field is at most 255 bytes). */
    void socksBytes() {
        if (!h.pending.isReadable() || h.state != HttpProxyHandler.State.HEAD) {
            return;
        }
        if (!h.exchangeOpen) { // the first byte: the connection counts as a tunnel from its accept
            h.idle = false;
            h.exchangeOpen = true;
            h.exchangeStart = h.acceptedAt;
            h.exchangeWritten = 0;
            h.exchangeIn = 0;
            h.result = ExchangeResult.ABORTED;
            h.gw.metrics().started(true);
        }
        while (h.state == HttpProxyHandler.State.HEAD && h.pending.isReadable()) {
            boolean progressed = switch (socksPhase) {
                case GREETING -> socksGreeting();
                case AUTH -> socksAuth();
                case AUTHENTICATING -> false;
                case REQUEST -> socksRequest();
            };
            if (!progressed) {
                return;
            }
        }
    }

    boolean socksGreeting() {
        ByteBuf b = h.pending;
        int version = b.getUnsignedByte(b.readerIndex());
        if (version != Socks5Codec.VERSION) {
            if (version == 4) {
                h.writeClient(Unpooled.wrappedBuffer(new byte[] {0, 0x5B, 0, 0, 0, 0, 0, 0}));
            }
            h.result = ExchangeResult.BAD_REQUEST;
            socksClosing(400, GatewayErrors.BAD_REQUEST);
            return false;
        }
        if (b.readableBytes() >= 2 && b.getUnsignedByte(b.readerIndex() + 1) == 0) {
            b.skipBytes(2);
            h.exchangeIn += 2;
            socksRefuseMethod(ExchangeResult.BAD_REQUEST, 400, GatewayErrors.BAD_REQUEST);
            return false;
        }
        ByteBuffer view = b.nioBuffer();
        Socks5Codec.Greeting greeting = Socks5Codec.decodeGreeting(view);
        if (greeting == null) {
            return false;
        }
        b.skipBytes(view.position());
        h.exchangeIn += view.position();
        boolean none = greeting.offers(Socks5Codec.METHOD_NONE);
        if (greeting.offers(Socks5Codec.METHOD_USER_PASSWORD)) {
            h.writeClient(Unpooled.wrappedBuffer(Socks5Codec.methodChoice(Socks5Codec.METHOD_USER_PASSWORD)));
            h.ch.flush();
            socksPhase = SocksPhase.AUTH;
            return true;
        }
        String client = none ? h.gw.authenticator().authenticate(null) : null; // no secret: nothing to hash
        if (client == null) { // credentials required, or no method we know offered
            socksRefuseMethod(ExchangeResult.AUTH_REQUIRED, 407, GatewayErrors.AUTH_REQUIRED);
            return false;
        }
        h.logUser = client;
        socksClient = client;
        socksHeaders = new HeaderFields();
        h.writeClient(Unpooled.wrappedBuffer(Socks5Codec.methodChoice(Socks5Codec.METHOD_NONE)));
        h.ch.flush();
        socksPhase = SocksPhase.REQUEST;
        return true;
    }

    boolean socksAuth() {
        ByteBuf b = h.pending;
        ByteBuffer view = b.nioBuffer();
        Socks5Codec.AuthRequest auth = Socks5Codec.decodeAuthRequest(view);
        if (auth == null) {
            return false;
        }
        b.skipBytes(view.position());
        h.exchangeIn += view.position();
        int version = auth.version();
        int userLength = auth.username().length;
        byte[] u = auth.username();
        byte[] pw = auth.password();
        String user = new String(u, StandardCharsets.UTF_8);
        // the secret lives in this string for the authenticator only; it is never logged
        String password = new String(pw, StandardCharsets.UTF_8);
        Socks5Codec.wipe(pw);
        String authorization = version != Socks5Codec.AUTH_VERSION || userLength == 0 || user.indexOf(':') >= 0
                ? null
                : "Basic "
                        + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        socksPhase = SocksPhase.AUTHENTICATING;
        EventLoop loop = h.ch.eventLoop();
        String known = authorization == null ? null : h.gw.authenticator().tryAuthenticate(authorization);
        if (known != ProxyAuthenticator.NEEDS_THREAD) { // a remembered or plain secret: answered here
            loop.execute(() -> socksAuthenticated(known, authorization)); // after this read, as off-loop
            return false;
        }
        Runnable task = () -> {
            String client;
            try {
                client = authorization == null ? null : h.gw.authenticator().authenticate(authorization);
            } catch (RuntimeException e) {
                Gateway.logHandlerDefect(HttpProxyHandler.LOG, "socks", e);
                loop.execute(() -> h.ch.close());
                return;
            }
            loop.execute(() -> socksAuthenticated(client, authorization));
        };
        try {
            h.listener.offLoop().execute(task); // secret hashing (PBKDF2) stays off the loop
        } catch (RejectedExecutionException e) {
            h.ch.close();
        }
        return false;
    }

    void socksAuthenticated(String client, String authorization) {
        if (h.state != HttpProxyHandler.State.HEAD) {
            return;
        }
        h.logUser = client;
        if (client == null) {
            h.logAttempted = AttemptedUser.of(authorization);
            h.writeClient(Unpooled.wrappedBuffer(Socks5Codec.authStatus(false)));
            h.result = ExchangeResult.AUTH_REQUIRED;
            socksClosing(407, GatewayErrors.AUTH_REQUIRED);
            return;
        }
        h.writeClient(Unpooled.wrappedBuffer(Socks5Codec.authStatus(true)));
        h.ch.flush();
        socksClient = client;
        socksHeaders = new HeaderFields();
        socksHeaders.add("Proxy-Authorization", authorization);
        socksPhase = SocksPhase.REQUEST;
        socksBytes();
        if (h.clientEof && h.state == HttpProxyHandler.State.HEAD) {
            h.result = ExchangeResult.BAD_REQUEST; // the client closed inside the handshake
            socksError(400, GatewayErrors.BAD_REQUEST);
            h.ch.close();
        }
    }

    boolean socksRequest() {
        ByteBuf b = h.pending;
        ByteBuffer view = b.nioBuffer();
        Socks5Codec.Message request = Socks5Codec.decodeMessage(view);
        if (request == null) {
            return false;
        }
        if (request.version() != Socks5Codec.VERSION) {
            socksReply(
                    Socks5Codec.Reply.GENERAL_FAILURE.code(),
                    400,
                    GatewayErrors.BAD_REQUEST,
                    ExchangeResult.BAD_REQUEST);
            return false;
        }
        if (!request.whole()) { // an address type RFC 1928 does not define
            socksReply(
                    Socks5Codec.Reply.ADDRESS_TYPE_NOT_SUPPORTED.code(),
                    400,
                    GatewayErrors.BAD_REQUEST,
                    ExchangeResult.BAD_REQUEST);
            return false;
        }
        b.skipBytes(view.position());
        h.exchangeIn += view.position();
        String host = request.host();
        int port = request.port();
        if (request.code() != Socks5Codec.CMD_CONNECT) {
            socksReply(
                    Socks5Codec.Reply.COMMAND_NOT_SUPPORTED.code(),
                    400,
                    GatewayErrors.UNSUPPORTED_METHOD,
                    ExchangeResult.BAD_REQUEST);
            return false;
        }
        if (port == 0) {
            socksReply(
                    Socks5Codec.Reply.NOT_ALLOWED.code(),
                    400,
                    GatewayErrors.BAD_CONNECT_TARGET,
                    ExchangeResult.BAD_REQUEST);
            return false;
        }
        RequestTarget target;
        try {
            target = RequestTarget.connect((host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port);
        } catch (WireException e) { // an empty name or one with characters no host name has
            socksReply(
                    Socks5Codec.Reply.HOST_UNREACHABLE.code(),
                    400,
                    GatewayErrors.BAD_CONNECT_TARGET,
                    ExchangeResult.BAD_REQUEST);
            return false;
        }
        socksTarget = target.authority();
        // the handshake is complete: the first-request deadline is met
        HttpProxyHandler.cancel(h.firstTimer);
        h.firstRequest = false;
        h.head = RequestHead.socks(target, socksHeaders);
        h.state = HttpProxyHandler.State.BUSY;
        if (h.gw.stopping()) {
            socksReply(
                    Socks5Codec.Reply.GENERAL_FAILURE.code(),
                    503,
                    GatewayErrors.SHUTTING_DOWN,
                    ExchangeResult.REJECTED);
            return false;
        }
        h.route(1, List.of(), socksClient, Explain.NONE, false);
        return false;
    }

    void socksExpired() {
        if (h.state != HttpProxyHandler.State.HEAD) {
            return;
        }
        // the handshake did not complete within firstRequestTimeout of the accept
        h.gw.metrics().connectionClosed(h.listener.name(), ClosedReason.FIRST_REQUEST_TIMEOUT);
        if (h.exchangeOpen) {
            h.result = ExchangeResult.BAD_REQUEST;
            socksError(408, GatewayErrors.REQUEST_TIMEOUT);
            h.endExchange();
        }
        h.ch.close();
    }

    void socksUpstreamFailed(boolean timeout) {
        socksReply(
                socksFailure,
                timeout ? 504 : 502,
                timeout ? GatewayErrors.UPSTREAM_TIMEOUT : GatewayErrors.UPSTREAM_FAILED,
                ExchangeResult.UPSTREAM_FAILED);
    }

    void socksRefuseMethod(ExchangeResult r, int status, String reason) {
        h.writeClient(Unpooled.wrappedBuffer(Socks5Codec.methodChoice(Socks5Codec.METHOD_NO_ACCEPTABLE)));
        h.result = r;
        socksClosing(status, reason);
    }

    /** Answers with a failure reply and closes; {@code status} and {@code reason} are for the log. */
    void socksReply(int reply, int status, String reason, ExchangeResult r) {
        writeSocksReply(reply);
        h.result = r;
        socksClosing(status, reason);
    }

    /** VER, REP, RSV, then BND.ADDR and BND.PORT 0.0.0.0:0 (the upstream's socket is not the client's business). */
    void writeSocksReply(int reply) {
        h.writeClient(Unpooled.wrappedBuffer(Socks5Codec.reply(reply)));
    }

    void socksError(int status, String reason) {
        h.logStatus = status;
        h.logError = reason;
        h.gw.metrics().error(reason);
    }

    /** Ends the connection after a refusal: the reply reaches the client before the close (no reset). */
    void socksClosing(int status, String reason) {
        socksError(status, reason);
        h.state = HttpProxyHandler.State.CLOSING;
        h.idle = false;
        h.parsedAt = 0;
        h.endExchange();
        h.ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener((ChannelFutureListener) f -> h.lingerThenClose());
    }

    void socksEnded(long nanos) {
        h.gw.metrics().socksFinished(h.result, nanos);
        AccessLog log = h.gw.accessLog();
        if (log != null) {
            h.listener.accessLog(log.line(
                    h.peer(),
                    h.logUser,
                    Socks5Wire.LOG_METHOD,
                    socksTarget,
                    h.logStatus,
                    h.logError,
                    h.written + h.bytesDown,
                    h.bytesUp,
                    nanos,
                    h.logExplain == null ? Explain.NONE : h.logExplain,
                    h.result));
        }
        ExchangeListener ex = h.gw.exchanges();
        if (ex != null) {
            ex.ended(ExchangeRecord.of(
                            "socks",
                            h.peer(),
                            h.logUser,
                            Socks5Wire.LOG_METHOD,
                            h.logStatus,
                            h.logError,
                            h.logExplain == null ? Explain.NONE : h.logExplain,
                            nanos,
                            h.result,
                            h.logAttempted)
                    // a tunnel: the handshake and every byte relayed; a refused handshake: all the client sent
                    .withBytes(h.tunnelOpened ? h.exchangeIn + h.bytesUp : h.received, h.written + h.bytesDown));
        }
    }
}
