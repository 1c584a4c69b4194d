package dev.proxypool.server.reliability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.RealProxy;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code CONNECT} whose first proxy refuses (a real squid, stopped: its
 * port refuses the dial) is retried on another proxy (a real squid, running) before anything reached the
 * client, so every tunnel opens; through it the origin answers. Real squids (Debian package {@code
 * squid}) as child processes on loopback ports, the real gateway with the pool engine in front.
 */
@Timeout(120)
class SquidConnectRetryTest {

    private static final int TUNNELS = 10;

    @TempDir
    Path dir;

    @Test
    void aConnectWhoseFirstSquidRefusesIsRetriedOnTheOtherSquid() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                RealProxy stopped = RealProxy.squid();
                RealProxy live = RealProxy.squid();
                UpstreamBench b = new UpstreamBench(
                        dir,
                        "",
                        List.of(
                                UpstreamBench.key(Protocol.HTTP, stopped.port()),
                                UpstreamBench.key(Protocol.HTTP, live.port())))) {
            assertTrue(
                    Thread.getAllStackTraces().keySet().stream()
                            .anyMatch(t -> t.getName().startsWith("gateway-loop")),
                    "the gateway runs on its event loops");
            stopped.close(); // its port is closed now: a dial to it is refused
            int retried = 0;
            for (int i = 0; i < TUNNELS; i++) {
                retried += b.tunnelThrough(origin.authority(), 1, i) - 1;
            }
            // the round-robin gave the stopped squid first attempts: those tunnels needed the second one
            assertTrue(retried >= 1, "retried " + retried);
        }
    }
}
