package dev.proxypool.server.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.server.gateway.ExchangeRecord;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.RawHttp;
import dev.proxypool.testkit.TestPorts;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An HTTP {@code CONNECT} whose tunnel could not be opened is retried on another proxy, like a SOCKS5
 * one, as long as nothing reached the client: two real tinyproxies (Debian package {@code tinyproxy},
 * child processes on loopback ports) behind the real gateway, one of them stopped. The routing allows
 * 2 attempts ({@link UpstreamBench}). Before the fix every CONNECT the round-robin gave the stopped
 * proxy was answered 502.
 */
@Timeout(120)
class ConnectRetryTest {

    private static final Path TINYPROXY = Path.of("/usr/bin/tinyproxy");
    private static final int TUNNELS = 12;
    private static final Pattern ATTEMPTS = Pattern.compile("(?im)^X-ProxyPool-Attempts: (\\d+)\\r?$");

    @TempDir
    Path dir;

    @Test
    void aConnectWhoseProxyIsStoppedIsRetriedOnTheLiveOneEveryTime() throws Exception {
        assertTrue(Files.isExecutable(TINYPROXY), TINYPROXY + " is missing: install the Debian package tinyproxy");
        try (FakeOrigin origin = FakeOrigin.start();
                Tinyproxy stopped = Tinyproxy.start(dir);
                Tinyproxy live = Tinyproxy.start(dir);
                UpstreamBench b = new UpstreamBench(
                        dir,
                        "",
                        List.of(
                                UpstreamBench.key(Protocol.HTTP, stopped.port()),
                                UpstreamBench.key(Protocol.HTTP, live.port())))) {
            stopped.close(); // its port is closed now: a dial to it is refused
            int retried = 0;
            for (int i = 0; i < TUNNELS; i++) {
                retried += b.tunnelThrough(origin.authority(), 1, i) - 1;
            }
            // the picker gave the stopped proxy some first attempts: those tunnels needed the second one
            assertTrue(retried >= 1, "retried " + retried);
            // the exchange records (admin request log) count the attempts as the header did
            Await.atMost(Duration.ofSeconds(10))
                    .until("an exchange record per tunnel", b.exchanges::size, n -> n == TUNNELS);
            int recordedRetries = 0;
            for (ExchangeRecord e : b.exchanges) {
                assertEquals(200, e.status(), e.toString());
                assertTrue(e.attempts() >= 1 && e.attempts() <= 2, e.toString());
                recordedRetries += e.attempts() - 1;
            }
            assertEquals(retried, recordedRetries);
        }
    }

    @Test
    void curlReachesATlsOriginThroughTheGatewayWhileOneProxyIsStopped() throws Exception {
        assertTrue(Files.isExecutable(TINYPROXY), TINYPROXY + " is missing: install the Debian package tinyproxy");
        try (FakeOrigin origin = FakeOrigin.builder().tls().start();
                Tinyproxy stopped = Tinyproxy.start(dir);
                Tinyproxy live = Tinyproxy.start(dir);
                UpstreamBench b = new UpstreamBench(
                        dir,
                        "",
                        List.of(
                                UpstreamBench.key(Protocol.HTTP, stopped.port()),
                                UpstreamBench.key(Protocol.HTTP, live.port())))) {
            stopped.close();
            int secondAttempts = 0;
            for (int i = 0; i < 6; i++) {
                String[] r = curl("-k", "-i", "-x", "http://127.0.0.1:" + b.port(), origin.url("/bytes?n=1000"));
                assertEquals("0", r[0], "turn " + i + ": curl succeeded: " + r[2]);
                assertTrue(r[1].startsWith("HTTP/1.1 200"), "turn " + i + ": " + r[1]);
                Matcher m = ATTEMPTS.matcher(r[1]); // the CONNECT answer's headers come first in -i output
                assertTrue(m.find(), "turn " + i + ": the CONNECT answer names its attempts: " + r[1]);
                int attempts = Integer.parseInt(m.group(1));
                assertTrue(attempts >= 1 && attempts <= 2, "turn " + i + ": attempts " + attempts);
                if (attempts == 2) {
                    secondAttempts++;
                }
            }
            assertTrue(secondAttempts >= 1, "the stopped proxy was picked first at least once");
            b.assertCapacityBackToZero();
        }
    }

