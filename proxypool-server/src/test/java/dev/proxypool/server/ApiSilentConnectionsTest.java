package dev.proxypool.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.tls.PemFiles;
import dev.proxypool.server.gateway.ConnectionLimits;
import dev.proxypool.server.gateway.DirectEngine;
import dev.proxypool.server.tls.ListenerTls;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.Pace;
import dev.proxypool.testkit.TestCertificateAuthority;
import dev.proxypool.testkit.TestCertificateAuthority.Issued;
import dev.proxypool.testkit.TestCertificateAuthority.KeyType;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Denial of service by doing nothing, against the live TLS REST listener: 2,000 silent TCP connections
 * and 200 TLS handshakes trickled one byte every 2 s, from several loopback addresses. With
 * {@code server.firstRequestTimeout} at 3 s and {@code server.maxConnectionsPerAddress} at 100, the
 * connections over an address's cap are closed at once, every other one within the deadline plus 2 s of
 * its connect, and a new client is answered throughout; {@code /observe/metrics} counts both kinds of
 * close.
 */
@Tag("slow")
class ApiSilentConnectionsTest {

    private static final Duration DEADLINE = Duration.ofSeconds(3);
    private static final int PER_ADDRESS = 100;
    private static final int SILENT = 2_000;
    private static final int SILENT_ADDRESSES = 8; // 127.0.0.2 .. 127.0.0.9: 250 each, 100 of them held
    private static final int TRICKLING = 200;
    private static final int TRICKLING_ADDRESSES = 2; // 127.0.0.10, 127.0.0.11: 100 each, all held

    @TempDir
    Path dir;

    private GatewayServer server;
    private SSLContext trust;

