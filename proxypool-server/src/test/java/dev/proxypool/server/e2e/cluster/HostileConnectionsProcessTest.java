package dev.proxypool.server.e2e.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.tls.PemFiles;
import dev.proxypool.server.gateway.TlsClientHello;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.Pace;
import dev.proxypool.testkit.TestCertificateAuthority;
import dev.proxypool.testkit.TestCertificateAuthority.Issued;
import dev.proxypool.testkit.TestCertificateAuthority.KeyType;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile connections against a gateway process (TLS gateway listener, SOCKS5 listener, a 3 s
 * {@code server.firstRequestTimeout}): 2,000 silent connections and 200 ClientHellos trickled at a
 * byte per 2 s on the gateway port, and as many silent and trickled greetings on the SOCKS5 port, are
 * all closed within the deadline plus 2 s, counted in {@code proxypool_connections_closed_total},
 * while curl is served through both listeners throughout; a client-initiated TLS 1.2 renegotiation
 * is refused and nothing is served after it. A process of its own: the JDK reads the renegotiation
 * switch once per process, at its first server handshake.
 */
@Tag("slow")
class HostileConnectionsProcessTest {

    private static final long DEADLINE_MS = 3_000;
    private static final int SILENT = 2_000;
    private static final int TRICKLING = 200;

    @TempDir
    static Path dir;

    static TestCertificateAuthority ca;
    static FakeOrigin origin;
    static ChildJvm gateway;
    static int gatewayPort;
    static int socksPort;
    static int apiPort;

    @BeforeAll
    static void start() throws Exception {
        ca = TestCertificateAuthority.create(dir);
        Issued cert = ca.issue("gateway", KeyType.EC, 3601);
        origin = FakeOrigin.start();
        gateway = ChildJvm.start(
                "gateway",
                "512m",
                HostileGatewayProcessMain.class,
                cert.certFile().toString(),
                cert.keyFile().toString(),
                Long.toString(DEADLINE_MS));
        String[] ready = gateway.await(0, l -> l.startsWith("ready "), Duration.ofSeconds(60))
                .text()
                .split(" ");
        gatewayPort = Integer.parseInt(ready[1]);
        socksPort = Integer.parseInt(ready[2]);
        apiPort = Integer.parseInt(ready[3]);
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (origin != null) {
            origin.close();
        }
    }

    /**
     * One hostile connection: silent, or trickling {@code bytes} a byte per round; a virtual thread of
     * its own notes when the gateway closed it.
     */
    private static final class Victim {
        final String kind;
        final SocketChannel ch;
        final long connectedAt;
        final byte[] bytes;
        volatile int sent;
        volatile long closedAt = -1;

        Victim(String kind, SocketChannel ch, byte[] bytes) {
            this.kind = kind;
            this.ch = ch;
            this.connectedAt = System.nanoTime();
            this.bytes = bytes;
            Thread.ofVirtual().start(this::awaitClose);
        }

        private void awaitClose() {
            ByteBuffer sink = ByteBuffer.allocate(512);
            try {
                while (ch.read(sink.clear()) >= 0) {
                    // nothing is expected; read on to the end
                }
            } catch (IOException reset) {
                // a reset is a close too, unless we closed it ourselves (then closedAt stays unset below)
                if (!ch.isOpen()) {
                    return;
                }
            }
            closedAt = System.nanoTime();
        }

        boolean closed() {
            return closedAt > 0;
        }
    }

    @Test
    void silentAndTricklingConnectionsAreClosedAtTheDeadlineWhileRealClientsAreServed() throws Exception {
        byte[] hello = TlsClientHello.of(PemFiles.trusting(ca.caFile()));
        byte[] greeting = {5, 2, 0, 2};
        List<String> served = new CopyOnWriteArrayList<>();
        List<String> failed = new CopyOnWriteArrayList<>();
        AtomicBoolean storm = new AtomicBoolean(true);
        Thread clients = Thread.ofVirtual().start(() -> {
            while (storm.get()) {
                for (String[] proxy : List.of(
                        new String[] {"--proxy", "https://127.0.0.1:" + gatewayPort},
                        new String[] {"--proxy", "socks5://127.0.0.1:" + socksPort})) {
                    String r = curl(
                            proxy[0], proxy[1], "--proxy-cacert", ca.caFile().toString(), origin.url("/echo"));
                    (r.startsWith("0 HTTP/1.1 200") ? served : failed).add(proxy[1] + " " + r);
                }
                Pace.sleep(Duration.ofMillis(200)); // the real client's pace
            }
        });
        List<Victim> victims = new CopyOnWriteArrayList<>();
        AtomicBoolean trickling = new AtomicBoolean(true);
        Thread trickler = Thread.ofVirtual().start(() -> trickle(victims, trickling));
        try {
            for (int i = 0; i < TRICKLING; i++) {
                victims.add(open("gateway-tls-trickle", gatewayPort, hello));
                victims.add(open("socks-trickle", socksPort, greeting));
            }
            for (int i = 0; i < SILENT; i++) {
                victims.add(open("gateway-silent", gatewayPort, null));
                victims.add(open("socks-silent", socksPort, null));
            }
            Await.atMost(Duration.ofMillis(DEADLINE_MS + 8_000))
                    .until(
                            "every hostile connection closed",
                            () -> victims.stream().allMatch(Victim::closed));
        } finally {
            trickling.set(false);
            trickler.join(Duration.ofSeconds(10));
            storm.set(false);
            clients.join(Duration.ofSeconds(30));
            for (Victim v : victims) {
                v.ch.close();
            }
        }
        Map<String, Long> late = new TreeMap<>();
        Map<String, Long> early = new TreeMap<>();
        long worst = 0;
        for (Victim v : victims) {
            long ms = (v.closedAt - v.connectedAt) / 1_000_000;
            worst = Math.max(worst, ms);
            if (ms > DEADLINE_MS + 2_000) {
                late.merge(v.kind, 1L, Long::sum);
            }
            if (ms < DEADLINE_MS - 250) {
                early.merge(v.kind, 1L, Long::sum);
            }
        }
        assertEquals(Map.of(), late, "closed later than the deadline + 2 s (worst " + worst + " ms)");
        assertEquals(Map.of(), early, "closed before the deadline");
        assertTrue(trickledBeyondTheFirstByte(victims), "the trickling clients did trickle");
        assertEquals(List.of(), failed, "the real client was served throughout");
        assertTrue(served.size() >= 4, "the real client ran during the storm: " + served);
        String metrics = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + apiPort + "/observe/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        assertTrue(closed(metrics, "gateway") >= SILENT + TRICKLING, metrics);
        assertTrue(closed(metrics, "socks") >= SILENT + TRICKLING, metrics);
    }

