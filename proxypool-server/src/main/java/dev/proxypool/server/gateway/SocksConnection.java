package dev.proxypool.server.gateway;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.routing.RetryRule;
import dev.proxypool.server.access.AttemptedUser;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * One client connection on the SOCKS5 listener ({@code server.socksPort}): the RFC 1928 handshake
 * with RFC 1929 username/password, then exactly what a {@code CONNECT host:port} on the HTTP
 * listener does: the same {@link ProxyAuthenticator} (the credentials are handed to it as a
 * {@code Proxy-Authorization: Basic} value, so username options such as
 * {@code alice-session-s1-country-us} work unchanged), the same {@link GatewayEngine} route
 * (rate limit, destination policy, routing, sticky session, capacity), the same {@link Tunnel},
 * metrics ({@code kind=socks}) and access log line ({@code method=SOCKS5}).
 *
 * <p>Protocol choices (as Dante and gost behave): only {@code CONNECT} (BIND and UDP ASSOCIATE get
 * {@value #REP_COMMAND_NOT_SUPPORTED}); username/password is chosen whenever the client offers it,
 * "no authentication" only when the client does not offer it and the gateway admits anonymous
 * clients; no acceptable method gets {@code 0xFF} and a close. A SOCKS4 client gets a SOCKS4
 * "rejected" reply, anything else that is not version 5 a plain close. Domain names go to the
 * engine unresolved (the upstream resolves them, as for CONNECT). A tunnel that cannot be opened is
 * retried on another proxy before the client hears anything, within the gateway's attempt ceiling
 * and the routing's retry policy.
 *
 * <p>Limits: the whole handshake (greeting, credentials, request) must arrive within
 * {@code server.firstRequestTimeout} of the connection's accept ({@link FirstRequestDeadline}), else the
 * connection is closed;
 * every field is length-prefixed by at most one byte, so nothing grows beyond 255 bytes.
 */
final class SocksConnection implements ServedConnection {

    private static final System.Logger LOG = System.getLogger(SocksConnection.class.getName());

    static final int VERSION = 5;
    static final int METHOD_NONE = 0x00;
    static final int METHOD_USER_PASSWORD = 0x02;
    static final int NO_ACCEPTABLE_METHOD = 0xFF;
    static final int AUTH_VERSION = 0x01;
    static final int CMD_CONNECT = 0x01;
    static final int ATYP_IPV4 = 0x01;
    static final int ATYP_DOMAIN = 0x03;
    static final int ATYP_IPV6 = 0x04;
    static final int REP_SUCCEEDED = 0x00;
    static final int REP_GENERAL_FAILURE = 0x01;
    static final int REP_NOT_ALLOWED = 0x02;
    static final int REP_HOST_UNREACHABLE = 0x04;
    static final int REP_CONNECTION_REFUSED = 0x05;
    static final int REP_TTL_EXPIRED = 0x06;
    static final int REP_COMMAND_NOT_SUPPORTED = 0x07;
    static final int REP_ADDRESS_TYPE_NOT_SUPPORTED = 0x08;

    /** The access log's {@code method} for SOCKS5 tunnels. */
    static final String LOG_METHOD = "SOCKS5";

    /** SOCKS4 "request rejected or failed", the answer to a SOCKS4 client. */
    private static final byte[] SOCKS4_REJECTED = {0, 0x5B, 0, 0, 0, 0, 0, 0};

    private final Gateway gw;
    private final GatewayConfig cfg;
    private final ClientChannel ch;
    private final WireReader in;
    private final WireWriter out;
    private final AccessLog accessLog;
    private final ExchangeListener exchanges;
    private final byte[] field = new byte[255];
    /** The deadline from accept to the end of the handshake (greeting, credentials, request). */
    private final FirstRequestDeadline first;

    private volatile boolean idle = true;
    private boolean lingerOnClose;
    private boolean buffersFree = true;

    // what the metrics and the access log say about this connection, once its first byte arrived
    private boolean started;
    private long t0;
    private ExchangeResult result = ExchangeResult.ABORTED;
    private String logUser;
    private String logAttempted; // the username a refused login named (request log only, never the password)
    private String logTarget;
    private int logStatus;
    private String logError;
    private Explain logExplain = Explain.NONE;
    private long logDown;
    private long logUp;
    /** Bytes of the handshake, counted when the tunnel starts (it counts what follows); -1 before. */
    private long handshakeIn = -1;

    /** What the handshake asked for. */
    private record Request(String client, HeaderLookup headers, RequestTarget target) {}

    SocksConnection(Gateway gw, ClientChannel ch, FirstRequestDeadline first) {
        this.gw = gw;
        this.first = first;
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
    }

    @Override
    public boolean run(Runnable ended) {
        try {
            serve();
        } catch (IOException e) {
            // the client went away or timed out: nothing to answer
        } catch (RuntimeException e) {
            Gateway.logHandlerDefect(LOG, "socks", e);
        } finally {
            idle = false;
            if (started) {
                long nanos = gw.ticker().read() - t0;
                gw.metrics().socksFinished(result, nanos);
                if (accessLog != null) {
                    accessLog.write(
                            ch.peer(),
                            logUser,
                            LOG_METHOD,
                            logTarget,
                            logStatus,
                            logError,
                            out.written() + logDown,
                            logUp,
                            nanos,
                            logExplain,
                            result);
                }
                if (exchanges != null) {
                    exchanges.ended(ExchangeRecord.of(
                                    "socks",
                                    ch.peer(),
                                    logUser,
                                    LOG_METHOD,
                                    logStatus,
                                    logError,
                                    logExplain,
                                    nanos,
                                    result,
                                    logAttempted)
                            .withBytes(
                                    handshakeIn >= 0 ? handshakeIn + logUp : in.consumed() + in.buffered(),
                                    out.written() + logDown));
                }
            }
            gw.closeConnection(ch, lingerOnClose, in, out, buffersFree);
        }
        return false; // SOCKS5 tunnels are relayed with this thread waiting: never handed over
    }

    private void serve() throws IOException {
        long accepted = gw.ticker().read();
        long deadline = first.deadline();
        Request request;
        try {
            // the first byte: under the first-request deadline, which aborts the connection, with no read
            // timeout; the rest of the handshake with timed reads up to the same deadline
            boolean guarded = first.guarding();
            if (guarded) {
                ch.readTimeout(0);
            } else {
                in.deadline(gw.ticker(), deadline, ch::readTimeout);
            }
            if (!in.fill()) {
                return; // closed without a byte: nothing to log
            }
            in.deadline(gw.ticker(), deadline, ch::readTimeout);
            idle = false;
            started = true;
            t0 = accepted;
            gw.metrics().started(true);
            request = handshake();
            if (!first.met()) {
                return; // aborted by the deadline just as the handshake completed
            }
        } catch (WireReader.HeadTimeoutException e) {
            if (started && first.met()) {
                result = ExchangeResult.BAD_REQUEST;
                gw.metrics().connectionClosed(ClosedReason.LISTENER_SOCKS, ClosedReason.FIRST_REQUEST_TIMEOUT);
                error(408, GatewayErrors.REQUEST_TIMEOUT);
            }
            return;
        } catch (PeerIOException e) {
            result = ExchangeResult.BAD_REQUEST; // truncated: the client closed inside the handshake
            error(400, GatewayErrors.BAD_REQUEST);
            return;
        } finally {
            in.clearDeadline();
        }
        if (request != null) {
            ch.readTimeout(cfg.ioTimeoutMillis());
            connect(request);
        }
    }

    // ---------------------------------------------------------------- handshake

    /** The handshake; null when it ended in a refusal that was already answered. */
    private Request handshake() throws IOException {
        int version = u8();
        if (version != VERSION) {
            if (version == 4) {
                out.write(SOCKS4_REJECTED, 0, SOCKS4_REJECTED.length);
                out.flush();
            }
            return badRequest();
        }
        int methods = u8();
        if (methods == 0) {
            return refuseMethod(ExchangeResult.BAD_REQUEST, 400, GatewayErrors.BAD_REQUEST);
        }
        boolean userPassword = false;
        boolean none = false;
        read(methods);
        for (int i = 0; i < methods; i++) {
            userPassword |= (field[i] & 0xFF) == METHOD_USER_PASSWORD;
            none |= (field[i] & 0xFF) == METHOD_NONE;
        }
        String client;
        HeaderLookup headers;
        if (userPassword) {
            writeMethod(METHOD_USER_PASSWORD);
            String authorization = credentials();
            client = authorization == null ? null : gw.authenticator().authenticate(authorization);
            logUser = client;
            if (client == null) {
                logAttempted = AttemptedUser.of(authorization);
                out.writeByte(AUTH_VERSION);
                out.writeByte(0x01);
                out.flush();
                result = ExchangeResult.AUTH_REQUIRED;
                return closing(407, GatewayErrors.AUTH_REQUIRED);
            }
            out.writeByte(AUTH_VERSION);
            out.writeByte(0x00);
            out.flush();
            headers = name -> name.equalsIgnoreCase("Proxy-Authorization") ? authorization : null;
        } else {
            client = none ? gw.authenticator().authenticate(null) : null;
            if (client == null) { // credentials required, or no method we know offered
                return refuseMethod(ExchangeResult.AUTH_REQUIRED, 407, GatewayErrors.AUTH_REQUIRED);
            }
            logUser = client;
            writeMethod(METHOD_NONE);
            headers = HeaderLookup.NONE;
        }
        return request(client, headers);
    }

    /** Reads the RFC 1929 sub-negotiation; the {@code Basic} value it amounts to, or null when malformed. */
    private String credentials() throws IOException {
        int version = u8();
        int userLength = u8();
        read(userLength);
        String user = new String(field, 0, userLength, StandardCharsets.UTF_8);
        int passwordLength = u8();
        read(passwordLength);
        // the secret lives in this string for the authenticator only; it is never logged
        String password = new String(field, 0, passwordLength, StandardCharsets.UTF_8);
        Arrays.fill(field, (byte) 0);
        if (version != AUTH_VERSION || userLength == 0 || user.indexOf(':') >= 0) {
            return null;
        }
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private Request request(String client, HeaderLookup headers) throws IOException {
        int version = u8();
        int command = u8();
        u8(); // RSV: ignored, as every server does
        int type = u8();
        if (version != VERSION) {
            return reply(REP_GENERAL_FAILURE, 400, GatewayErrors.BAD_REQUEST, ExchangeResult.BAD_REQUEST);
        }
        String host;
        switch (type) {
            case ATYP_IPV4 -> {
                read(4);
                host = (field[0] & 0xFF) + "." + (field[1] & 0xFF) + "." + (field[2] & 0xFF) + "." + (field[3] & 0xFF);
            }
            case ATYP_IPV6 -> {
                read(16);
                host = InetAddress.getByAddress(Arrays.copyOf(field, 16)).getHostAddress();
            }
            case ATYP_DOMAIN -> {
                int length = u8();
                read(length);
                host = new String(field, 0, length, StandardCharsets.ISO_8859_1);
            }
            default -> {
                return reply(
                        REP_ADDRESS_TYPE_NOT_SUPPORTED, 400, GatewayErrors.BAD_REQUEST, ExchangeResult.BAD_REQUEST);
            }
        }
        int port = u8() << 8 | u8();
        if (command != CMD_CONNECT) {
            return reply(REP_COMMAND_NOT_SUPPORTED, 400, GatewayErrors.UNSUPPORTED_METHOD, ExchangeResult.BAD_REQUEST);
        }
        if (port == 0) {
            return reply(REP_NOT_ALLOWED, 400, GatewayErrors.BAD_CONNECT_TARGET, ExchangeResult.BAD_REQUEST);
        }
        RequestTarget target;
        try {
            target = RequestTarget.connect((host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port);
        } catch (WireException e) { // an empty name or one with characters no host name has
            return reply(REP_HOST_UNREACHABLE, 400, GatewayErrors.BAD_CONNECT_TARGET, ExchangeResult.BAD_REQUEST);
        }
        logTarget = target.authority();
        return new Request(client, headers, target);
    }

    // ---------------------------------------------------------------- the tunnel

    private void connect(Request r) throws IOException {
        RequestTarget t = r.target();
        List<String> tried = List.of();
        int failure = REP_GENERAL_FAILURE;
        boolean timeout = false;
        for (int attempt = 1; ; attempt++) {
            if (gw.stopping()) {
                reply(REP_GENERAL_FAILURE, 503, GatewayErrors.SHUTTING_DOWN, ExchangeResult.REJECTED);
                return;
            }
            RouteDecision d = gw.engine()
                    .route(new RouteRequest(
                            r.client(), t.host(), t.port(), "CONNECT", true, r.headers(), attempt, tried));
            switch (d) {
                case RouteDecision.Rejected rejected -> {
                    if (attempt > 1) { // nothing left to retry on: report the failure we had
                        upstreamFailed(failure, timeout);
                        return;
                    }
                    logExplain = new Explain("none", "none", rejected.routing(), 0);
                    reply(rejectionReply(rejected), rejected.status(), rejected.reason(), ExchangeResult.REJECTED);
                    return;
                }
                case UpstreamAttempt a -> {
                    logExplain = Explain.of(a, attempt);
                    UpstreamLink link = null;
                    FailureKind kind = null;
                    try {
                        link = a.open(false);
                        if (link.mode() != UpstreamLink.Mode.TUNNEL) {
                            kind = FailureKind.PROTOCOL_ERROR;
                        }
                    } catch (IOException e) {
                        kind = GatewayConnection.dialFailure(e);
                        failure = e instanceof UnknownHostException ? REP_HOST_UNREACHABLE : failureReply(kind);
                    }
                    if (kind == null) {
                        tunnel(a, link);
                        return;
                    }
                    if (link != null) {
                        link.close();
                        failure = REP_GENERAL_FAILURE;
                    }
                    a.complete(AttemptOutcome.failure(kind));
                    timeout = kind == FailureKind.CONNECT_TIMEOUT;
                    if (!RetryRule.retriesTunnel(kind, attempt, cfg.maxAttempts())) {
                        upstreamFailed(failure, timeout);
                        return;
                    }
                    tried = RetryRule.excluding(tried, a.proxyId());
                    gw.metrics().retried();
                }
            }
        }
    }

    private void tunnel(UpstreamAttempt a, UpstreamLink link) throws IOException {
        AttemptOutcome outcome = AttemptOutcome.ABANDONED;
        try {
            out.writeByte(VERSION);
            out.writeByte(REP_SUCCEEDED);
            out.writeByte(0);
            writeUnspecifiedAddress();
            out.flush();
            outcome = AttemptOutcome.SUCCESS; // established: from here on it is never replayed
            result = ExchangeResult.OK;
            logStatus = 200;
            handshakeIn = in.consumed(); // the tunnel counts what follows (drained bytes too)
            // the connection's own buffers carry the tunnel: `in` is drained into it first, `out` is flushed
            Tunnel tunnel = new Tunnel(
                    ch, in, link, cfg.tunnelIdleTimeoutMillis(), gw.ticker(), gw.tunnelWatchdog(), out.buffer());
            buffersFree = false;
            tunnel.run();
            buffersFree = tunnel.ended();
            logDown = tunnel.bytesDown();
            logUp = tunnel.bytesUp();
            if (tunnel.upstreamBroke()) { // never replayed, but the proxy that reset it is told
                outcome = AttemptOutcome.failure(FailureKind.CONNECTION_RESET);
            }
        } finally {
            link.close();
            a.complete(outcome);
        }
    }

    private void upstreamFailed(int reply, boolean timeout) throws IOException {
        reply(
                reply,
                timeout ? 504 : 502,
                timeout ? GatewayErrors.UPSTREAM_TIMEOUT : GatewayErrors.UPSTREAM_FAILED,
                ExchangeResult.UPSTREAM_FAILED);
    }

    /** The SOCKS reply for an engine's refusal. */
    static int rejectionReply(RouteDecision.Rejected r) {
        return r.status() == 403 || r.status() == 429 ? REP_NOT_ALLOWED : REP_GENERAL_FAILURE;
    }

    /** The SOCKS reply for a tunnel that could not be opened. */
    static int failureReply(FailureKind kind) {
        return switch (kind) {
            case CONNECT_TIMEOUT, SLOW_BODY -> REP_TTL_EXPIRED;
            case CONNECTION_REFUSED -> REP_CONNECTION_REFUSED;
            case UPSTREAM_UNREACHABLE -> REP_HOST_UNREACHABLE;
            default -> REP_GENERAL_FAILURE;
        };
    }

    // ---------------------------------------------------------------- answers

    /** Answers a request with a failure reply and closes; {@code status} and {@code reason} are for the log. */
    private Request reply(int reply, int status, String reason, ExchangeResult r) throws IOException {
        out.writeByte(VERSION);
        out.writeByte(reply);
        out.writeByte(0);
        writeUnspecifiedAddress();
        out.flush();
        result = r;
        return closing(status, reason);
    }

    /** BND.ADDR and BND.PORT: 0.0.0.0:0 (the upstream's socket is not the client's business). */
    private void writeUnspecifiedAddress() throws IOException {
        out.writeByte(ATYP_IPV4);
        for (int i = 0; i < 6; i++) {
            out.writeByte(0);
        }
    }

    private void writeMethod(int method) throws IOException {
        out.writeByte(VERSION);
        out.writeByte(method);
        out.flush();
    }

    private Request refuseMethod(ExchangeResult r, int status, String reason) throws IOException {
        writeMethod(NO_ACCEPTABLE_METHOD);
        result = r;
        return closing(status, reason);
    }

    private Request badRequest() {
        result = ExchangeResult.BAD_REQUEST;
        return closing(400, GatewayErrors.BAD_REQUEST);
    }

    private Request closing(int status, String reason) {
        error(status, reason);
        lingerOnClose = true; // the reply must not be destroyed by a reset
        return null;
    }

    private void error(int status, String reason) {
        logStatus = status;
        logError = reason;
        gw.metrics().error(reason);
    }

    // ---------------------------------------------------------------- reading

    private int u8() throws IOException {
        need(1);
        in.read(field, 0, 1);
        return field[0] & 0xFF;
    }

    /** Reads exactly {@code n} (at most 255) bytes into {@link #field}, under the handshake deadline. */
    private void read(int n) throws IOException {
        need(n);
        if (n > 0) {
            in.read(field, 0, n);
        }
    }

    private void need(int n) throws IOException {
        while (in.buffered() < n) {
            if (!in.fill()) {
                throw in.unexpectedEnd("the client closed inside the SOCKS handshake");
            }
        }
    }
}
