package dev.proxypool.server.gateway;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;
import javax.net.ssl.SSLContext;

/**
 * A small origin on loopback (JDK HttpServer, HTTP or HTTPS) for the gateway tests:
 * <ul>
 *   <li>{@code /hello}: 200 "hello"</li>
 *   <li>{@code /echo}: the request body back, chunked; {@code X-Echo-Method}, {@code X-Echo-Headers}
 *       (request header names, lower-case, comma-separated)</li>
 *   <li>{@code /count}: reads the body, answers "bytes crc32"; counts {@link #uploadHalf} down at half
 *       of {@link #expectedUpload}</li>
 *   <li>{@code /stream?bytes=N}: N pattern bytes with Content-Length; after half, waits for
 *       {@link #downloadGate}</li>
 *   <li>{@code /chunked}: three chunks</li>
 * </ul>
 */
final class TestOrigin implements AutoCloseable {

    final HttpServer server;
    final AtomicInteger requests = new AtomicInteger();
    volatile long expectedUpload;
    volatile CountDownLatch uploadHalf = new CountDownLatch(1);
    volatile CountDownLatch downloadGate;

    private TestOrigin(HttpServer server) {
        this.server = server;
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/hello", ex -> reply(ex, 200, "hello"));
        server.createContext("/echo", this::echo);
        server.createContext("/count", this::count);
        server.createContext("/stream", this::stream);
        server.createContext("/chunked", this::chunked);
        server.start();
    }

    static TestOrigin http() throws IOException {
        return new TestOrigin(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128));
    }

    static TestOrigin https(SSLContext ctx) throws IOException {
        HttpsServer s = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 128);
        s.setHttpsConfigurator(new HttpsConfigurator(ctx));
        return new TestOrigin(s);
    }

    int port() {
        return server.getAddress().getPort();
    }

    String authority() {
        return "127.0.0.1:" + port();
    }

    URI uri(String path) {
        String scheme = server instanceof HttpsServer ? "https" : "http";
        return URI.create(scheme + "://" + authority() + path);
    }

    private void reply(HttpExchange ex, int status, String body) throws IOException {
        requests.incrementAndGet();
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getRequestBody().readAllBytes();
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    private void echo(HttpExchange ex) throws IOException {
        requests.incrementAndGet();
        TreeSet<String> names = new TreeSet<>();
        ex.getRequestHeaders().keySet().forEach(k -> names.add(k.toLowerCase()));
        ex.getResponseHeaders().add("X-Echo-Method", ex.getRequestMethod());
        ex.getResponseHeaders().add("X-Echo-Headers", String.join(",", names));
        ex.sendResponseHeaders(200, 0);
        try (InputStream in = ex.getRequestBody();
                OutputStream out = ex.getResponseBody()) {
            in.transferTo(out);
        }
    }

    private void count(HttpExchange ex) throws IOException {
        requests.incrementAndGet();
        CRC32 crc = new CRC32();
        long total = 0;
        byte[] buf = new byte[64 * 1024];
        boolean signalled = false;
        try (InputStream in = ex.getRequestBody()) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                crc.update(buf, 0, n);
                total += n;
                if (!signalled && expectedUpload > 0 && total >= expectedUpload / 2) {
                    uploadHalf.countDown();
                    signalled = true;
                }
            }
        }
        byte[] b = (total + " " + crc.getValue()).getBytes(StandardCharsets.US_ASCII);
        ex.sendResponseHeaders(200, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    private void stream(HttpExchange ex) throws IOException {
        requests.incrementAndGet();
        long bytes = Long.parseLong(ex.getRequestURI().getQuery().substring("bytes=".length()));
        ex.sendResponseHeaders(200, bytes);
        byte[] buf = new byte[64 * 1024];
        for (int i = 0; i < buf.length; i++) {
            buf[i] = (byte) (i * 31 + 7);
        }
        try (OutputStream out = ex.getResponseBody()) {
            long sent = 0;
            boolean waited = false;
            while (sent < bytes) {
                if (!waited && sent >= bytes / 2 && downloadGate != null) {
                    out.flush();
                    waited = true;
                    try {
                        if (!downloadGate.await(15, TimeUnit.SECONDS)) {
                            return; // the client never saw half: abort, the test fails on the short body
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                int n = (int) Math.min(buf.length, bytes - sent);
                out.write(buf, 0, n);
                sent += n;
            }
        }
    }

    private void chunked(HttpExchange ex) throws IOException {
        requests.incrementAndGet();
        ex.sendResponseHeaders(200, 0);
        try (OutputStream out = ex.getResponseBody()) {
            for (String part : new String[] {"alpha-", "beta-", "gamma"}) {
                out.write(part.getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
