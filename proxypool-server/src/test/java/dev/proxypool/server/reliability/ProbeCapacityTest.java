package dev.proxypool.server.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.capacity.CapacityCell;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.probe.ActiveProber;
import dev.proxypool.sdk.probe.ProbeListener;
import dev.proxypool.sdk.probe.ProbeRound;
import dev.proxypool.sdk.probe.ProberSettings;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.RawHttp;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Active health probes count in a proxy's capacity: a vendor port limited to one connection
 * ({@code maxConcurrency: 1}) that carries a gateway tunnel is not probed next to it (the probe is
 * skipped), and a probe of an idle proxy holds its one unit while it runs.
 */
@Timeout(60)
class ProbeCapacityTest {

    @TempDir
    Path dir;

    @Test
    void aProxyLimitedToOneConnectionIsNeverProbedWhileAGatewayTunnelUsesIt() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy vendor = FakeHttpProxy.builder().start();
                UpstreamBench b =
                        new UpstreamBench(dir, "", List.of(UpstreamBench.key(Protocol.HTTP, vendor.port())), 1)) {
            CapacityCell capacity = EmbeddedProxyPool.engineOf(b.pool)
                    .registry()
                    .runtimeFor(b.proxies.getFirst())
                    .capacity();
            AtomicInteger heldDuringProbe = new AtomicInteger(-1);
            ActiveProber prober = ActiveProber.builder(
                            EmbeddedProxyPool.dialerOf(b.pool),
                            () -> EmbeddedProxyPool.engineOf(b.pool).snapshot().proxies(),
                            EmbeddedProxyPool.engineOf(b.pool).registry())
                    .settings(ProberSettings.builder()
                            .targets(List.of(URI.create(origin.url("/bytes?n=10"))))
                            .timeout(Duration.ofSeconds(5))
                            .build())
                    .listener(new ProbeListener() {
                        @Override
                        public void succeeded(Proxy proxy, URI target, Duration latency) {
                            heldDuringProbe.set(capacity.inFlight());
                        }
                    })
                    .build();
            try (Socket client = b.client()) { // a gateway tunnel holds the proxy's only unit
                InputStream in = RawHttp.buffered(client);
                assertEquals(
                        200,
                        RawHttp.exchange(in, client.getOutputStream(), UpstreamBench.connect(origin.authority()), true)
                                .status());
                assertEquals(1, capacity.inFlight(), "the tunnel holds the one unit");

                ProbeRound busy = prober.runOnce();

                assertEquals(1, busy.skipped(), "a full proxy is skipped");
                assertEquals(0, busy.succeeded() + busy.failed());
                assertEquals(1, vendor.maxOpenConnections(), "the vendor port never saw a second connection");
                RawHttp.Response inner = RawHttp.exchange(
                        in, client.getOutputStream(), "GET /bytes?n=300 HTTP/1.1\r\nHost: x\r\n\r\n", false);
                assertEquals(300, inner.body().length, "the tunnel is untouched");
            }
            b.assertCapacityBackToZero();

            ProbeRound idle = prober.runOnce();

            assertEquals(1, idle.succeeded(), "an idle proxy is probed");
            assertEquals(1, heldDuringProbe.get(), "the probe held the proxy's one unit while it ran");
            assertEquals(0, capacity.inFlight(), "and gave it back");
            assertEquals(1, vendor.maxOpenConnections());
            assertTrue(vendor.acceptedConnections() >= 2, "tunnel, then probe");
        }
    }
}
