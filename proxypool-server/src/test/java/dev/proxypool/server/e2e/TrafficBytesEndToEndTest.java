package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.contract.OpenApiContract;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bytes per upstream and per client (issue 34): a whole server with two upstreams (a fake HTTP
 * proxy each) routed by client, and raw-socket clients that count every byte they write and read,
 * so the expected figures are exact: a plain HTTP {@code POST} with a known body answered by a
 * known number of bytes, a CONNECT tunnel whose inner request rides right behind the CONNECT head
 * (the bytes the gateway drains into the tunnel), and a SOCKS5 connection. {@code GET
 * /v1/admin/traffic} (checked against the OpenAPI document) and the Prometheus counters must show
 * exactly what the clients sent and received, the HTTP framing included, and a refused request
 * counts under client and upstream {@code none}.
 */
class TrafficBytesEndToEndTest {

    private static final String ADMIN = "admin-token-traffic-0123456789";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static FakeOrigin origin;
    static FakeHttpProxy proxyA;
    static FakeHttpProxy proxyB;
    static ProxyPoolServer server;
    static int socksPort;

    @BeforeAll
    static void start() throws Exception {
        origin = FakeOrigin.start();
        proxyA = FakeHttpProxy.start();
        proxyB = FakeHttpProxy.start();
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socksPort = s.getLocalPort();
        }
        Files.writeString(dir.resolve("a.jsonl"), line(proxyA.port()));
        Files.writeString(dir.resolve("b.jsonl"), line(proxyB.port()));
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0, socksPort: %d }
                clients: [{ name: tr-alice, secret: alice-secret }, { name: tr-bob, secret: bob-secret }]
                admin: { token: %s }
                security: { allowDestinations: ["127.0.0.0/8"], connectPorts: [%d] }
                providers:
                  - { name: pa, type: jsonl_inventory, path: a.jsonl }
                  - { name: pb, type: jsonl_inventory, path: b.jsonl }
                upstreams:
                  - { name: tr-up-a, provider: pa, validate: false }
                  - { name: tr-up-b, provider: pb, validate: false }
                health: { active: { enabled: false } }
                routings:
                  - { name: ra, upstreams: [tr-up-a], match: { clients: [tr-alice] } }
                  - { name: rb, upstreams: [tr-up-b], match: { clients: [tr-bob] } }
                """.formatted(socksPort, ADMIN, origin.port()));
        server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).start();
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest snapshot = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/admin/snapshot"))
                .header("Authorization", "Bearer " + ADMIN)
                .build();
        Await.standard()
                .until(
                        "both upstreams in the snapshot",
                        () -> http.send(snapshot, HttpResponse.BodyHandlers.ofString())
                                .body(),
                        b -> b.contains("tr-up-a") && b.contains("tr-up-b"));
    }

    private static String line(int port) {
        return "{\"host\": \"127.0.0.1\", \"port\": " + port + ", \"protocol\": \"http\"}\n";
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {server, origin, proxyA, proxyB}) {
            if (c != null) {
                c.close();
            }
        }
    }

    /** What one raw client wrote and read, byte for byte. */
    record Exchanged(long written, byte[] read) {
        String text() {
            return new String(read, StandardCharsets.ISO_8859_1);
        }
    }

    private static String basic(String user, String secret) {
        return Base64.getEncoder().encodeToString((user + ":" + secret).getBytes(StandardCharsets.UTF_8));
    }

    /** An origin request with a body of {@code bodySize} bytes asking for {@code answerSize} bytes back. */
    private static byte[] originRequest(String target, int bodySize, int answerSize, String extraHeaders) {
        byte[] head = ("POST " + target + "/bytes?n=" + answerSize + " HTTP/1.1\r\n"
                        + "Host: 127.0.0.1:" + origin.port() + "\r\n"
                        + extraHeaders
                        + "Content-Length: " + bodySize + "\r\n"
                        + "Connection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] all = Arrays.copyOf(head, head.length + bodySize);
        Arrays.fill(all, head.length, all.length, (byte) 'x');
        return all;
    }

    /** Reads until the gateway closes the connection (bounded by a read timeout). */
    private static byte[] readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        return out.toByteArray();
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setSoTimeout(20_000);
        return s;
    }

    @Test
    void countersMatchWhatTheClientsSentAndReceivedOverHttpConnectAndSocks() throws Exception {
        long[] aliceBefore = traffic("clients", "client", "tr-alice");
        long[] bobBefore = traffic("clients", "client", "tr-bob");
        long[] upABefore = traffic("upstreams", "upstream", "tr-up-a");
        long[] upBBefore = traffic("upstreams", "upstream", "tr-up-b");

        // plain HTTP through the gateway: a 10,000-byte body up, 50,000 bytes down
        Exchanged http;
        try (Socket s = connect(server.gatewayPort())) {
            byte[] req = originRequest(
                    "http://127.0.0.1:" + origin.port(),
                    10_000,
                    50_000,
                    "Proxy-Authorization: Basic " + basic("tr-alice", "alice-secret") + "\r\n");
            s.getOutputStream().write(req);
            s.getOutputStream().flush();
            http = new Exchanged(req.length, readToEnd(s.getInputStream()));
        }
        assertTrue(http.text().startsWith("HTTP/1.1 200"), http.text().substring(0, 40));
        assertTrue(http.read().length > 50_000, "the 50,000 bytes and a head: " + http.read().length);

        // a CONNECT tunnel, the inner request sent right behind the CONNECT head (drained into the tunnel)
        Exchanged connect;
        try (Socket s = connect(server.gatewayPort())) {
            byte[] head = ("CONNECT 127.0.0.1:" + origin.port() + " HTTP/1.1\r\nHost: 127.0.0.1:" + origin.port()
                            + "\r\nProxy-Authorization: Basic " + basic("tr-alice", "alice-secret") + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            byte[] inner = originRequest("", 7_000, 30_000, "");
            OutputStream out = s.getOutputStream();
            out.write(head);
            out.write(inner);
            out.flush();
            connect = new Exchanged(head.length + inner.length, readToEnd(s.getInputStream()));
        }
        assertTrue(connect.text().startsWith("HTTP/1.1 200"), connect.text().substring(0, 40));
        assertTrue(connect.text().contains("\r\n\r\nHTTP/1.1 200"), "the origin's answer came through the tunnel");
        assertTrue(connect.read().length > 30_000, "30,000 bytes and two heads: " + connect.read().length);

        // SOCKS5 with username/password, then the inner request through the tunnel
        Exchanged socks;
        try (Socket s = connect(socksPort)) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            long wrote = 0;
            byte[] greeting = {5, 1, 2};
            out.write(greeting);
            out.flush();
            wrote += greeting.length;
            got.write(in.readNBytes(2));
            byte[] user = "tr-bob".getBytes(StandardCharsets.US_ASCII);
            byte[] pass = "bob-secret".getBytes(StandardCharsets.US_ASCII);
            ByteArrayOutputStream auth = new ByteArrayOutputStream();
            auth.write(1);
            auth.write(user.length);
            auth.write(user);
            auth.write(pass.length);
            auth.write(pass);
            out.write(auth.toByteArray());
            out.flush();
            wrote += auth.size();
            byte[] authReply = in.readNBytes(2);
            assertEquals(0, authReply[1], "the login was accepted");
            got.write(authReply);
            int port = origin.port();
            byte[] request = {5, 1, 0, 1, 127, 0, 0, 1, (byte) (port >> 8), (byte) port};
            out.write(request);
            out.flush();
            wrote += request.length;
            byte[] reply = in.readNBytes(10);
            assertEquals(0, reply[1], "the tunnel was opened");
            got.write(reply);
            byte[] inner = originRequest("", 3_000, 40_000, "");
            out.write(inner);
            out.flush();
            wrote += inner.length;
            got.write(readToEnd(in));
            socks = new Exchanged(wrote, got.toByteArray());
        }
        assertTrue(socks.read().length > 40_000, "40,000 bytes and a head: " + socks.read().length);

        long aliceSent = http.written() + connect.written();
        long aliceReceived = http.read().length + connect.read().length;
        long bobSent = socks.written();
        long bobReceived = socks.read().length;
        // the exchange ends (and is counted) once the gateway has closed its side: awaited, not slept for
        Await.atMost(Duration.ofSeconds(20))
                .until(
                        "the three exchanges counted",
                        () -> new long[] {
                            traffic("clients", "client", "tr-alice")[2] - aliceBefore[2],
                            traffic("clients", "client", "tr-bob")[2] - bobBefore[2]
                        },
                        n -> n[0] >= 2 && n[1] >= 1);
        long[] alice = traffic("clients", "client", "tr-alice");
        long[] bob = traffic("clients", "client", "tr-bob");
        long[] upA = traffic("upstreams", "upstream", "tr-up-a");
        long[] upB = traffic("upstreams", "upstream", "tr-up-b");
        assertEquals(aliceSent, alice[0] - aliceBefore[0], "bytes alice sent");
        assertEquals(aliceReceived, alice[1] - aliceBefore[1], "bytes alice received");
        assertEquals(2, alice[2] - aliceBefore[2], "alice's exchanges");
        assertEquals(bobSent, bob[0] - bobBefore[0], "bytes bob sent");
        assertEquals(bobReceived, bob[1] - bobBefore[1], "bytes bob received");
        assertEquals(aliceSent, upA[0] - upABefore[0], "bytes sent through up-a");
        assertEquals(aliceReceived, upA[1] - upABefore[1], "bytes received through up-a");
        assertEquals(bobSent, upB[0] - upBBefore[0], "bytes sent through up-b");
        assertEquals(bobReceived, upB[1] - upBBefore[1], "bytes received through up-b");
        // within the HTTP framing: each figure is the bodies plus heads of a few hundred bytes
        assertTrue(aliceSent > 17_000 && aliceSent < 17_000 + 1_000, "alice sent " + aliceSent);
        assertTrue(aliceReceived > 80_000 && aliceReceived < 80_000 + 1_500, "alice received " + aliceReceived);
        assertTrue(bobSent > 3_000 && bobSent < 3_000 + 500, "bob sent " + bobSent);
        assertTrue(bobReceived > 40_000 && bobReceived < 40_000 + 500, "bob received " + bobReceived);

        // the Prometheus counters say the same (this test's server is the only one counting these names)
        String metrics = scrape();
        assertEquals(alice[0], metric(metrics, "client", "tr-alice", "sent"), "the alice/sent series");
        assertEquals(alice[1], metric(metrics, "client", "tr-alice", "received"), "the alice/received series");
        assertEquals(bob[0], metric(metrics, "client", "tr-bob", "sent"), "the bob/sent series");
        assertEquals(upA[1], metric(metrics, "upstream", "tr-up-a", "received"), "the up-a/received series");
        assertEquals(upB[0], metric(metrics, "upstream", "tr-up-b", "sent"), "the up-b/sent series");
    }

    @Test
    void aRefusedRequestCountsUnderNone() throws Exception {
        long[] before = traffic("clients", "client", "none");
        long[] upBefore = traffic("upstreams", "upstream", "none");
        Exchanged refused;
        try (Socket s = connect(server.gatewayPort())) {
            byte[] req = originRequest("http://127.0.0.1:" + origin.port(), 500, 10, "");
            s.getOutputStream().write(req);
            s.getOutputStream().flush();
            refused = new Exchanged(req.length, readToEnd(s.getInputStream()));
        }
        assertTrue(refused.text().startsWith("HTTP/1.1 407"), refused.text());
        long[] after = Await.standard()
                .until(
                        "the refused request counted",
                        () -> traffic("clients", "client", "none"),
                        a -> a[2] > before[2]);
        assertEquals(refused.read().length, after[1] - before[1], "the 407 answer's bytes");
        assertTrue(
                after[0] - before[0] > 0 && after[0] - before[0] <= refused.written(),
                "bytes read from the refused client: " + (after[0] - before[0]));
        long[] up = traffic("upstreams", "upstream", "none");
        assertEquals(refused.read().length, up[1] - upBefore[1], "no proxy tried: upstream none");
    }

    /** {@code [bytesSent, bytesReceived, exchanges]} of one row of {@code GET /v1/admin/traffic}, zeros when absent. */
    private static long[] traffic(String list, String key, String name) throws IOException, InterruptedException {
        URI uri = URI.create("http://127.0.0.1:" + server.apiPort() + "/v1/admin/traffic");
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(uri)
                                .header("Authorization", "Bearer " + ADMIN)
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        OpenApiContract.get().check("GET", uri, null, r.statusCode(), "application/json", r.body());
        assertEquals(200, r.statusCode(), r.body());
        for (JsonNode row : JSON.readTree(r.body()).path(list)) {
            if (row.path(key).asText().equals(name)) {
                return new long[] {
                    row.path("bytesSent").asLong(),
                    row.path("bytesReceived").asLong(),
                    row.path("exchanges").asLong()
                };
            }
        }
        return new long[3];
    }

    private static String scrape() throws IOException, InterruptedException {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.apiPort() + "/observe/metrics"))
                                .header("Accept", "text/plain")
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    /** The value of {@code proxypool_gateway_<label>_bytes_total{<label>="name", direction="dir"}}. */
    private static long metric(String text, String label, String name, String direction) {
        Pattern p = Pattern.compile("(?m)^proxypool_gateway_" + label + "_bytes_total\\{([^}]*)\\} (\\S+)$");
        Matcher m = p.matcher(text);
        while (m.find()) {
            String tags = m.group(1);
            if (tags.contains(label + "=\"" + name + "\"") && tags.contains("direction=\"" + direction + "\"")) {
                return (long) Double.parseDouble(m.group(2));
            }
        }
        throw new AssertionError("no " + label + " bytes series for " + name + "/" + direction + " in:\n" + text);
    }
}
