package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sources fetch independently, each within its own timeout (docs/design.md P2): a feed that never
 * answers must not stretch the rounds of another source, which keeps its 1 s interval while the
 * hanging fetch waits out its 5 s deadline.
 */
@Tag("slow")
class HangingSourceTest {

    @TempDir
    Path dir;

    @Test
    void aHangingFeedDoesNotSlowAnotherSourcesFetches() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger hanging = new AtomicInteger();
        AtomicInteger steady = new AtomicInteger();
        HttpServer feeds = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        feeds.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        try (FakeHttpProxy proxy = FakeHttpProxy.start()) {
            feeds.createContext("/hang", ex -> {
                hanging.incrementAndGet();
                try {
                    release.await(30, TimeUnit.SECONDS); // holds the answer; bounded, and released at the end
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ex.close();
            });
            feeds.createContext("/list", ex -> {
                steady.incrementAndGet();
                byte[] body = ("http://127.0.0.1:" + proxy.port() + "\n").getBytes(StandardCharsets.UTF_8);
                ex.sendResponseHeaders(200, body.length);
                ex.getResponseBody().write(body);
                ex.close();
            });
            feeds.start();
            int port = feeds.getAddress().getPort();
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    providers:
                      - { name: stuck, type: text_list, url: "http://127.0.0.1:%d/hang" }
                      - { name: steady, type: text_list, url: "http://127.0.0.1:%d/list" }
                    upstreams:
                      - { name: stuck, provider: stuck, validate: false, fetch: { interval: 1s } }
                      - { name: steady, provider: steady, validate: false, fetch: { interval: 1s } }
                    health: { active: { enabled: false } }
                    """.formatted(port, port));
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                    .configDir(dir)
                    .start()) {
                Await.atMost(Duration.ofSeconds(10))
                        .until("the stuck feed is asked again (its first fetch timed out)", () -> hanging.get() >= 2);
                int before = steady.get();
                // the next stuck fetch hangs for its 5 s deadline; the steady source keeps its 1 s interval (about
                // five fetches). A round waiting for the stuck fetch allowed at most the one started with it.
                Await.atMost(Duration.ofMillis(4_800))
                        .until("steady fetches go on while the stuck one hangs", () -> steady.get() >= before + 2);
                assertTrue(hanging.get() <= 3, "the stuck feed is not asked more often than its timeout allows");
            }
        } finally {
            release.countDown();
            feeds.stop(0);
        }
    }
}
