package dev.proxypool.server.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.security.SecretHash;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.LoopBlockingCheck;
import dev.proxypool.testkit.RawHttp;
import dev.proxypool.testkit.RealProxy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing blocks an event loop (issue 31): the whole server on the event-loop data plane, with a hashed
 * (PBKDF2) client secret, in front of real upstream daemons (squid, tinyproxy, dante as SOCKS5) and one
 * upstream whose port refuses, serves steady traffic while the test kit's {@link LoopBlockingCheck}
 * records the loop threads: forwarded HTTP on keep-alive connections, {@code CONNECT} tunnels with a GET
 * inside, SOCKS5 with username and password and with a wrong one, a 407 without credentials and one
 * with a wrong secret (wrong secrets hashed off the loops), a refused upstream retried on another, a destination the policy denies,
 * and a request whose routing waits for a proxy ({@code onNoCandidate: wait}: none matches its filter, so it waits its
 * {@code waitTimeout} out, off the loops, and answers 503 {@code no_candidate});
 * one client at a time, then {@value #CLIENTS} at once, so that the loops run together; the access log
 * is on. Every park, sleep, monitor wait, contended monitor, file access, host lookup and JDK socket call
 * on a loop thread is a failure, whatever its duration: no threshold of time, so a loaded machine cannot
 * make the verdict change. A lock that a loop shares with another thread fails it as soon as the two
 * meet there, however briefly; left out are only the NIO transport's and the JDK selector's own, each
 * with its reason in {@link #loopCheck()}.
 *
 * <p>What the check sees is the steady state: it starts after a warm-up (classes initialised, the
 * listeners bound, whose promise wakes the binding thread under the promise's monitor, the first PBKDF2
 * verification, made off the loops, remembered, and a round of concurrent clients) and stops once every
 * exchange has ended and before the server closes (Netty's shutdown and its {@code GlobalEventExecutor}
 * are not the data plane). The two other tests show the check fails when a loop does block: an
 * authenticator that parks on the loop, and one that makes a socket round trip there.
 */
@Tag("slow")
@Timeout(240)
class NoBlockingOnLoopsTest {

    /** The gateway's loop threads ({@link GatewayLoops}: Netty's {@code DefaultThreadFactory("gateway-loop")}). */
    static final String LOOP_THREADS = "gateway-loop-\\d+-\\d+";

    private static final String USER = "alice";
    private static final String SECRET = "alice-loop-secret";
    /** Low enough for a quick first request, high enough that the hash is real work done off the loop. */
    private static final int ITERATIONS = 20_000;

    private static final int BODY = 3_000;
    private static final int ROUNDS = 12;
    /** Clients at once in the concurrent rounds: both loops busy together, on 2 cores or more. */
    private static final int CLIENTS = 4;

    /** The waiting routing's {@code waitTimeout}. */
    private static final Duration WAIT = Duration.ofMillis(200);

    @TempDir
    Path dir;

    /**
     * The check both tests use: every kind of event at any duration, socket calls included, on the
     * loops; left out only what is the NIO transport's and the JDK selector's own, each for its reason.
     */
    static LoopBlockingCheck.Builder loopCheck() {
        return LoopBlockingCheck.threads(LOOP_THREADS)
                .socketThreshold(Duration.ZERO)
                // JDK 25 records the transport's reads and writes of its own channels, which are
                // non-blocking for their whole life; a socket call by anything else on a loop, a
                // listener run from inside those writes included, is still reported
                .allowNettyNioChannelIo()
                // the JDK selector's wake-up lock (EPollSelectorImpl.interruptLock), taken by the loop
                // when it resets its wake-up descriptor after another thread woke it: whoever wakes it
                // holds the lock only to write that descriptor once, so the loop waits for nothing
                // that depends on I/O or on another loop's work
                .ignoreFrame("sun.nio.ch.EPollSelectorImpl.clearInterrupt")
                // the same lock when the loop wakes its own selector: NioIoHandler re-arms a wake-up
                // that raced with its select (run) or its selectNow, by Netty's design; a loop calls
                // wakeup on nothing else from there
                .ignoreCaller(
                        "io.netty.channel.nio.NioIoHandler.run", "io.netty.channel.nio.SelectedSelectionKeySetSelector")
                .ignoreCaller(
                        "io.netty.channel.nio.NioIoHandler.selectNow",
                        "io.netty.channel.nio.SelectedSelectionKeySetSelector")
                // the same lock from the waking side, where the waker is Netty's acceptor: the NIO
                // transport has one server channel, whose loop registers each accepted connection on
                // the next loop and wakes that loop's selector (ServerBootstrapAcceptor.channelRead;
                // the only loop-to-loop wake-up in the steady state, measured with jdk.MethodTrace on
                // EPollSelectorImpl.wakeup). A wake-up that the gateway's own code makes is still reported
                .ignoreCaller(
                        "io.netty.bootstrap.ServerBootstrap$ServerBootstrapAcceptor.channelRead",
                        "io.netty.channel.",
                        "io.netty.util.concurrent.")
                // Netty's pooled allocator growing: when the loops contend for a shared magazine
                // (the buffers above the thread-local size classes, such as the reads' receive
                // buffers), it doubles the magazines, up to twice the cores, and frees the old ones
                // under their allocation lock, waiting for an allocation in progress there; so at most
                // a handful of times in a process's life. Its steady allocation only tries that lock
                .ignoreFrame("io.netty.buffer.AdaptivePoolingAllocator$MagazineGroup.tryExpandMagazines");
    }

    @Test
    void theLoopsNeverBlockUnderSteadyTraffic() throws Exception {
        // the access log is on: its lines go from the loops to the writer thread; here they are counted, not printed
        Logger accessLog = Logger.getLogger(AccessLog.LOGGER);
        AtomicInteger accessLines = new AtomicInteger();
        Handler counting = new Handler() {
            @Override
            public void publish(LogRecord r) {
                accessLines.incrementAndGet();
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        boolean parents = accessLog.getUseParentHandlers();
        accessLog.setUseParentHandlers(false);
        accessLog.addHandler(counting);
        try {
            steadyTraffic();
        } finally {
            accessLog.removeHandler(counting);
            accessLog.setUseParentHandlers(parents);
        }
        assertTrue(accessLines.get() > 0, "the access log was written");
    }

    private void steadyTraffic() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                RealProxy squid = RealProxy.squid();
                RealProxy tinyproxy = RealProxy.tinyproxy();
                RealProxy dante = RealProxy.dante();
                ProxyPoolServer server = serve(
                        origin,
                        List.of(squid.url(), tinyproxy.url(), dante.url(), "http://127.0.0.1:" + refusingPort()))) {
            Traffic t = new Traffic(server, origin);
            // warm-up: every path on each loop (classes, the bind, the first PBKDF2 off the loops), then
            // the same concurrently (buffer pools grown to the loops' contention)
            for (int i = 0; i < 4; i++) {
                t.round();
            }
            t.concurrently(CLIENTS, 2);
            t.awaitSettled();
            t.exchanges.set(0);
            t.retried.set(0);
            try (LoopBlockingCheck check = loopCheck().start()) {
                for (int i = 0; i < ROUNDS; i++) {
                    t.round();
                }
                t.concurrently(CLIENTS, ROUNDS);
                t.awaitSettled(); // the loops have handled every close before the check stops
                List<LoopBlockingCheck.Blocking> calls = check.stop();
                System.out.printf(
                        "loop check: %d rounds alone and %d × %d concurrently (%d exchanges, %d retried on another"
                                + " proxy), %d blocking call(s)%n",
                        ROUNDS, CLIENTS, ROUNDS, t.exchanges.get(), t.retried.get(), calls.size());
                check.assertNoBlocking();
            }
            assertTrue(t.retried.get() >= 1, "the refusing upstream was tried and the request retried: " + t.retried);
        }
    }

    /** A loopback port that refuses connections: bound for a moment, then closed. */
    private static int refusingPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The server with {@code proxies} as its one upstream, round-robin, a hashed secret for {@value #USER}. */
    private ProxyPoolServer serve(FakeOrigin origin, List<String> proxies) throws Exception {
        Files.writeString(dir.resolve("proxies.txt"), String.join("\n", proxies) + "\n");
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0, socksPort: 0, accessLog: true }
                clients: [{ name: %s, secretHash: "%s" }]
                providers: [{ name: lab, type: text_list, path: proxies.txt }]
                upstreams: [{ name: lab, provider: lab, validate: false, resolveDestinations: false }]
                health:
                  active: { enabled: false }
                  passive: { consecutiveFailures: 1000, minSamples: 1000000 }
                routings:
                  - { name: waiting, match: { headers: { X-Test-Routing: wait } }, filter: { labels: { country: ZZ } },
                      onNoCandidate: wait, waitTimeout: %dms }
                  - { name: all, strategy: roundRobin, retry: { maxAttempts: 2, budgetPercent: 100 } }
                security: { allowDestinations: ["127.0.0.1/32"], connectPorts: [%d] }
                """.formatted(
                        USER, SecretHash.hash(SECRET.toCharArray(), ITERATIONS), WAIT.toMillis(), origin.port()));
        ProxyPoolServer s = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                .configDir(dir)
                .start();
        try {
            Await.atMost(Duration.ofSeconds(20))
                    .until(
                            "the " + proxies.size() + " proxies in the pool",
                            () -> EmbeddedProxyPool.engineOf(s.pool())
                                            .snapshot()
                                            .proxies()
                                            .size()
                                    == proxies.size());
        } catch (RuntimeException | Error e) {
            s.close();
            throw e;
        }
        return s;
    }

    /** The client side: each round drives every path once, checking every answer. */
    static final class Traffic {
        private final ProxyPoolServer server;
        private final FakeOrigin origin;
        final AtomicInteger exchanges = new AtomicInteger();
        final AtomicInteger retried = new AtomicInteger();

        Traffic(ProxyPoolServer server, FakeOrigin origin) {
            this.server = server;
            this.origin = origin;
        }

        void round() throws IOException {
            keepAlive(4);
            tunnel();
            socks();
            socksWrongSecret();
            missingCredentials();
            wrongSecret();
            deniedDestination();
            waitingRouting();
        }

        /** {@code rounds} rounds on each of {@code clients} threads at once. */
        void concurrently(int clients, int rounds) throws Exception {
            List<Future<?>> running = new ArrayList<>();
            try (ExecutorService threads = Executors.newFixedThreadPool(clients)) {
                for (int c = 0; c < clients; c++) {
                    running.add(threads.submit(() -> {
                        for (int i = 0; i < rounds; i++) {
                            round();
                        }
                        return null;
                    }));
                }
                for (Future<?> f : running) {
                    try {
                        f.get(120, TimeUnit.SECONDS);
                    } catch (ExecutionException e) {
                        if (e.getCause() instanceof Exception x) {
                            throw x;
                        }
                        throw new AssertionError(e.getCause());
                    }
                }
            }
        }

        /** {@code n} forwarded GETs on one client connection (each to the next proxy of the round-robin). */
        void keepAlive(int n) throws IOException {
            try (Socket s = client(server.gatewayPort())) {
                InputStream in = RawHttp.buffered(s);
                for (int i = 0; i < n; i++) {
                    RawHttp.Response r = RawHttp.exchange(
                            in,
                            s.getOutputStream(),
                            "GET " + origin.url("/bytes?n=" + BODY) + " HTTP/1.1\r\nHost: " + origin.authority()
                                    + "\r\nProxy-Authorization: " + basic(SECRET) + "\r\n\r\n",
                            false);
                    assertEquals(200, r.status(), "forwarded GET " + i + ": " + r.header("X-ProxyPool-Error"));
                    assertEquals(BODY, r.body().length);
                    counted(r);
                }
            }
        }

        /** {@code CONNECT} to the origin, then a GET inside the tunnel. */
        void tunnel() throws IOException {
            try (Socket s = client(server.gatewayPort())) {
                InputStream in = RawHttp.buffered(s);
                RawHttp.Response est = RawHttp.exchange(
                        in,
                        s.getOutputStream(),
                        "CONNECT " + origin.authority() + " HTTP/1.1\r\nHost: " + origin.authority()
                                + "\r\nProxy-Authorization: " + basic(SECRET) + "\r\n\r\n",
                        true);
                assertEquals(200, est.status(), "CONNECT: " + est.header("X-ProxyPool-Error"));
                counted(est);
                getInside(in, s.getOutputStream());
            }
        }

        /** SOCKS5 with username and password (RFC 1928, RFC 1929) to the origin, then a GET inside. */
        void socks() throws IOException {
            try (Socket s = client(server.socksPort())) {
                InputStream in = RawHttp.buffered(s);
                OutputStream out = s.getOutputStream();
                assertEquals(0, socksLogin(in, out, SECRET), "the login is accepted");
                int port = origin.port();
                out.write(new byte[] {5, 1, 0, 1, 127, 0, 0, 1, (byte) (port >> 8), (byte) port});
                out.flush();
                byte[] reply = in.readNBytes(4);
                assertEquals(4, reply.length);
                assertEquals(0, reply[1], "SOCKS5 CONNECT succeeded");
                int addressBytes = switch (reply[3]) {
                    case 1 -> 4;
                    case 4 -> 16;
                    default -> in.read();
                };
                assertEquals(addressBytes + 2, in.readNBytes(addressBytes + 2).length);
                exchanges.incrementAndGet();
                getInside(in, out);
            }
        }

        /** SOCKS5 with a wrong password: refused (RFC 1929 status not 0) after the hash off the loops. */
        void socksWrongSecret() throws IOException {
            try (Socket s = client(server.socksPort())) {
                assertTrue(socksLogin(RawHttp.buffered(s), s.getOutputStream(), "not-" + SECRET) != 0, "refused");
                exchanges.incrementAndGet();
            }
        }

        /** Offers username/password, logs in as {@value #USER}: the RFC 1929 status (0: accepted). */
        private static int socksLogin(InputStream in, OutputStream out, String secret) throws IOException {
            out.write(new byte[] {5, 1, 2}); // one method offered: username/password
            out.flush();
            assertArrayEquals(new byte[] {5, 2}, in.readNBytes(2), "the gateway picks username/password");
            byte[] user = USER.getBytes(StandardCharsets.UTF_8);
            byte[] pass = secret.getBytes(StandardCharsets.UTF_8);
            byte[] login = new byte[3 + user.length + pass.length];
            login[0] = 1;
            login[1] = (byte) user.length;
            System.arraycopy(user, 0, login, 2, user.length);
            login[2 + user.length] = (byte) pass.length;
            System.arraycopy(pass, 0, login, 3 + user.length, pass.length);
            out.write(login);
            out.flush();
            byte[] status = in.readNBytes(2);
            assertEquals(2, status.length, "a login status");
            assertEquals(1, status[0], "RFC 1929 version");
            return status[1];
        }

        /** No {@code Proxy-Authorization}: 407, answered on the loop. */
        void missingCredentials() throws IOException {
            try (Socket s = client(server.gatewayPort())) {
                RawHttp.Response r = RawHttp.exchange(
                        RawHttp.buffered(s),
                        s.getOutputStream(),
                        "GET " + origin.url("/") + " HTTP/1.1\r\nHost: " + origin.authority() + "\r\n\r\n",
                        false);
                assertEquals(407, r.status());
                assertNotNull(r.header("Proxy-Authenticate"));
                exchanges.incrementAndGet();
            }
        }

        /**
         * A wrong secret: 407 after a PBKDF2 of the configured cost, computed off the loops (a failure
         * is never remembered), whose answer comes back to the connection's loop.
         */
        void wrongSecret() throws IOException {
            try (Socket s = client(server.gatewayPort())) {
                RawHttp.Response r = RawHttp.exchange(
                        RawHttp.buffered(s),
                        s.getOutputStream(),
                        "GET " + origin.url("/") + " HTTP/1.1\r\nHost: " + origin.authority()
                                + "\r\nProxy-Authorization: " + basic("not-" + SECRET) + "\r\n\r\n",
                        false);
                assertEquals(407, r.status());
                exchanges.incrementAndGet();
            }
        }

        /** An address outside {@code allowDestinations}: 403, decided on the loop (a literal: no lookup). */
        void deniedDestination() throws IOException {
            try (Socket s = client(server.gatewayPort())) {
                RawHttp.Response r = RawHttp.exchange(
                        RawHttp.buffered(s),
                        s.getOutputStream(),
                        "GET http://192.0.2.7/ HTTP/1.1\r\nHost: 192.0.2.7\r\nProxy-Authorization: " + basic(SECRET)
                                + "\r\n\r\n",
                        false);
                assertEquals(403, r.status(), r.header("X-ProxyPool-Error"));
                exchanges.incrementAndGet();
            }
        }

        /**
         * A request of the routing that waits ({@code onNoCandidate: wait}, a filter no proxy matches): it waits
         * {@link #WAIT} off the loops, then 503 {@code no_candidate}; the loop serves the other connections meanwhile.
         */
        void waitingRouting() throws IOException {
            try (Socket s = client(server.gatewayPort())) {
                long start = System.nanoTime();
                RawHttp.Response r = RawHttp.exchange(
                        RawHttp.buffered(s),
                        s.getOutputStream(),
                        "GET " + origin.url("/bytes?n=1") + " HTTP/1.1\r\nHost: " + origin.authority()
                                + "\r\nX-Test-Routing: wait\r\nProxy-Authorization: " + basic(SECRET) + "\r\n\r\n",
                        false);
                long waited = (System.nanoTime() - start) / 1_000_000;
                assertEquals(503, r.status(), r.header("X-ProxyPool-Error"));
                assertEquals("no_candidate", r.header("X-ProxyPool-Error"));
                assertTrue(waited >= WAIT.toMillis() - 20, "it waited for a proxy: " + waited + " ms");
                exchanges.incrementAndGet();
            }
        }

        private void getInside(InputStream in, OutputStream out) throws IOException {
            RawHttp.Response inner = RawHttp.exchange(
                    in, out, "GET /bytes?n=" + BODY + " HTTP/1.1\r\nHost: " + origin.authority() + "\r\n\r\n", false);
            assertEquals(200, inner.status());
            assertEquals(BODY, inner.body().length);
            exchanges.incrementAndGet();
        }

        private void counted(RawHttp.Response r) {
            exchanges.incrementAndGet();
            String attempts = r.header("X-ProxyPool-Attempts");
            if (attempts != null && Integer.parseInt(attempts) > 1) {
                retried.incrementAndGet();
            }
        }

        /** Until no attempt holds capacity: every tunnel and exchange has been ended by the loops. */
        void awaitSettled() {
            Await.atMost(Duration.ofSeconds(20))
                    .until(
                            "no gateway attempt and no capacity unit in flight",
                            () -> server.gatewayEngine().inFlight() + " attempts, "
                                    + EmbeddedProxyPool.engineOf(server.pool()).inFlight() + " capacity units",
                            v -> v.equals("0 attempts, 0 capacity units"));
        }

        private static Socket client(int port) throws IOException {
            Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
            s.setSoTimeout(20_000);
            s.setTcpNoDelay(true);
            return s;
        }

        private static String basic(String secret) {
            return "Basic "
                    + Base64.getEncoder().encodeToString((USER + ":" + secret).getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void anAuthenticatorThatParksOnTheLoopFailsTheCheck() throws Exception {
        // stands in for any wait a change could bring onto the loop (a lock, a future): 5 ms per check
        assertCaught("jdk.ThreadPark", origin -> header -> {
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
            return header == null ? null : USER;
        });
    }

    @Test
    void anAuthenticatorThatAsksAServiceOnTheLoopFailsTheCheck() throws Exception {
        // a blocking socket round trip from the loop (a remote credential store), however quick it is
        assertCaught("jdk.SocketRead", origin -> header -> {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), origin.port())) {
                assertEquals(200, RawHttp.get(s, origin.authority(), "/").status());
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            return header == null ? null : USER;
        });
    }

    /** An authenticator made for the test's origin. */
    @FunctionalInterface
    interface BlockingAuthenticator {
        ProxyAuthenticator against(FakeOrigin origin);
    }

    /**
     * Runs forwarded requests and a tunnel through a server whose authenticator blocks on the loop that
     * calls it, under the same check as the steady-state test, and asserts the check fails naming
     * {@code event} on a loop thread, in the authenticator, once per request at least.
     */
    private void assertCaught(String event, BlockingAuthenticator blocking) throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                RealProxy squid = RealProxy.squid();
                ProxyPoolServer server = blockingServer(origin, squid, blocking.against(origin))) {
            Traffic t = new Traffic(server, origin);
            t.keepAlive(2);
            t.awaitSettled();
            try (LoopBlockingCheck check = loopCheck().start()) {
                t.keepAlive(3);
                t.tunnel();
                t.awaitSettled();
                AssertionError e = assertThrows(AssertionError.class, check::assertNoBlocking);
                List<LoopBlockingCheck.Blocking> inAuthenticator = new ArrayList<>();
                for (LoopBlockingCheck.Blocking b : check.stop()) {
                    if (b.event().equals(event)
                            && b.frames().stream().anyMatch(f -> f.contains(NoBlockingOnLoopsTest.class.getName()))) {
                        inAuthenticator.add(b);
                    }
                }
                assertTrue(
                        inAuthenticator.size() >= 4,
                        "each of the 4 requests' checks blocked on its loop: " + e.getMessage());
                for (LoopBlockingCheck.Blocking b : inAuthenticator) {
                    assertTrue(b.thread().matches(LOOP_THREADS), b.toString());
                }
                assertTrue(e.getMessage().contains(event + " on 'gateway-loop-"), e.getMessage());
            }
        }
    }

    private ProxyPoolServer blockingServer(FakeOrigin origin, RealProxy squid, ProxyAuthenticator auth)
            throws Exception {
        Files.writeString(dir.resolve("one.txt"), squid.url() + "\n");
        Path cfg = dir.resolve("blocking.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                providers: [{ name: lab, type: text_list, path: one.txt }]
                upstreams: [{ name: lab, provider: lab, validate: false, resolveDestinations: false }]
                health: { active: { enabled: false } }
                routings: [{ name: all }]
                security: { allowDestinations: ["127.0.0.1/32"], connectPorts: [%d] }
                """.formatted(origin.port()));
        ProxyPoolServer s = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                .configDir(dir)
                .authenticator(auth)
                .start();
        try {
            Await.atMost(Duration.ofSeconds(20))
                    .until(
                            "squid in the pool",
                            () -> !EmbeddedProxyPool.engineOf(s.pool())
                                    .snapshot()
                                    .proxies()
                                    .isEmpty());
        } catch (RuntimeException | Error e) {
            s.close();
            throw e;
        }
        return s;
    }
}
