package dev.proxypool.cli.demo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.proxypool.sdk.validate.EchoServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

/**
 * The demo's origin, the site requests through the gateway reach: the JDK's HTTP server on
 * {@code 127.0.0.1}, plain or HTTPS. {@code GET /echo} answers what the product's own echo endpoint
 * answers ({@link EchoServer#json}: the caller's address and the headers it sent, so a request
 * through the gateway shows which proxy it left from and that no {@code X-ProxyPool-*} field
 * leaked); {@code /} is a short page; anything else {@code 404}.
 */
public final class DemoOrigin implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor;
    private final boolean tls;

    private DemoOrigin(SSLContext tlsContext) {
        this.tls = tlsContext != null;
        InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try {
            if (tlsContext == null) {
                server = HttpServer.create(at, 0);
            } else {
                HttpsServer https = HttpsServer.create(at, 0);
                https.setHttpsConfigurator(new HttpsConfigurator(tlsContext));
                server = https;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("demo origin: cannot listen on 127.0.0.1", e);
        }
        executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        server.createContext("/", this::answer);
        server.start();
    }

    /** A plain HTTP origin. */
    public static DemoOrigin http() {
        return new DemoOrigin(null);
    }

    /** An HTTPS origin serving the key of {@code context} (see {@link DemoTls}). */
    public static DemoOrigin https(SSLContext context) {
        if (context == null) {
            throw new IllegalArgumentException("an HTTPS demo origin needs a TLS context");
        }
        return new DemoOrigin(context);
    }

    /** The port it listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** {@code http(s)://127.0.0.1:port} followed by {@code path}. */
    public String url(String path) {
        return (tls ? "https" : "http") + "://127.0.0.1:" + port() + path;
    }

    /** {@link #url(String)} as a URI. */
    public URI uri(String path) {
        return URI.create(url(path));
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.getRequestBody().readAllBytes();
            if (path.equals("/echo")) {
                String ip = exchange.getRemoteAddress().getAddress().getHostAddress();
                send(
                        exchange,
                        200,
                        "application/json",
                        EchoServer.json(ip, new TreeMap<>(exchange.getRequestHeaders())),
                        head);
            } else if (path.equals("/")) {
                send(exchange, 200, "text/plain", "proxypool demo origin: try /echo\n", head);
            } else {
                send(exchange, 404, "text/plain", "not found: try /echo\n", head);
            }
        }
    }

    /** The answer; a {@code HEAD} gets the head alone (no length: the JDK server sends none without a body). */
    private static void send(HttpExchange exchange, int status, String type, String body, boolean head)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        var fields = exchange.getResponseHeaders();
        fields.set("Content-Type", type);
        fields.set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            exchange.getResponseBody().write(bytes);
        }
    }

    /** Stops at once. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