    @BeforeEach
    void start() {
        TestCertificateAuthority ca = TestCertificateAuthority.create(dir);
        Issued cert = ca.issue("api", KeyType.EC, 3001);
        trust = PemFiles.trusting(ca.caFile());
        server = GatewayServer.builder(new DirectEngine())
                .gatewayPort(0)
                .apiPort(0)
                .apiTls(ListenerTls.of("server.apiTls", new ProxyPoolConfig.TlsFiles(cert.certFile(), cert.keyFile())))
                .apiFirstRequestTimeout(DEADLINE)
                .apiMaxConnectionsPerAddress(PER_ADDRESS)
                .start();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop();
        }
    }

    /** One client connection and when it was connected and found closed. */
    private static final class Held {
        final SocketChannel channel;
        final long connectedNanos;
        volatile long closedNanos = -1;

        Held(SocketChannel channel) {
            this.channel = channel;
            this.connectedNanos = System.nanoTime();
        }

        long heldMillis() {
            return closedNanos < 0 ? -1 : (closedNanos - connectedNanos) / 1_000_000;
        }
    }

    @Test
    void silentAndTricklingConnectionsAreClosedByTheFirstRequestDeadlineWhileNewClientsAreAnswered() throws Exception {
        long limit = ConnectionLimits.ofThisProcess().descriptorLimit();
        // client and server ends of every connection live in this JVM: ~2,200 + ~1,000 descriptors at most
        assertTrue(limit < 0 || limit >= 6_000, "the test needs 6,000 descriptors, ulimit -n is " + limit);
        double firstBefore = closedTotal("first_request_timeout");
        double capBefore = closedTotal("per_address_limit");
        byte[] clientHello = clientHello();
        List<Held> silent = new ArrayList<>();
        List<Held> trickling = new ArrayList<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicInteger answered = new AtomicInteger();
        AtomicBoolean attack = new AtomicBoolean(true);
        ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor();
        // one selector thread notes every close (thousands of blocked reader threads would themselves lag
        // behind on two busy cores and blur the measurement)
        Watcher watcher = new Watcher();
        try {
            // a new client throughout: a fresh connection (TLS handshake included) every 200 ms, each answered
            // within the deadline plus 2 s on two loaded cores while thousands of connections come and go
            readers.submit(() -> {
                while (attack.get()) {
                    try (HttpClient fresh = HttpClient.newBuilder()
                            .sslContext(trust)
                            .connectTimeout(DEADLINE.plusSeconds(2))
                            .build()) {
                        HttpResponse<String> r = fresh.send(
                                HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.apiPort() + "/v1/echo"))
                                        .timeout(DEADLINE.plusSeconds(2))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() == 200) {
                            answered.incrementAndGet();
                        } else {
                            failures.add("status " + r.statusCode());
                        }
                    } catch (IOException e) {
                        failures.add(e.toString());
                    } catch (InterruptedException e) {
                        return null;
                    }
                    Pace.sleep(Duration.ofMillis(200)); // the new client's own pace
                }
                return null;
            });
            for (int i = 0; i < TRICKLING; i++) {
                Held h = open(127, 0, 0, 10 + i % TRICKLING_ADDRESSES);
                trickling.add(h);
                watcher.watch(h);
            }
            for (int i = 0; i < SILENT; i++) {
                Held h = open(127, 0, 0, 2 + i % SILENT_ADDRESSES);
                silent.add(h);
                watcher.watch(h);
            }
            // the tricklers send their ClientHello one byte every 2 s, each until the server closed it
            for (int b = 0; b < clientHello.length && trickling.stream().anyMatch(h -> h.closedNanos < 0); b++) {
                for (Held h : trickling) {
                    if (h.closedNanos < 0) {
                        try {
                            h.channel.write(ByteBuffer.wrap(clientHello, b, 1));
                        } catch (IOException closed) {
                            // the server closed it; the watcher notes when
                        }
                    }
                }
                if (b > 10) {
                    break; // far past the deadline: the assertions below report what is still open
                }
                Pace.sleep(Duration.ofSeconds(2)); // the attack's pace
            }
            Await.atMost(Duration.ofSeconds(20))
                    .until(
                            "every attacking connection closed",
                            () -> silent.stream().allMatch(h -> h.closedNanos >= 0)
                                    && trickling.stream().allMatch(h -> h.closedNanos >= 0));
            attack.set(false);
        } finally {
            // the readers and the new client end on these (an assertion above must not leave them running)
            attack.set(false);
            watcher.close();
            for (Held h : silent) {
                h.channel.close();
            }
            for (Held h : trickling) {
                h.channel.close();
            }
            readers.close();
        }
        // the promise: closed within the deadline plus 2 s of the client's connect. The deadline runs from
        // Helidon's accept; on a quiet 2-core machine the slowest close came 3.3 s after connect with a 3 s
        // deadline (on 2 cores shared with a dozen other JVMs, load ~17, it came 5-6 s after: the accept
        // loop's lag, not the deadline; a machine that loaded fails this bound)
        long bound = DEADLINE.toMillis() + 2_000;
        String seen = "held seconds (silent): " + histogram(silent) + ", (trickling): " + histogram(trickling)
                + "; closed by the deadline " + (closedTotal("first_request_timeout") - firstBefore)
                + ", by the cap " + (closedTotal("per_address_limit") - capBefore);
        long silentMax = silent.stream().mapToLong(Held::heldMillis).max().orElseThrow();
        long trickleMax = trickling.stream().mapToLong(Held::heldMillis).max().orElseThrow();
        assertTrue(
                silentMax <= bound,
                "every silent connection closed within " + bound + " ms, slowest " + silentMax + "; " + seen);
        assertTrue(
                trickleMax <= bound,
                "every trickled handshake closed within " + bound + " ms, slowest " + trickleMax + "; " + seen);
        assertTrue(
                failures.isEmpty(),
                "the new client was answered throughout (" + answered.get() + " answered): " + failures);
        // every attempt during the attack was answered (no failure above); a fresh client with its TLS handshake
        // takes a second or so on two busy cores, so a few fit in the seconds the attack lasts
        assertTrue(answered.get() >= 2, "the new client asked throughout, answered " + answered.get());
        double first = closedTotal("first_request_timeout") - firstBefore;
        double capped = closedTotal("per_address_limit") - capBefore;
        // 150 of each address's 250 when all connect within the deadline; fewer when the connect loop is slower
        // and held ones expired (freeing their address's slots) before the last ones connected
        assertEquals(SILENT + TRICKLING, first + capped, 0.0, "every attacker counted once: " + first + " + " + capped);
        assertTrue(capped >= SILENT_ADDRESSES, "every address went over its cap: " + capped + " closed by it");
    }

    private static java.util.Map<Long, Long> histogram(List<Held> held) {
        return held.stream()
                .collect(java.util.stream.Collectors.groupingBy(
                        h -> h.heldMillis() / 1000, java.util.TreeMap::new, java.util.stream.Collectors.counting()));
    }

    /** A connection to the API listener from the loopback address a.b.c.d, non-blocking once connected. */
    private Held open(int a, int b, int c, int d) throws IOException {
        SocketChannel ch = SocketChannel.open();
        ch.bind(new InetSocketAddress(
                InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d}), 0));
        ch.socket().connect(new InetSocketAddress("127.0.0.1", server.apiPort()), 5_000);
        Held h = new Held(ch);
        ch.configureBlocking(false);
        return h;
    }

    /** Notes when the server closes each watched connection (end of stream or reset), on one selector thread. */
    private static final class Watcher implements AutoCloseable {
        private final Selector selector;
        private final ConcurrentLinkedQueue<Held> added = new ConcurrentLinkedQueue<>();
        private final Thread thread;
        private volatile boolean running = true;

        Watcher() throws IOException {
            selector = Selector.open();
            thread = Thread.ofPlatform().name("close-watcher").start(this::run);
        }

        void watch(Held h) {
            added.add(h);
            selector.wakeup();
        }

        private void run() {
            ByteBuffer sink = ByteBuffer.allocate(4096);
            while (running) {
                try {
                    selector.select(200);
                    for (Held h; (h = added.poll()) != null; ) {
                        h.channel.register(selector, SelectionKey.OP_READ, h);
                    }
                    for (SelectionKey k : selector.selectedKeys()) {
                        Held h = (Held) k.attachment();
                        int n;
                        try {
                            sink.clear();
                            n = h.channel.read(sink);
                        } catch (IOException reset) {
                            n = -1;
                        }
                        if (n < 0) {
                            h.closedNanos = System.nanoTime();
                            k.cancel();
                        }
                    }
                    selector.selectedKeys().clear();
                } catch (IOException | RuntimeException e) {
                    if (running) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }

        @Override
        public void close() throws IOException {
            running = false;
            selector.wakeup();
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            selector.close();
        }
    }

    /** A real TLS client's first flight, to be trickled. */
    private byte[] clientHello() throws IOException {
        SSLEngine engine = trust.createSSLEngine("127.0.0.1", server.apiPort());
        engine.setUseClientMode(true);
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] hello = new byte[out.remaining()];
        out.get(hello);
        return hello;
    }

    /** {@code proxypool_connections_closed_total{listener="api",reason=...}} from {@code /observe/metrics}. */
    private double closedTotal(String reason) throws IOException, InterruptedException {
        try (HttpClient c = HttpClient.newBuilder().sslContext(trust).build()) {
            String body = c.send(
                            HttpRequest.newBuilder(
                                            URI.create("https://127.0.0.1:" + server.apiPort() + "/observe/metrics"))
                                    .header("Accept", "text/plain")
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            Matcher m = Pattern.compile("(?m)^proxypool_connections_closed_total\\{([^}]*)\\} ([0-9.eE+]+)$")
                    .matcher(body);
            while (m.find()) {
                if (m.group(1).contains("listener=\"api\"") && m.group(1).contains("reason=\"" + reason + "\"")) {
                    return Double.parseDouble(m.group(2));
                }
            }
            return 0;
        }
    }
}
