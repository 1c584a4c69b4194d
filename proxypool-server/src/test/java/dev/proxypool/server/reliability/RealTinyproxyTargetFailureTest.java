package dev.proxypool.server.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.HealthState;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.RawHttp;
import dev.proxypool.testkit.TestPorts;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real tinyproxy (Debian package {@code tinyproxy}, started here as a child process on a loopback
 * port) as the only upstream. tinyproxy answers {@code 500 Unable to connect} to a {@code CONNECT}
 * whenever the destination cannot be reached; a browser's background connections to dead hosts
 * used to count as proxy faults and take the only proxy out of service after three. The dead
 * destination is a refused loopback port, so the test needs no DNS and no network.
 */
@Timeout(120)
class RealTinyproxyTargetFailureTest {

    private static final Path TINYPROXY = Path.of("/usr/bin/tinyproxy");
    private static final int DEAD_TUNNELS = 12;

    @TempDir
    Path dir;

    @Test
    void tinyproxyRefusingADeadDestinationWith500KeepsTheOnlyProxyServing() throws Exception {
        assertTrue(Files.isExecutable(TINYPROXY), TINYPROXY + " is missing: install the Debian package tinyproxy");
        try (FakeOrigin origin = FakeOrigin.start();
                Tinyproxy tp = Tinyproxy.start(dir);
                UpstreamBench b = new UpstreamBench(dir, "", List.of(UpstreamBench.key(Protocol.HTTP, tp.port())))) {
            ProxyHealth health = b.health(0);
            String dead = "127.0.0.1:" + TestPorts.closedPort();
            for (int i = 0; i < DEAD_TUNNELS; i++) {
                try (Socket s = b.client()) {
                    InputStream in = RawHttp.buffered(s);
                    RawHttp.Response r = RawHttp.exchange(in, s.getOutputStream(), UpstreamBench.connect(dead), true);
                    assertEquals(502, r.status(), "turn " + i + ": tinyproxy could not reach the destination");
                }
                b.assertCapacityBackToZero(); // the attempt has reported to health
                assertEquals(
                        HealthState.HEALTHY,
                        health.state(),
                        "turn " + i + ": the destination's failure, not the proxy's");
            }
            try (Socket s = b.client()) { // a good destination through the same (only) proxy
                InputStream in = RawHttp.buffered(s);
                assertEquals(
                        200,
                        RawHttp.exchange(in, s.getOutputStream(), UpstreamBench.connect(origin.authority()), true)
                                .status());
                RawHttp.Response inner = RawHttp.exchange(
                        in, s.getOutputStream(), "GET /bytes?n=2000 HTTP/1.1\r\nHost: x\r\n\r\n", false);
                assertEquals(200, inner.status());
                assertEquals(2000, inner.body().length);
            }
            RawHttp.Response forwarded = b.send(UpstreamBench.get(origin.url("/bytes?n=700")), false);
            assertEquals(200, forwarded.status(), "plain HTTP through tinyproxy");
            assertEquals(700, forwarded.body().length);
            b.assertCapacityBackToZero();
            assertEquals(HealthState.HEALTHY, health.state());
        }
    }
}