    @Test
    void whenEveryProxyIsStoppedTheTunnelFailsWith502AfterTheRoutingsAttempts() throws Exception {
        assertTrue(Files.isExecutable(TINYPROXY), TINYPROXY + " is missing: install the Debian package tinyproxy");
        Tinyproxy a = Tinyproxy.start(dir);
        Tinyproxy c = Tinyproxy.start(dir);
        int portA = a.port();
        int portC = c.port();
        a.close();
        c.close();
        try (FakeOrigin origin = FakeOrigin.start();
                UpstreamBench b = new UpstreamBench(
                        dir,
                        "",
                        List.of(UpstreamBench.key(Protocol.HTTP, portA), UpstreamBench.key(Protocol.HTTP, portC)))) {
            RawHttp.Response r = b.send(UpstreamBench.connect(origin.authority()), true);
            assertEquals(502, r.status());
            assertEquals("2", r.header("X-ProxyPool-Attempts"), "the routing's retry.maxAttempts, no more");
            Await.atMost(Duration.ofSeconds(10))
                    .until("one exchange record", () -> List.copyOf(b.exchanges), l -> l.size() == 1);
            ExchangeRecord e = b.exchanges.peek();
            assertEquals(502, e.status());
            assertEquals(2, e.attempts());
            b.assertCapacityBackToZero();
        }
    }

    @Test
    void aTargetSideRefusalByALiveProxyIsNotRetried() throws Exception {
        assertTrue(Files.isExecutable(TINYPROXY), TINYPROXY + " is missing: install the Debian package tinyproxy");
        try (Tinyproxy first = Tinyproxy.start(dir);
                Tinyproxy second = Tinyproxy.start(dir);
                UpstreamBench b = new UpstreamBench(
                        dir,
                        "",
                        List.of(
                                UpstreamBench.key(Protocol.HTTP, first.port()),
                                UpstreamBench.key(Protocol.HTTP, second.port())))) {
            // tinyproxy answers 500 to a CONNECT to a dead destination: the destination is blamed, and
            // another proxy would only spend retry budget on it
            RawHttp.Response r = b.send(UpstreamBench.connect("127.0.0.1:" + TestPorts.closedPort()), true);
            assertEquals(502, r.status());
            assertEquals("1", r.header("X-ProxyPool-Attempts"));
            b.assertCapacityBackToZero();
        }
    }

    @Test
    void theSocks5ListenerFollowsTheSameRuleTargetSideIsNotRetriedAStoppedProxyIs() throws Exception {
        assertTrue(Files.isExecutable(TINYPROXY), TINYPROXY + " is missing: install the Debian package tinyproxy");
        try (FakeOrigin origin = FakeOrigin.start();
                Tinyproxy stopped = Tinyproxy.start(dir);
                Tinyproxy live = Tinyproxy.start(dir);
                UpstreamBench b = new UpstreamBench(
                        dir,
                        "",
                        List.of(
                                UpstreamBench.key(Protocol.HTTP, stopped.port()),
                                UpstreamBench.key(Protocol.HTTP, live.port())))) {
            Proxy socks = new Proxy(Proxy.Type.SOCKS, new InetSocketAddress("127.0.0.1", b.server.socksPort()));
            // both proxies up: tinyproxy answers 500 for a dead destination, target-side, not retried (it was before)
            try (Socket s = new Socket(socks)) {
                assertThrows(
                        IOException.class,
                        () -> s.connect(new InetSocketAddress("127.0.0.1", TestPorts.closedPort()), 20_000));
            }
            b.assertCapacityBackToZero();
            Await.atMost(Duration.ofSeconds(10))
                    .until("one exchange record", () -> List.copyOf(b.exchanges), l -> l.size() == 1);
            assertEquals(1, b.exchanges.peek().attempts(), b.exchanges::toString);
            b.exchanges.clear();
            stopped.close(); // its port is closed now
            for (int i = 0; i < 4; i++) { // a stopped proxy is left for the live one
                try (Socket s = new Socket(socks)) {
                    s.setSoTimeout(20_000);
                    s.connect(new InetSocketAddress("127.0.0.1", origin.port()), 20_000);
                    InputStream in = RawHttp.buffered(s);
                    RawHttp.Response r = RawHttp.exchange(
                            in, s.getOutputStream(), "GET /bytes?n=500 HTTP/1.1\r\nHost: x\r\n\r\n", false);
                    assertEquals(500, r.body().length, "turn " + i);
                }
            }
            b.assertCapacityBackToZero();
            Await.atMost(Duration.ofSeconds(10)).until("4 exchange records", b.exchanges::size, n -> n == 4);
            assertTrue(
                    b.exchanges.stream().allMatch(e -> e.status() == 200 && e.attempts() <= 2), b.exchanges::toString);
            assertTrue(b.exchanges.stream().anyMatch(e -> e.attempts() == 2), b.exchanges::toString);
        }
    }

    /** Runs curl; returns [exit code, stdout, stderr]. */
    private static String[] curl(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/curl", "-sS", "--max-time", "20", "--noproxy", ""));
        cmd.addAll(List.of(args));
        File err = File.createTempFile("curl", ".err");
        try {
            Process p = new ProcessBuilder(cmd)
                    .redirectInput(new File("/dev/null"))
                    .redirectError(err)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "curl finished");
            return new String[] {
                Integer.toString(p.exitValue()), out, Files.readString(err.toPath(), StandardCharsets.UTF_8)
            };
        } finally {
            Files.deleteIfExists(err.toPath());
        }
    }
}