    private static boolean trickledBeyondTheFirstByte(List<Victim> victims) {
        return victims.stream().anyMatch(v -> v.bytes != null && v.sent >= 2);
    }

    /** {@code proxypool_connections_closed_total{listener, reason="first_request_timeout"}} of the scrape. */
    private static double closed(String scrape, String listener) {
        for (String line : scrape.split("\n")) {
            if (line.startsWith("proxypool_connections_closed_total{")
                    && line.contains("listener=\"" + listener + "\"")
                    && line.contains("reason=\"first_request_timeout\"")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return -1;
    }

    private static Victim open(String kind, int port, byte[] trickle) throws IOException {
        Victim v = new Victim(kind, SocketChannel.open(new InetSocketAddress("127.0.0.1", port)), trickle);
        if (trickle != null) { // the first byte at once: the trickler's next round (<= 2 s) sends the second
            v.ch.write(ByteBuffer.wrap(trickle, 0, 1));
            v.sent = 1;
        }
        return v;
    }

    /** Writes the next byte of each open trickling connection every 2 s. */
    private static void trickle(List<Victim> victims, AtomicBoolean on) {
        while (on.get()) {
            for (Victim v : victims) {
                if (v.bytes != null && !v.closed() && v.sent < v.bytes.length) {
                    try {
                        v.ch.write(ByteBuffer.wrap(v.bytes, v.sent, 1));
                        v.sent++;
                    } catch (IOException closed) {
                        // its reader notes the close
                    }
                }
            }
            Pace.sleep(Duration.ofSeconds(2)); // the attack's pace: a byte per 2 s
        }
    }

    /** Runs curl through a proxy; "exit-code status-line" (or "exit-code stderr"). */
    private static String curl(String... args) {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/curl", "-sS", "-i", "--max-time", "5", "--noproxy", ""));
        cmd.addAll(List.of(args));
        try {
            File err = Files.createTempFile(dir, "curl", ".err").toFile();
            Process p = new ProcessBuilder(cmd)
                    .redirectInput(new File("/dev/null"))
                    .redirectError(err)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "timeout";
            }
            String line = out.lines().findFirst().orElse("");
            return p.exitValue() + " " + (p.exitValue() == 0 ? line : Files.readString(err.toPath()));
        } catch (IOException e) {
            return "io " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    @Test
    void aClientInitiatedTls12RenegotiationIsRefusedAndNothingIsServedAfterIt() throws Exception {
        SSLContext trust = PemFiles.trusting(ca.caFile());
        String get = "GET " + origin.url("/bytes?n=5") + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        try (SSLSocket s = (SSLSocket) trust.getSocketFactory().createSocket("127.0.0.1", gatewayPort)) {
            s.setEnabledProtocols(new String[] {"TLSv1.2"});
            s.setSoTimeout(10_000);
            s.startHandshake();
            assertEquals("TLSv1.2", s.getSession().getProtocol());
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(get.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String head = readResponseHead(in);
            assertTrue(head.startsWith("HTTP/1.1 200"), "served before the renegotiation: " + head);
            assertEquals(5, in.readNBytes(5).length, "the body (Content-Length: 5)");
            assertThrows(
                    IOException.class,
                    () -> {
                        s.startHandshake(); // the renegotiation: the gateway answers with a fatal alert
                        out.write(get.getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                        throw new AssertionError("served after a renegotiation: " + readResponseHead(in));
                    },
                    "the renegotiation failed and no request was served after it");
        }
    }

    /** Reads a response head; an IOException (SSLException for an alert) when the connection ended instead. */
    private static String readResponseHead(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            b.append((char) c);
            if (b.length() >= 4 && b.substring(b.length() - 4).equals("\r\n\r\n")) {
                return b.toString();
            }
        }
        throw new SSLException("connection ended: " + b);
    }
}
