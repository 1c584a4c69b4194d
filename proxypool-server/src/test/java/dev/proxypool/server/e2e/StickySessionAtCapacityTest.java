package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sticky session on a proxy with {@code maxConcurrency: 1}, driven one request after another
 * through the real gateway: the client's next request can arrive before the gateway has given back
 * the capacity of the previous one (the client already has the whole response, or has closed its
 * tunnel). Every request must still succeed, on keep-alive and fresh connections, for plain
 * requests and CONNECT tunnels, with the session in the header or in the username; and the limit
 * must hold: the origin never sees two of the proxy's requests at once.
 */
@Tag("slow")
class StickySessionAtCapacityTest {

    private static final int SEQUENTIAL = 1_000;
    private static final int TIMEOUT_MS = 15_000;

    @TempDir
    static Path dir;

    static FakeOrigin origin;
    static FakeHttpProxy single;
    static ProxyPoolServer server;

    @BeforeAll
    static void start() throws IOException {
        origin = FakeOrigin.start();
        single = FakeHttpProxy.start();
        Files.writeString(
                dir.resolve("inventory.jsonl"),
                "{\"host\": \"127.0.0.1\", \"port\": " + single.port()
                        + ", \"protocol\": \"http\", \"labels\": {\"kind\": \"single\"}, \"maxConcurrency\": 1}\n");
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                clients: [{ name: alice, secret: alice-secret, token: alice-token-0123456789 }]
                security: { allowDestinations: ["127.0.0.0/8"], connectPorts: [%d] }
                providers: [{ name: lab, type: jsonl_inventory, path: inventory.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                health: { active: { enabled: false } }
                routings:
                  - { name: sticky, filter: { labels: { kind: single } }, sticky: { enabled: true } }
                """.formatted(origin.port()));
        server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).start();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        for (AutoCloseable c : new AutoCloseable[] {origin, single}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort
            }
        }
    }

    @Test
    void keepAliveWithTheSessionHeader() throws IOException {
        sequence(Mode.KEEP_ALIVE, Session.header("ka-header"));
    }

    @Test
    void keepAliveWithTheSessionInTheUsername() throws IOException {
        sequence(Mode.KEEP_ALIVE, Session.username("kauser"));
    }

    @Test
    void aNewConnectionPerRequestWithTheSessionHeader() throws IOException {
        sequence(Mode.NEW_CONNECTION, Session.header("nc-header"));
    }

    @Test
    void aNewConnectionPerRequestWithTheSessionInTheUsername() throws IOException {
        sequence(Mode.NEW_CONNECTION, Session.username("ncuser"));
    }

    @Test
    void tunnelsOneAfterAnotherWithTheSessionHeader() throws IOException {
        sequence(Mode.TUNNEL, Session.header("tn-header"));
    }

    @Test
    void tunnelsOneAfterAnotherWithTheSessionInTheUsername() throws IOException {
        sequence(Mode.TUNNEL, Session.username("tnuser"));
    }

    /**
     * Several clients on one session at once: the waiting ones wait for the proxy, they never get
     * it while another holds it.
     */
    @Test
    void concurrentRequestsOfOneSessionNeverExceedTheLimit() throws Exception {
        int threads = 3;
        int each = 15;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Integer>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                boolean tunnel = t % 2 == 1;
                results.add(pool.submit(() -> {
                    List<Integer> statuses = new ArrayList<>();
                    Session s = Session.header("together");
                    try (Client keepAlive = tunnel ? null : Client.open()) {
                        for (int i = 0; i < each; i++) {
                            Response r = tunnel ? tunnelOnce(s, "/slow?ms=20") : keepAlive.get(s, "/slow?ms=20");
                            if (r.status != 200) {
                                assertEquals(503, r.status, r.toString());
                                assertEquals("no_candidate", r.header("x-proxypool-error"), r.toString());
                            }
                            statuses.add(r.status);
                        }
                    }
                    return statuses;
                }));
            }
            int ok = 0;
            for (Future<List<Integer>> f : results) {
                for (int status : f.get(120, TimeUnit.SECONDS)) {
                    ok += status == 200 ? 1 : 0;
                }
            }
            assertTrue(ok >= each, "the waiting requests got the proxy in turn: " + ok + " of " + threads * each);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, origin.maxConcurrentSlow(), "capacity 1 was never exceeded");
        assertCapacityDrains();
    }

    private enum Mode {
        KEEP_ALIVE,
        NEW_CONNECTION,
        TUNNEL
    }

    private void sequence(Mode mode, Session session) throws IOException {
        List<String> failures = new ArrayList<>();
        Set<String> proxies = new HashSet<>();
        Client keepAlive = mode == Mode.KEEP_ALIVE ? Client.open() : null;
        try {
            for (int i = 0; i < SEQUENTIAL; i++) {
                Response r = switch (mode) {
                    case KEEP_ALIVE -> keepAlive.get(session, "/slow?ms=0");
                    case NEW_CONNECTION -> {
                        try (Client c = Client.open()) {
                            yield c.get(session, "/slow?ms=0");
                        }
                    }
                    case TUNNEL -> tunnelOnce(session, "/slow?ms=0");
                };
                if (r.status != 200) {
                    failures.add("#" + i + ": " + r);
                } else if (mode != Mode.TUNNEL || r.tunnelProxy != null) {
                    proxies.add(mode == Mode.TUNNEL ? r.tunnelProxy : r.header("x-proxypool-proxy"));
                }
            }
        } finally {
            if (keepAlive != null) {
                keepAlive.close();
            }
        }
        assertEquals(
                List.of(),
                failures.size() > 10 ? failures.subList(0, 10) : failures,
                failures.size() + " of " + SEQUENTIAL + " requests failed");
        assertEquals(1, proxies.size(), "the session kept its proxy: " + proxies);
        assertEquals(1, origin.maxConcurrentSlow(), "capacity 1 was never exceeded");
        assertCapacityDrains();
    }

    private static void assertCapacityDrains() {
        Await.atMost(Duration.ofSeconds(10))
                .until(
                        "every unit of capacity given back (in flight)",
                        () -> EmbeddedProxyPool.engineOf(server.pool()).inFlight(),
                        n -> n == 0);
    }

    /** One CONNECT to the origin, one request inside it, then the tunnel is closed by the client. */
    private static Response tunnelOnce(Session session, String path) throws IOException {
        try (Client c = Client.open()) {
            String authority = "127.0.0.1:" + origin.port();
            c.send("CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n" + session.headers() + "\r\n");
            Response established = c.readHead(true);
            if (established.status != 200) {
                return established;
            }
            c.send("GET " + path + " HTTP/1.1\r\nHost: " + authority + "\r\nConnection: close\r\n\r\n");
            Response inside = c.readHead(false);
            inside.tunnelProxy = established.header("x-proxypool-proxy");
            return inside;
        }
    }

    /** A session carried in the {@code X-ProxyPool-Session} header or in the username. */
    private record Session(String username, String sessionHeader) {
        static Session header(String id) {
            return new Session("alice", id);
        }

        static Session username(String id) {
            return new Session("alice-session-" + id, null);
        }

        String headers() {
            String basic =
                    Base64.getEncoder().encodeToString((username + ":alice-secret").getBytes(StandardCharsets.UTF_8));
            return "Proxy-Authorization: Basic " + basic + "\r\n"
                    + (sessionHeader == null ? "" : "X-ProxyPool-Session: " + sessionHeader + "\r\n");
        }
    }

    private static final class Response {
        final int status;
        final Map<String, String> headers;
        final String body;
        String tunnelProxy;

        Response(int status, Map<String, String> headers, String body) {
            this.status = status;
            this.headers = headers;
            this.body = body;
        }

        String header(String lowerCaseName) {
            return headers.get(lowerCaseName);
        }

        @Override
        public String toString() {
            return status + " " + headers + " " + body.strip();
        }
    }

    /** A raw HTTP/1.1 client connection to the gateway. */
    private static final class Client implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;

        private Client(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new java.io.BufferedInputStream(socket.getInputStream());
            this.out = socket.getOutputStream();
        }

        static Client open() throws IOException {
            Socket s = new Socket();
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress("127.0.0.1", server.gatewayPort()), TIMEOUT_MS);
            s.setSoTimeout(TIMEOUT_MS);
            return new Client(s);
        }

        Response get(Session session, String path) throws IOException {
            String authority = "127.0.0.1:" + origin.port();
            send("GET http://" + authority + path + " HTTP/1.1\r\nHost: " + authority + "\r\n" + session.headers()
                    + "\r\n");
            return readHead(false);
        }

        void send(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }

        /** Reads a response head and its Content-Length body (none for an established tunnel). */
        Response readHead(boolean connect) throws IOException {
            String statusLine = line();
            if (statusLine == null) {
                throw new IOException("connection closed before a response");
            }
            int status = Integer.parseInt(statusLine.split(" ", 3)[1]);
            Map<String, String> headers = new LinkedHashMap<>();
            for (String l = line(); l != null && !l.isEmpty(); l = line()) {
                int colon = l.indexOf(':');
                headers.put(
                        l.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        l.substring(colon + 1).trim());
            }
            if (connect && status == 200) {
                return new Response(status, headers, "");
            }
            int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
            byte[] body = in.readNBytes(length);
            if (body.length != length) {
                throw new IOException("short body: " + body.length + " of " + length);
            }
            return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
        }

        private String line() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream(64);
            for (int i = 0; i < 16_384; i++) {
                int c = in.read();
                if (c < 0) {
                    return b.size() == 0 ? null : b.toString(StandardCharsets.ISO_8859_1);
                }
                if (c == '\n') {
                    String s = b.toString(StandardCharsets.ISO_8859_1);
                    return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
                }
                b.write(c);
            }
            throw new IOException("line too long");
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
