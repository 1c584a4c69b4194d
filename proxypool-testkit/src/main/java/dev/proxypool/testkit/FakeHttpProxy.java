package dev.proxypool.testkit;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

/**
 * A fake HTTP forward proxy: absolute-form requests ({@code GET http://host:port/path}) and
 * {@code CONNECT host:port} tunnels, optional Basic auth, configurable header behaviour, and a TLS
 * mode in which it is an HTTPS proxy (the client speaks TLS to the proxy, then HTTP inside).
 *
 * <p>Keep-alive: both sides. The client connection serves requests until the client or the origin
 * asks to close; the connection to an origin is kept for the next request to the same host:port
 * on the same client connection. A response delimited by the origin's close, or any error reply
 * of the proxy itself ({@code 400}, {@code 502}, {@code 504}), closes the client connection.
 * A {@code 407} to a forwarded request keeps it open so the client can retry with credentials (a
 * {@code 407} to {@code CONNECT} closes, since tunnel bytes may follow). A {@code CONNECT} turns
 * the connection into a byte tunnel until both ends close.
 *
 * <p>Replies of the proxy itself: missing or wrong credentials → {@code 407} with
 * {@code Proxy-Authenticate: Basic realm="proxypool-testkit"}; target refused or not resolvable →
 * {@code 502}; target connect timeout → {@code 504}; origin-form or unparsable request → {@code 400}.
 * {@link Builder#forceStatus(int)} makes it answer every authorised request with one status.
 */
public final class FakeHttpProxy extends FakeServer {

    /** What the proxy adds to forwarded (absolute-form) requests; tunnels are opaque to it. */
    public enum HeaderBehaviour {
        /** Adds nothing: an elite proxy. */
        CLEAN,
        /** Adds {@code Via: 1.1 proxypool-testkit}: an anonymous proxy that shows it is one. */
        ADD_VIA,
        /** Adds {@code X-Forwarded-For: <client ip>}: a transparent proxy that leaks the client. */
        LEAK_FORWARDED_FOR
    }

    static final String REALM = "proxypool-testkit";
    /** The answer header a {@link Builder#logins} gateway adds to every forwarded answer: the session's exit. */
    public static final String EXIT_IDENTITY = "X-Exit-Identity";

    /** In an {@link Builder#addHeader(String, String)} value: replaced by the client's address. */
    public static final String CLIENT_IP = "{client}";

    private static final Duration TARGET_CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final String expectedAuthorization;
    private final HeaderBehaviour headers;
    private final int forcedStatus;
    private final Map<String, Integer> refusals;
    private final List<String[]> extraHeaders;
    private final BiFunction<String, String, String> logins;
    private final Queue<String> acceptedUsernames = new ConcurrentLinkedQueue<>();
    private final AtomicLong tunnels = new AtomicLong();
    private final AtomicLong forwarded = new AtomicLong();
    private final AtomicLong challenges = new AtomicLong();
    private final AtomicLong withCredentials = new AtomicLong();
    private final AtomicLong requests = new AtomicLong();

