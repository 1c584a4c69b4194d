package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.e2e.security.LogCapture;
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
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code server.accessLog}: with it on, a 407, a 403 (destination policy), a 200 and a CONNECT
 * tunnel each leave exactly one line on {@code dev.proxypool.access} with the expected fields, and
 * neither the right nor a wrong password, nor the upstream proxy's address, appears in any log
 * record; with it off (the default), no line.
 */
class AccessLogTest {

    private static final String LOGGER = "dev.proxypool.access";
    private static final String PASSWORD = "canary-pass-5c1e0a77";
    private static final String WRONG = "canary-wrong-9d2b44f1";

    @TempDir
    static Path dir;

    static FakeOrigin origin;
    static FakeHttpProxy proxy;
    static ProxyPoolServer on;
    static ProxyPoolServer off;

    @BeforeAll
    static void start() throws IOException {
        origin = FakeOrigin.start();
        proxy = FakeHttpProxy.start();
        Files.writeString(
                dir.resolve("inventory.jsonl"),
                "{\"host\": \"127.0.0.1\", \"port\": " + proxy.port()
                        + ", \"protocol\": \"http\", \"labels\": {\"kind\": \"lab\"}}\n");
        on = ProxyPoolServer.builder(ConfigLoader.load(config("on.yaml", "accessLog: true, "), Map.of()))
                .start();
        off = ProxyPoolServer.builder(ConfigLoader.load(config("off.yaml", ""), Map.of()))
                .start();
    }

    private static Path config(String name, String accessLog) throws IOException {
        Path cfg = dir.resolve(name);
        Files.writeString(cfg, """
                server: { %shost: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                clients: [{ name: alice, secret: %s }]
                security: { allowDestinations: ["127.0.0.0/8"], connectPorts: [%d] }
                providers: [{ name: lab, type: jsonl_inventory, path: inventory.jsonl }]
                upstreams: [{ name: lab, provider: lab, validate: false }]
                health: { active: { enabled: false } }
                """.formatted(accessLog, PASSWORD, origin.port()));
        return cfg;
    }

