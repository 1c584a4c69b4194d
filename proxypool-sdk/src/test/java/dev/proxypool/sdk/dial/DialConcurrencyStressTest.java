package dev.proxypool.sdk.dial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.FakeServer;
import dev.proxypool.testkit.RawHttp;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** One dialer shared by many virtual threads, good and wrong credentials mixed: right answers, nothing leaked. */
@Tag("slow")
class DialConcurrencyStressTest {

    private static final int THREADS = 64;
    private static final int DIALS = 6;

    @Test
    void concurrentDialsThroughEveryKindLeakNothing() throws Exception {
        ProxyKind[] kinds = ProxyKind.values();
        Map<ProxyKind, FakeServer> fakes = new EnumMap<>(ProxyKind.class);
        try (FakeOrigin origin = FakeOrigin.start()) {
            for (ProxyKind k : kinds) {
                fakes.put(k, k.start());
            }
            // generous timeouts: 64 concurrent TLS handshakes on a loaded 2-core box can pass the 5 s default,
            // and this test is about leaks, not speed
            UpstreamDialer dialer = ProxyKind.dialer(new DialPolicy(Duration.ofSeconds(30), Duration.ofSeconds(30)));
            List<Future<?>> results = new ArrayList<>();
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int t = 0; t < THREADS; t++) {
                    int id = t;
                    results.add(pool.submit(() -> {
                        for (int i = 0; i < DIALS; i++) {
                            ProxyKind k = kinds[(id + i) % kinds.length];
                            boolean wrong = k.auth && (id + i) % 3 == 0;
                            var proxy = wrong ? k.proxy(fakes.get(k), ProxyKind.WRONG) : k.proxy(fakes.get(k));
                            try (Socket s = dialer.connect(proxy, "127.0.0.1", origin.port())) {
                                assertEquals(false, wrong, k + " accepted wrong credentials");
                                assertEquals(
                                        200,
                                        RawHttp.get(s, origin.authority(), "/echo")
                                                .status());
                            } catch (DialException e) {
                                assertTrue(wrong, k + ": " + e.getMessage());
                                assertEquals(FailureKind.PROXY_AUTH_REJECTED, e.kind());
                            }
                        }
                        return null;
                    }));
                }
                for (Future<?> f : results) {
                    f.get();
                }
            }
            for (FakeServer f : fakes.values()) {
                assertTrue(f.awaitIdle(Duration.ofSeconds(10)), f + " leaked");
                assertEquals(0, f.handlerErrors());
            }
            assertTrue(origin.awaitIdle(Duration.ofSeconds(10)));
        } finally {
            fakes.values().forEach(FakeServer::close);
        }
    }
}
