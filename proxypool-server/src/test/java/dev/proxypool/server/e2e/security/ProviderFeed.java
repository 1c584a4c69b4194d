package dev.proxypool.server.e2e.security;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A vendor's proxy feed on loopback ({@code http_json_feed}): {@code GET /feed} answers one proxy
 * record to {@code Authorization: Bearer <token>} and {@code 401} to anything else.
 */
final class ProviderFeed implements AutoCloseable {

    private final HttpServer server;
    private final AtomicInteger authorized = new AtomicInteger();

    private ProviderFeed(String token, int proxyPort) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        byte[] expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
        byte[] body = ("[{\"host\": \"127.0.0.1\", \"port\": " + proxyPort + ", \"protocol\": \"http\"}]")
                .getBytes(StandardCharsets.UTF_8);
        server.createContext("/feed", exchange -> answer(exchange, expected, body));
        server.start();
    }

    static ProviderFeed start(String token, int proxyPort) {
        try {
            return new ProviderFeed(token, proxyPort);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void answer(HttpExchange exchange, byte[] expected, byte[] body) throws IOException {
        try (exchange) {
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            if (auth == null || !MessageDigest.isEqual(expected, auth.getBytes(StandardCharsets.UTF_8))) {
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            authorized.incrementAndGet();
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        }
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/feed";
    }

    int authorizedFetches() {
        return authorized.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
