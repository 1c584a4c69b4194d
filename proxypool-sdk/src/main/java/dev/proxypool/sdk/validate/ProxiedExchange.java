package dev.proxypool.sdk.validate;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.AddressMask;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.dial.DialException;
import dev.proxypool.sdk.dial.ForwardingConnection;
import dev.proxypool.sdk.dial.UpstreamDialer;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * One real HTTP {@code GET} through an upstream proxy, under a hard deadline: the shared network
 * step of the validator and the active prober (docs/design.md#probes H9, #collection-pipeline P6).
 *
 * <p>How the request travels: an {@code http://} target through an HTTP(S) proxy is forwarded in
 * absolute form with the proxy's {@code Proxy-Authorization} (the way the gateway forwards plain
 * HTTP, and where a proxy adds or leaks headers); through SOCKS it goes origin-form inside the
 * tunnel. An {@code https://} target always goes through a tunnel ({@code CONNECT} or SOCKS) with
 * TLS to the target inside it, checked against the target's name with the configured trust.
 * Credentials come from the dialer's store; a missing one fails closed before anything is sent,
 * and nothing is ever retried without credentials.
 *
 * <p><b>Deadline.</b> The I/O runs on a fresh virtual thread while the caller waits at most the
 * timeout. Socket timeouts are set from the time left before each step; if the deadline passes
 * anyway (a trickling reply, a dialer timeout longer than the budget) the caller closes the socket,
 * interrupts the thread (socket I/O on a virtual thread is interruptible), waits for it to unwind
 * (immediate for socket I/O; at most 2 s, e.g. for a DNS lookup that ignores interrupts) and reports
 * {@link ExchangeException#deadlineExceeded()}. Each exchange uses its own connection, closed at the end.
 *
 * <p>Thread-safe; one instance serves any number of concurrent exchanges.
 */
public final class ProxiedExchange {

    /** The largest body read; a larger one is a protocol error. */
    public static final int MAX_BODY = 64 * 1024;

    static final String USER_AGENT = "proxypool-validator/1";
    private static final Duration UNWIND = Duration.ofSeconds(2);

    private final UpstreamDialer dialer;
    private final SSLContext targetTls;
    private final Ticker ticker;

    /**
     * @param dialer    dials the proxies (credentials, proxy TLS trust, dial timeouts)
     * @param targetTls trust for {@code https://} targets
     * @param ticker    measures latency and the deadline
     */
    public ProxiedExchange(UpstreamDialer dialer, SSLContext targetTls, Ticker ticker) {
        this.dialer = Objects.requireNonNull(dialer, "dialer");
        this.targetTls = Objects.requireNonNull(targetTls, "target TLS context");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
    }

    /**
     * {@code GET target} through {@code proxy}.
     *
     * @param readBody false to stop after the response head (a probe needs only the status)
     * @throws ExchangeException        classified; nothing is left open
     * @throws IllegalArgumentException for a target that is not {@code http(s)://host[:port]/...}, or an
     *                                  IPv6 target through SOCKS4
     */
    public HttpReply get(Proxy proxy, URI target, Duration timeout, boolean readBody) throws ExchangeException {
        Objects.requireNonNull(proxy, "proxy");
        return run(proxy, Target.of(target), timeout, readBody);
    }

    /** Whether {@code url} is a target this class accepts: {@code http(s)://host[:port]/path}, no user info or fragment. */
    public static boolean isTarget(URI url) {
        try {
            Target.of(url);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** {@code GET target} directly, without a proxy: how the validator learns its own address. */
    public HttpReply getDirect(URI target, Duration timeout) throws ExchangeException {
        return run(null, Target.of(target), timeout, true);
    }

    private HttpReply run(Proxy proxy, Target target, Duration timeout, boolean readBody) throws ExchangeException {
        if (timeout == null || timeout.toMillis() < 1) {
            throw new IllegalArgumentException("exchange timeout must be at least 1 ms, got " + timeout);
        }
        if (proxy != null && !UpstreamDialer.supports(proxy.protocol(), target.host())) {
            throw new IllegalArgumentException("a socks4 proxy cannot reach the IPv6 target " + target.authority());
        }
        long start = ticker.read();
        Attempt a = new Attempt(proxy, target, start + timeout.toNanos(), readBody);
        Thread t = Thread.ofVirtual().name("proxypool-exchange").start(a::run);
        boolean finished;
        try {
            finished = t.join(timeout);
        } catch (InterruptedException e) {
            a.abort(t);
            Thread.currentThread().interrupt();
            throw a.deadline("interrupted");
        }
        if (!finished) {
            a.abort(t);
            throw a.deadline("no answer within " + timeout.toMillis() + " ms");
        }
        return a.outcome(Duration.ofNanos(Math.max(0, ticker.read() - start)));
    }

    /** The I/O of one exchange, on its own thread. */
    private final class Attempt {
        private final Proxy proxy;
        private final Target target;
        private final long deadline;
        private final boolean readBody;
        private volatile ExchangeStep step = ExchangeStep.CREDENTIALS;
        private volatile Socket socket;
        private volatile boolean aborted;
        private int status;
        private List<Map.Entry<String, String>> fields;
        private byte[] body;
        private ExchangeException failure;

        Attempt(Proxy proxy, Target target, long deadline, boolean readBody) {
            this.proxy = proxy;
            this.target = target;
            this.deadline = deadline;
            this.readBody = readBody;
        }

        void run() {
            Socket s = null;
            try {
                String request;
                if (proxy == null) {
                    step = ExchangeStep.CONNECT;
                    s = track(new Socket());
                    s.setTcpNoDelay(true);
                    s.connect(new InetSocketAddress(target.host(), target.port()), left());
                    request = target.originForm();
                } else if (target.https() || isSocks(proxy.protocol())) {
                    step = ExchangeStep.HANDSHAKE; // the dialer reports its own stage on failure
                    s = track(dialer.connect(proxy, target.host(), target.port()));
                    request = target.originForm();
                } else {
                    step = ExchangeStep.CONNECT;
                    ForwardingConnection f = dialer.openForwarding(proxy);
                    s = track(f.socket());
                    request = target.absoluteForm(
                            f.hasProxyAuthorization() ? f.proxyAuthorization().reveal() : null);
                }
                if (target.https()) {
                    step = ExchangeStep.TARGET_TLS;
                    s = track(tls(s));
                }
                step = ExchangeStep.REQUEST;
                s.setSoTimeout(left());
                OutputStream out = s.getOutputStream();
                out.write(ReplyReader.ascii(request));
                out.flush();
                step = ExchangeStep.RESPONSE;
                InputStream in = new BufferedInputStream(s.getInputStream());
                s.setSoTimeout(left());
                ReplyReader.Head h = ReplyReader.head(in);
                status = h.status();
                fields = h.fields();
                if (readBody) {
                    s.setSoTimeout(left());
                    body = ReplyReader.body(in, h, MAX_BODY);
                } else {
                    body = new byte[0];
                }
            } catch (DialException e) {
                failure = new ExchangeException(e.kind(), ExchangeStep.of(e.stage()), false, e.getMessage());
            } catch (IOException e) {
                failure = classify(e);
            } finally {
                if (s != null) {
                    close(s);
                }
            }
        }

        /** Called by the waiting thread when the deadline passed: cut the I/O short. */
        void abort(Thread t) {
            aborted = true;
            Socket s = socket;
            if (s != null) {
                close(s);
            }
            t.interrupt();
            try {
                t.join(UNWIND);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        ExchangeException deadline(String why) {
            ExchangeStep at = step;
            FailureKind kind = at.beforeTunnel() ? FailureKind.CONNECT_TIMEOUT : FailureKind.SLOW_BODY;
            return new ExchangeException(kind, at, true, describe(kind, at, why));
        }

        HttpReply outcome(Duration latency) throws ExchangeException {
            if (failure != null) {
                throw failure;
            }
            return new HttpReply(status, fields, body, latency);
        }

        private Socket track(Socket s) throws SocketException {
            socket = s;
            if (aborted) {
                close(s);
                throw new SocketException("aborted");
            }
            return s;
        }

        private int left() throws SocketTimeoutException {
            long nanos = deadline - ticker.read();
            if (nanos <= 0) {
                throw new SocketTimeoutException("deadline passed");
            }
            return (int) Math.max(1, Math.min(Integer.MAX_VALUE, nanos / 1_000_000));
        }

        private Socket tls(Socket tunnel) throws IOException {
            SSLSocket ssl =
                    (SSLSocket) targetTls.getSocketFactory().createSocket(tunnel, target.host(), target.port(), true);
            SSLParameters p = ssl.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            if (!target.literal()) {
                p.setServerNames(List.of(new SNIHostName(target.host())));
            }
            ssl.setSSLParameters(p);
            ssl.setSoTimeout(left());
            ssl.startHandshake();
            return ssl;
        }

        private ExchangeException classify(IOException e) {
            ExchangeStep at = step;
            FailureKind kind;
            String why;
            if (e instanceof SocketTimeoutException) {
                kind = at.beforeTunnel() ? FailureKind.CONNECT_TIMEOUT : FailureKind.SLOW_BODY;
                why = "timed out";
            } else if (e instanceof ReplyReader.NotHttp) {
                kind = FailureKind.PROTOCOL_ERROR;
                why = e.getMessage(); // our own text, no address
            } else if (e instanceof SSLException) {
                kind = FailureKind.TLS_FAILURE;
                why = "TLS failed (" + e.getClass().getSimpleName() + ")";
            } else if (at == ExchangeStep.CONNECT) {
                kind = FailureKind.CONNECTION_REFUSED;
                why = "connect failed (" + e.getClass().getSimpleName() + ")";
            } else if (e instanceof EOFException) {
                kind = FailureKind.CONNECTION_RESET;
                why = e.getMessage();
            } else {
                kind = FailureKind.CONNECTION_RESET;
                why = "connection failed (" + e.getClass().getSimpleName() + ")";
            }
            return new ExchangeException(kind, at, false, describe(kind, at, why));
        }

        private String describe(FailureKind kind, ExchangeStep at, String why) {
            StringBuilder m = new StringBuilder(160);
            if (proxy != null) {
                m.append(proxy.protocol().wireName())
                        .append(" proxy ")
                        .append(proxy.id())
                        .append(" (")
                        .append(AddressMask.mask(proxy.host()))
                        .append(':')
                        .append(proxy.port())
                        .append(") to ");
            } else {
                m.append("direct to ");
            }
            return m.append(AddressMask.mask(target.host()))
                    .append(':')
                    .append(target.port())
                    .append(": ")
                    .append(kind.wireName())
                    .append(" at ")
                    .append(at.name().toLowerCase(Locale.ROOT))
                    .append(": ")
                    .append(why)
                    .toString();
        }
    }

    private static boolean isSocks(Protocol p) {
        return p == Protocol.SOCKS4 || p == Protocol.SOCKS5;
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** A validated {@code http(s)://} target. */
    record Target(boolean https, String host, int port, String authority, String pathAndQuery, boolean literal) {

        static Target of(URI uri) {
            Objects.requireNonNull(uri, "target URL");
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                throw new IllegalArgumentException("target URL must be http:// or https://, got '" + uri + "'");
            }
            String host = uri.getHost();
            if (host == null || host.isEmpty() || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
                throw new IllegalArgumentException("target URL must be scheme://host[:port]/path without user info or "
                        + "fragment, got '" + uri + "'");
            }
            boolean https = scheme.equals("https");
            int port = uri.getPort() < 0 ? (https ? 443 : 80) : uri.getPort();
            String bare = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            if (uri.getRawQuery() != null) {
                path += "?" + uri.getRawQuery();
            }
            String hostPart = bare.indexOf(':') >= 0 ? "[" + bare + "]" : bare;
            String authority = uri.getPort() < 0 ? hostPart : hostPart + ":" + port;
            boolean literal = bare.indexOf(':') >= 0 || bare.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
            return new Target(https, bare, port, authority, path, literal);
        }

        String originForm() {
            return "GET " + pathAndQuery + " HTTP/1.1\r\n" + commonFields() + "\r\n";
        }

        String absoluteForm(String proxyAuthorization) {
            return "GET http://" + authority + pathAndQuery + " HTTP/1.1\r\n" + commonFields()
                    + (proxyAuthorization != null ? "Proxy-Authorization: " + proxyAuthorization + "\r\n" : "")
                    + "\r\n";
        }

        private String commonFields() {
            return "Host: " + authority + "\r\nUser-Agent: " + USER_AGENT
                    + "\r\nAccept: application/json\r\nCache-Control: no-cache\r\nConnection: close\r\n";
        }
    }
}
