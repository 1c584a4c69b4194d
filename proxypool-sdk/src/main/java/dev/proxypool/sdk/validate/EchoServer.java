package dev.proxypool.sdk.validate;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;

/**
 * The project's own echo endpoint (docs/api.md#get-v1echo) as a small standalone server:
 * answers {@code GET /v1/echo} with {@code {"ip": "<peer address>", "headers": {...}}} so the
 * validator can see which address a proxy exits from and which headers it adds. Owning the endpoint
 * matters: a third-party echo may change its format, rate-limit, or block proxies, and it would see
 * every validated exit address (docs/design.md#collection-pipeline, P6).
 *
 * <p>Built on the JDK's {@code com.sun.net.httpserver} (no dependency), one virtual thread per
 * exchange; optional TLS for an {@code https://} echo URL. Header names are those the JDK server
 * reports (first letter upper case, the rest lower case), sorted; repeated fields are joined with
 * {@code ", "}. The peer address is the TCP peer, so the endpoint must be reached directly, not
 * through a reverse proxy. {@code HEAD} is answered without a body; other methods get {@code 405},
 * other paths {@code 404}. Thread-safe; {@link #close()} stops it at once.
 */
public final class EchoServer implements AutoCloseable {

    /** The path served. */
    public static final String PATH = "/v1/echo";

    private final HttpServer server;
    private final ExecutorService executor;
    private final boolean tls;
    private final AtomicLong requests = new AtomicLong();

    private EchoServer(Builder b) {
        this.tls = b.tls != null;
        this.executor = Executors.newVirtualThreadPerTaskExecutor();
        try {
            InetSocketAddress at = new InetSocketAddress(b.bind, b.port);
            if (b.tls != null) {
                HttpsServer s = HttpsServer.create(at, b.backlog);
                s.setHttpsConfigurator(new HttpsConfigurator(b.tls));
                server = s;
            } else {
                server = HttpServer.create(at, b.backlog);
            }
        } catch (IOException e) {
            executor.shutdownNow();
            throw new UncheckedIOException("echo server cannot bind " + b.bind.getHostAddress() + ":" + b.port, e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A plain HTTP echo server on {@code 127.0.0.1} and an ephemeral port. */
    public static EchoServer start() {
        return builder().start();
    }

    /** The bound port (the real one when started with port 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The bound address as a literal. */
    public String host() {
        return server.getAddress().getAddress().getHostAddress();
    }

    /** {@code http(s)://host:port/v1/echo}. */
    public URI url() {
        String h = host();
        return URI.create(
                (tls ? "https://" : "http://") + (h.indexOf(':') >= 0 ? "[" + h + "]" : h) + ":" + port() + PATH);
    }

    /** Echo requests answered. */
    public long requests() {
        return requests.get();
    }

    /**
     * The echo body: {@code {"ip": ip, "headers": {name: value, ...}}}, names in the given map's
     * order, repeated values joined with {@code ", "}. Public so that every echo endpoint of the
     * product (this server, the REST listener's {@code /v1/echo}) writes the same JSON.
     */
    public static String json(String ip, Map<String, List<String>> headers) {
        return EchoJson.write(ip, headers);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    @Override
    public String toString() {
        return "EchoServer[" + url() + "]";
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String method = ex.getRequestMethod();
            if (!PATH.equals(ex.getRequestURI().getPath())) {
                send(ex, 404, "text/plain", "not found\n", false);
                return;
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                ex.getResponseHeaders().set("Allow", "GET, HEAD");
                send(ex, 405, "text/plain", "method not allowed\n", false);
                return;
            }
            requests.incrementAndGet();
            Map<String, List<String>> headers = new TreeMap<>(ex.getRequestHeaders());
            ex.getResponseHeaders().set("Cache-Control", "no-store");
            send(
                    ex,
                    200,
                    "application/json",
                    json(peer(ex.getRemoteAddress().getAddress()), headers),
                    method.equals("HEAD"));
        }
    }

    private static void send(HttpExchange ex, int status, String type, String body, boolean head) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        if (head) {
            ex.getResponseHeaders().set("Content-Length", Integer.toString(bytes.length));
            ex.sendResponseHeaders(status, -1);
            return;
        }
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** The peer as a literal, without an IPv6 scope. */
    static String peer(InetAddress a) {
        String s = a.getHostAddress();
        int pct = s.indexOf('%');
        return a instanceof Inet6Address && pct >= 0 ? s.substring(0, pct) : s;
    }

    /** Options of an {@link EchoServer}; {@link #start()} binds it. */
    public static final class Builder {
        private InetAddress bind = InetAddress.getLoopbackAddress();
        private int port;
        private int backlog = 1024;
        private SSLContext tls;

        private Builder() {}

        /** The address to listen on; default loopback (the CLI passes the wildcard address to serve others). */
        public Builder bind(InetAddress address) {
            this.bind = Objects.requireNonNull(address, "bind address");
            return this;
        }

        /** The port; 0 (the default) picks a free one. */
        public Builder port(int p) {
            if (p < 0 || p > 65535) {
                throw new IllegalArgumentException("echo port must be 0..65535, got " + p);
            }
            this.port = p;
            return this;
        }

        /** The TCP accept backlog; default 1024. */
        public Builder backlog(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("echo backlog must be at least 1, got " + n);
            }
            this.backlog = n;
            return this;
        }

        /** Serves HTTPS with this context's key. */
        public Builder tls(SSLContext context) {
            this.tls = Objects.requireNonNull(context, "TLS context");
            return this;
        }

        /** Binds and starts serving. */
        public EchoServer start() {
            return new EchoServer(this);
        }
    }
}