    private FakeHttpProxy(Builder b) {
        super(
                b.tls ? "fake-https-proxy" : "fake-http-proxy",
                InetAddress.getLoopbackAddress(),
                b.tls ? TestTls.serverContext() : null,
                b.faults);
        this.expectedAuthorization = b.username == null
                ? null
                : "Basic "
                        + Base64.getEncoder()
                                .encodeToString((b.username + ":" + b.password).getBytes(StandardCharsets.UTF_8));
        this.headers = b.headers;
        this.forcedStatus = b.forcedStatus;
        this.refusals = Map.copyOf(b.refusals);
        this.extraHeaders = List.copyOf(b.extraHeaders);
        this.logins = b.logins;
        outboundFrom(b.outboundFrom);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A plain HTTP proxy without auth, faults or added headers. */
    public static FakeHttpProxy start() {
        return builder().start();
    }

    /** {@link Protocol#HTTPS} in TLS mode, else {@link Protocol#HTTP}. */
    public Protocol protocol() {
        return isTls() ? Protocol.HTTPS : Protocol.HTTP;
    }

    /** This proxy as the core model sees it, without credentials. */
    public Proxy asProxy() {
        return asProxy(CredentialRef.NONE);
    }

    /** This proxy as the core model sees it, with credentials found under {@code ref}. */
    public Proxy asProxy(CredentialRef ref) {
        return Proxy.builder(new ProxyKey(protocol(), host(), port(), ref)).build();
    }

    /** {@code CONNECT} requests answered with 200. */
    public long tunnels() {
        return tunnels.get();
    }

    /** Absolute-form requests forwarded to an origin. */
    public long forwardedRequests() {
        return forwarded.get();
    }

    /** The usernames a {@link Builder#logins} gateway accepted, in order. */
    public List<String> acceptedUsernames() {
        return List.copyOf(acceptedUsernames);
    }

    /** {@code 407} answers sent. */
    public long authChallenges() {
        return challenges.get();
    }

    /** Requests (CONNECT or forwarded, any outcome) received. */
    public long requests() {
        return requests.get();
    }

    /** Requests that carried a {@code Proxy-Authorization} header, right or wrong. */
    public long requestsWithCredentials() {
        return withCredentials.get();
    }

    @Override
    void serve(Connection c) throws IOException {
        Origin origin = new Origin();
        try {
            while (true) {
                HttpHead req = HttpHead.read(c.in());
                if (req == null) {
                    return;
                }
                String[] line;
                try {
                    line = req.requestLine();
                } catch (HttpHead.HttpParseException e) {
                    reply(c, 400, "Bad Request", true);
                    return;
                }
                requests.incrementAndGet();
                if (req.field("Proxy-Authorization") != null) {
                    withCredentials.incrementAndGet();
                }
                String identity = logins == null ? null : identity(req.field("Proxy-Authorization"));
                if ((logins != null && identity == null)
                        || (expectedAuthorization != null
                                && !expectedAuthorization.equals(req.field("Proxy-Authorization")))) {
                    challenges.incrementAndGet();
                    HttpBody.copyRequestBody(req, c.in(), null);
                    c.out()
                            .write(("HTTP/1.1 407 Proxy Authentication Required\r\n"
                                            + "Proxy-Authenticate: Basic realm=\"" + REALM + "\"\r\n"
                                            + "Content-Length: 0\r\n\r\n")
                                    .getBytes(StandardCharsets.ISO_8859_1));
                    if (req.wantsClose(line[2]) || line[0].equals("CONNECT")) {
                        // a CONNECT client may send tunnel bytes right away: do not read them as a request
                        return;
                    }
                    continue;
                }
                if (forcedStatus != 0) {
                    reply(c, forcedStatus, "Forced", true);
                    return;
                }
                if (line[0].equals("CONNECT")) {
                    connect(c, line[1]);
                    return;
                }
                if (!forward(c, req, line, origin, identity)) {
                    return;
                }
            }
        } finally {
            origin.close();
        }
    }

    private void connect(Connection c, String authority) throws IOException {
        String host;
        int port;
        try {
            URI u = new URI("tunnel://" + authority);
            host = u.getHost();
            port = u.getPort();
        } catch (URISyntaxException e) {
            host = null;
            port = -1;
        }
        if (host == null || port < 1) {
            reply(c, 400, "Bad Request", true);
            return;
        }
        int refused = FakeProxyBuilder.refusal(refusals, stripBrackets(host));
        if (refused != 0) {
            reply(c, refused, "Refused", true);
            return;
        }
        Socket target;
        try {
            target = openOutbound(stripBrackets(host), port, TARGET_CONNECT_TIMEOUT);
        } catch (SocketTimeoutException e) {
            reply(c, 504, "Gateway Timeout", true);
            return;
        } catch (ConnectException | UnknownHostException e) {
            reply(c, 502, "Bad Gateway", true);
            return;
        }
        try {
            tunnels.incrementAndGet();
            c.out().write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            Relay.run(c, target);
        } finally {
            outboundClosed(target);
        }
    }

    /** Forwards one absolute-form request; false when the client connection must close. */
    private boolean forward(Connection c, HttpHead req, String[] line, Origin origin, String identity)
            throws IOException {
        URI uri;
        try {
            uri = new URI(line[1]);
        } catch (URISyntaxException e) {
            uri = null;
        }
        if (uri == null || !"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
            HttpBody.copyRequestBody(req, c.in(), null);
            reply(c, 400, "Bad Request", true);
            return false;
        }
        String host = stripBrackets(uri.getHost());
        int port = uri.getPort() < 0 ? 80 : uri.getPort();
        int refused = FakeProxyBuilder.refusal(refusals, host);
        if (refused != 0) {
            HttpBody.copyRequestBody(req, c.in(), null);
            reply(c, refused, "Refused", true);
            return false;
        }
        Socket s;
        try {
            s = origin.socketFor(host, port);
        } catch (SocketTimeoutException e) {
            reply(c, 504, "Gateway Timeout", true);
            return false;
        } catch (IOException e) {
            reply(c, 502, "Bad Gateway", true);
            return false;
        }
        forwarded.incrementAndGet();
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path += "?" + uri.getRawQuery();
        }
        List<String[]> fields = new ArrayList<>();
        boolean hasHost = false;
        for (String[] f : req.fields()) {
            String n = f[0];
            if (n.equalsIgnoreCase("Proxy-Authorization") || n.equalsIgnoreCase("Proxy-Connection")) {
                continue;
            }
            hasHost |= n.equalsIgnoreCase("Host");
            fields.add(f);
        }
        if (!hasHost) {
            fields.add(new String[] {"Host", uri.getRawAuthority()});
        }
        switch (headers) {
            case CLEAN -> {}
            case ADD_VIA -> fields.add(new String[] {"Via", "1.1 " + REALM});
            case LEAK_FORWARDED_FOR -> fields.add(new String[] {"X-Forwarded-For", c.peerAddress()});
        }
        for (String[] h : extraHeaders) {
            fields.add(new String[] {h[0], h[1].replace(CLIENT_IP, c.peerAddress())});
        }
        var toOrigin = s.getOutputStream();
        toOrigin.write(new HttpHead(line[0] + " " + path + " " + line[2], fields).toBytes());
        HttpBody.copyRequestBody(req, c.in(), toOrigin);
        toOrigin.flush();
        InputStream fromOrigin = origin.input();
        HttpHead resp = HttpHead.read(fromOrigin);
        if (resp == null) {
            origin.close();
            reply(c, 502, "Bad Gateway", true);
            return false;
        }
        if (identity != null) {
            List<String[]> answer = new ArrayList<>(resp.fields());
            answer.add(new String[] {EXIT_IDENTITY, identity});
            resp = new HttpHead(resp.startLine(), answer);
        }
        c.out().write(resp.toBytes());
        boolean reusable = HttpBody.copyResponseBody(line[0], resp, fromOrigin, c.out());
        boolean close = !reusable || req.wantsClose(line[2]) || resp.hasToken("Connection", "close");
        if (close) {
            origin.close();
        }
        return !close;
    }