    @AfterAll
    static void stop() {
        for (AutoCloseable c : new AutoCloseable[] {on, off, origin, proxy}) {
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
    void everyRequestAndTunnelLeavesOneLineWithoutSecrets() throws Exception {
        String target = "127.0.0.1:" + origin.port();
        try (LogCapture logs = LogCapture.install()) {
            // 407: a wrong password
            try (Raw c = Raw.open(on)) {
                assertEquals(407, c.get("http://" + target + "/echo", "alice", WRONG));
            }
            Map<String, String> denied = awaitLine(logs, 1);
            assertEquals("407", denied.get("status"));
            assertEquals("auth_required", denied.get("error"));
            assertEquals("-", denied.get("user"));
            assertEquals("GET", denied.get("method"));
            assertEquals(target, denied.get("target"));
            assertEquals("-", denied.get("proxy"));
            assertEquals("0", denied.get("attempts"));
            assertEquals("127.0.0.1", denied.get("client"));

            // 403: a destination outside security.allowDestinations
            try (Raw c = Raw.open(on)) {
                assertEquals(403, c.get("http://169.254.169.254/latest/meta-data/", "alice", PASSWORD));
            }
            Map<String, String> forbidden = awaitLine(logs, 2);
            assertEquals("403", forbidden.get("status"));
            assertEquals("destination_denied", forbidden.get("error"));
            assertEquals("alice", forbidden.get("user"));
            assertEquals("169.254.169.254:80", forbidden.get("target"));
            assertEquals("-", forbidden.get("proxy"));

            // 200 through the upstream proxy
            String proxyId;
            try (Raw c = Raw.open(on)) {
                assertEquals(200, c.get("http://" + target + "/echo", "alice", PASSWORD));
                proxyId = c.headers.get("x-proxypool-proxy");
            }
            Map<String, String> ok = awaitLine(logs, 3);
            assertEquals("200", ok.get("status"));
            assertEquals("-", ok.get("error"));
            assertEquals("alice", ok.get("user"));
            assertEquals("GET", ok.get("method"));
            assertEquals(target, ok.get("target"));
            assertEquals(proxyId, ok.get("proxy"));
            assertTrue(proxyId.startsWith("p-"), proxyId);
            assertEquals("1", ok.get("attempts"));
            assertEquals("ok", ok.get("result"));
            assertTrue(Long.parseLong(ok.get("bytes")) > 100, ok.toString());
            assertTrue(ok.get("ms").matches("\\d+\\.\\d{3}"), ok.toString());
            assertTrue(ok.get("time").matches("\\d{4}-\\d\\d-\\d\\dT.*Z"), ok.toString());

            // a CONNECT tunnel carrying one request, closed by the client
            try (Raw c = Raw.open(on)) {
                assertEquals(200, c.connect(target, "alice", PASSWORD));
                c.send("GET /echo HTTP/1.1\r\nHost: " + target + "\r\nConnection: close\r\n\r\n");
                assertEquals(200, c.readResponse(false));
            }
            Map<String, String> tunnel = awaitLine(logs, 4);
            assertEquals("CONNECT", tunnel.get("method"));
            assertEquals("200", tunnel.get("status"));
            assertEquals(target, tunnel.get("target"));
            assertEquals("alice", tunnel.get("user"));
            assertEquals(proxyId, tunnel.get("proxy"));
            assertTrue(Long.parseLong(tunnel.get("bytes_up")) > 20, tunnel.toString());
            assertTrue(Long.parseLong(tunnel.get("bytes")) > 100, tunnel.toString());

            List<LogCapture.Line> all = logs.lines();
            assertEquals(4, accessLines(logs).size(), "exactly one line each: " + accessLines(logs));
            String basic = Base64.getEncoder().encodeToString(("alice:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
            String upstreamAddress = "127.0.0.1:" + proxy.port();
            for (LogCapture.Line l : all) {
                assertFalse(l.text().contains(PASSWORD), "the password in " + l.where());
                assertFalse(l.text().contains(WRONG), "the wrong password in " + l.where());
                assertFalse(l.text().contains(basic), "the credentials in " + l.where());
            }
            for (String l : accessLines(logs)) {
                assertFalse(l.contains(upstreamAddress), "the upstream proxy's address: " + l);
            }
        }
    }

    @Test
    void offByDefaultNoLine() throws Exception {
        String target = "127.0.0.1:" + origin.port();
        try (LogCapture logs = LogCapture.install()) {
            try (Raw c = Raw.open(off)) {
                assertEquals(200, c.get("http://" + target + "/echo", "alice", PASSWORD));
                assertEquals(407, c.get("http://" + target + "/echo", "alice", WRONG));
                // a third exchange on the same connection: the first two are over on the gateway side
                assertEquals(200, c.get("http://" + target + "/echo", "alice", PASSWORD));
            }
            try (Raw c = Raw.open(off)) {
                assertEquals(200, c.connect(target, "alice", PASSWORD));
            }
            assertEquals(List.of(), accessLines(logs));
        }
    }

    private static List<String> accessLines(LogCapture logs) {
        return logs.lines().stream()
                .filter(l -> l.is("INFO", LOGGER))
                .map(l -> l.text().lines().findFirst().orElse(""))
                .toList();
    }

    /** Waits (bounded) for the {@code n}th access line and returns its fields. */
    private static Map<String, String> awaitLine(LogCapture logs, int n) throws InterruptedException {
        List<String> lines = Await.atMost(Duration.ofSeconds(10))
                .until("access line #" + n, () -> accessLines(logs), l -> l.size() >= n);
        assertEquals(n, lines.size(), "one line per exchange: " + lines);
        return fields(lines.get(n - 1));
    }

    private static final Pattern FIELD = Pattern.compile("(\\w+)=(\"(?:[^\"\\\\]|\\\\.)*\"|\\S+)");

    private static Map<String, String> fields(String line) {
        String text = line.substring(line.indexOf(": ") + 2); // after "INFO dev.proxypool.access: "
        Map<String, String> m = new LinkedHashMap<>();
        Matcher x = FIELD.matcher(text);
        while (x.find()) {
            m.put(x.group(1), x.group(2));
        }
        for (String k : List.of(
                "time",
                "client",
                "user",
                "method",
                "target",
                "status",
                "error",
                "bytes",
                "ms",
                "proxy",
                "attempts",
                "result")) {
            assertTrue(m.containsKey(k), k + " in " + line);
        }
        return m;
    }

    /** A raw client connection to a gateway. */
    private static final class Raw implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        Map<String, String> headers = Map.of();

        private Raw(Socket s) throws IOException {
            socket = s;
            in = new java.io.BufferedInputStream(s.getInputStream());
            out = s.getOutputStream();
        }

        static Raw open(ProxyPoolServer server) throws IOException {
            Socket s = new Socket();
            s.connect(new InetSocketAddress("127.0.0.1", server.gatewayPort()), 10_000);
            s.setSoTimeout(15_000);
            return new Raw(s);
        }

        int get(String url, String user, String password) throws IOException {
            String authority = url.substring("http://".length()).replaceAll("/.*", "");
            send("GET " + url + " HTTP/1.1\r\nHost: " + authority + "\r\n" + auth(user, password) + "\r\n");
            return readResponse(false);
        }

        int connect(String authority, String user, String password) throws IOException {
            send("CONNECT " + authority + " HTTP/1.1\r\nHost: " + authority + "\r\n" + auth(user, password) + "\r\n");
            return readResponse(true);
        }

        private static String auth(String user, String password) {
            return "Proxy-Authorization: Basic "
                    + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8))
                    + "\r\n";
        }

        void send(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }

        int readResponse(boolean connect) throws IOException {
            String status = line();
            if (status == null) {
                throw new IOException("closed before a response");
            }
            int code = Integer.parseInt(status.split(" ", 3)[1]);
            Map<String, String> h = new LinkedHashMap<>();
            for (String l = line(); l != null && !l.isEmpty(); l = line()) {
                int colon = l.indexOf(':');
                h.put(
                        l.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        l.substring(colon + 1).trim());
            }
            headers = h;
            if (!(connect && code == 200)) {
                int length = Integer.parseInt(h.getOrDefault("content-length", "0"));
                if (in.readNBytes(length).length != length) {
                    throw new IOException("short body");
                }
            }
            return code;
        }

        private String line() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
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
