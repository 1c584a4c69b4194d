package dev.proxypool.sdk.provider;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/** A real HTTP server on 127.0.0.1 serving fake provider feeds; records what it was asked. */
final class FeedServer implements AutoCloseable {

    /** What the server saw of one request. */
    record Seen(String path, URI uri, String authorization) {}

    private final HttpServer server;
    final List<Seen> seen = new CopyOnWriteArrayList<>();

    FeedServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
    }

    /** Serves {@code body} with {@code status} at {@code path}. */
    FeedServer respond(String path, int status, String contentType, String body) {
        return handle(path, ex -> send(ex, status, contentType, body));
    }

    FeedServer json(String path, String body) {
        return respond(path, 200, "application/json", body);
    }

    FeedServer handle(String path, HttpHandler handler) {
        server.createContext(path, ex -> {
            seen.add(new Seen(path, ex.getRequestURI(), ex.getRequestHeaders().getFirst("Authorization")));
            try {
                handler.handle(ex);
            } finally {
                ex.close();
            }
        });
        return this;
    }

    static void send(HttpExchange ex, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