    /** The login's exit identity, or null when the login check refuses it (or there is none). */
    private String identity(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        String decoded;
        try {
            decoded = new String(
                    Base64.getDecoder().decode(authorization.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return null;
        }
        int colon = decoded.indexOf(':');
        String user = colon < 0 ? decoded : decoded.substring(0, colon);
        String pass = colon < 0 ? "" : decoded.substring(colon + 1);
        String id = logins.apply(user, pass);
        if (id != null) {
            acceptedUsernames.add(user);
        }
        return id;
    }

    private static void reply(Connection c, int status, String reason, boolean close) throws IOException {
        c.out()
                .write(("HTTP/1.1 " + status + " " + reason + "\r\nContent-Length: 0\r\n"
                                + (close ? "Connection: close\r\n" : "") + "\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String stripBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** The kept-alive origin connection of one client connection. */
    private final class Origin {
        private Socket socket;
        private InputStream input;
        private String key;

        Socket socketFor(String host, int port) throws IOException {
            String k = host + ":" + port;
            if (socket != null && k.equals(key) && !socket.isClosed()) {
                return socket;
            }
            close();
            socket = openOutbound(host, port, TARGET_CONNECT_TIMEOUT);
            input = new BufferedInputStream(socket.getInputStream());
            key = k;
            return socket;
        }

        InputStream input() {
            return input;
        }

        void close() {
            if (socket != null) {
                outboundClosed(socket);
                socket = null;
                input = null;
                key = null;
            }
        }
    }

    /** Options of a {@link FakeHttpProxy}; {@link #start()} binds and starts it. */
    public static final class Builder extends FakeProxyBuilder<Builder> {

        @Override
        Builder self() {
            return this;
        }

        private String username;
        private String password;
        private HeaderBehaviour headers = HeaderBehaviour.CLEAN;
        private boolean tls;
        private int forcedStatus;
        private final List<String[]> extraHeaders = new ArrayList<>();
        private BiFunction<String, String, String> logins;

        private Builder() {}

        /**
         * A rotating gateway: {@code identity} maps each login (decoded username and password) to
         * the session's exit identity, or to null for a login the vendor's grammar refuses ({@code
         * 407}). Forwarded answers carry the identity in {@link #EXIT_IDENTITY}.
         */
        public Builder logins(BiFunction<String, String, String> identity) {
            this.logins = Objects.requireNonNull(identity, "identity");
            return this;
        }

        /**
         * Adds a header to every forwarded request, after the {@link HeaderBehaviour}'s; {@link #CLIENT_IP}
         * in the value becomes the client's address, e.g. {@code addHeader("Forwarded", "for=" + CLIENT_IP)}
         * or {@code addHeader("X-Real-IP", CLIENT_IP)} for the other ways a proxy leaks.
         */
        public Builder addHeader(String name, String value) {
            if (name == null
                    || !name.matches("[A-Za-z0-9-]+")
                    || value == null
                    || value.indexOf('\r') >= 0
                    || value.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("addHeader needs a token name and a one-line value, got " + name);
            }
            extraHeaders.add(new String[] {name, value});
            return this;
        }

        /** Requires {@code Proxy-Authorization: Basic} with these credentials. */
        public Builder basicAuth(String username, String password) {
            if (username == null || username.isEmpty() || username.indexOf(':') >= 0 || password == null) {
                throw new IllegalArgumentException("basicAuth needs a non-empty username without ':' and a password");
            }
            this.username = username;
            this.password = password;
            return this;
        }

        public Builder headers(HeaderBehaviour behaviour) {
            this.headers = Objects.requireNonNull(behaviour, "headers");
            return this;
        }

        /** An HTTPS proxy: TLS with the test kit's certificate ({@link TestTls}). */
        public Builder tls() {
            this.tls = true;
            return this;
        }

        /** Answers every authorised request (CONNECT or forward) with this status and closes. */
        public Builder forceStatus(int status) {
            if (status < 200 || status > 599) {
                throw new IllegalArgumentException("forceStatus must be 200..599, got " + status);
            }
            this.forcedStatus = status;
            return this;
        }

        public FakeHttpProxy start() {
            FakeHttpProxy p = new FakeHttpProxy(this);
            p.begin();
            return p;
        }
    }
}
