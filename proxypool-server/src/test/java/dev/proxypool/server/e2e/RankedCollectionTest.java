package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.pipeline.CollectionPipeline;
import dev.proxypool.sdk.pipeline.PipelineRound;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import dev.proxypool.testkit.Faults;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ranking across rounds (docs/design.md P10) through a running server with the real validator:
 * fake proxies send their traffic out of distinct loopback addresses (127.0.0.x, 127.0.1.x), so
 * the validator sees an exit other than its own and the ranker two /24s. Loopback exits have no
 * ASN (always unknown), so the tests lift the unknown-ASN penalty or share. A slow but working
 * proxy earns its place by its success streak; {@code poolSize} bounds the whole active pool,
 * judged for diversity as a whole.
 */
@Tag("slow")
class RankedCollectionTest {

    @TempDir
    Path dir;

    @Test
    void aSlowButWorkingProxyReachesMinScoreAfterEnoughSuccessfulCycles() throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy slow = FakeHttpProxy.builder()
                        .outboundFrom(InetAddress.getByName("127.0.0.2"))
                        .faults(Faults.none().latency(Duration.ofMillis(300)))
                        .start()) {
            inventory("slow.jsonl", slow);
            // latency >= 300 ms scores at most 1000/301 = 3.3; + 2 x streak 1 stays below 13 however
            // fast the machine, while streak 6 and more passes it for any latency under a second
            try (ProxyPoolServer server = start("""
                            providers: [{ name: slow, type: jsonl_inventory, path: slow.jsonl }]
                            upstreams: [{ name: slow, provider: slow, fetch: { interval: 1s } }]
                            pipeline: { minScore: 13, unknownAsnPenalty: 1 }
                            """);
                    HttpClient gw = gateway(server)) {
                CollectionPipeline pipeline =
                        EmbeddedProxyPool.pipelineOf(server.pool()).orElseThrow();
                assertTrue(
                        pipeline.status().getFirst().lastDrops().containsKey("rank_below_min_score"),
                        "one success is not enough: " + pipeline.status());
                Await.atMost(Duration.ofSeconds(30))
                        .until(
                                "the slow proxy enters the pool on its streak",
                                () -> ports(server).contains(slow.port()));
                long before = slow.requests();
                HttpResponse<String> r = gw.send(
                        HttpRequest.newBuilder(origin.uri("/echo"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), r.body());
                assertTrue(slow.requests() > before, "served through the slow proxy");
            }
        }
    }

    @Test
    void poolSizeBoundsTheWholeActivePoolWithDiversityJudgedOverEveryUpstream() throws Exception {
        // equally slow (50 ms), so a few milliseconds of noise never outweigh sharing a network and a /24
        try (FakeHttpProxy a1 = exitFrom("127.0.0.2");
                FakeHttpProxy a2 = exitFrom("127.0.0.3");
                FakeHttpProxy b1 = exitFrom("127.0.1.2")) {
            inventory("a.jsonl", a1, a2);
            inventory("b.jsonl", b1);
            try (ProxyPoolServer server = start("""
                    providers:
                      - { name: a, type: jsonl_inventory, path: a.jsonl }
                      - { name: b, type: jsonl_inventory, path: b.jsonl }
                    upstreams:
                      - { name: a, provider: a, fetch: { interval: 1s } }
                      - { name: b, provider: b, fetch: { interval: 1s } }
                    pipeline: { minScore: 0, poolSize: 2, reserveSize: 5, unknownAsnMaxShare: 1 }
                    """)) {
                CollectionPipeline pipeline =
                        EmbeddedProxyPool.pipelineOf(server.pool()).orElseThrow();
                AtomicInteger rounds = new AtomicInteger();
                AtomicInteger largest = new AtomicInteger();
                pipeline.addListener(new CollectionPipeline.Listener() {
                    @Override
                    public void onRound(PipelineRound round) {
                        if (!round.reports().isEmpty()) {
                            rounds.incrementAndGet();
                            largest.accumulateAndGet(ports(server).size(), Math::max);
                        }
                    }
                });
                Await.atMost(Duration.ofSeconds(20)).until("six more rounds", () -> rounds.get() >= 6);
                assertTrue(largest.get() <= 2, "the active pool never exceeds poolSize 2: " + largest.get());
                Set<Integer> active = ports(server);
                assertEquals(2, active.size(), "both places filled: " + active);
                assertTrue(active.contains(b1.port()), "the only proxy of the other network is one of the two");
                assertTrue(
                        active.contains(a1.port()) ^ active.contains(a2.port()),
                        "one of the two sharing a network and a /24: " + active);
            }
        }
    }

    private FakeHttpProxy exitFrom(String address) throws Exception {
        return FakeHttpProxy.builder()
                .outboundFrom(InetAddress.getByName(address))
                .faults(Faults.none().latency(Duration.ofMillis(50)))
                .start();
    }

    private ProxyPoolServer start(String collection) throws Exception {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                health: { active: { enabled: false } }
                security: { allowDestinations: ["127.0.0.0/8"] }
                """ + collection);
        return ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                .configDir(dir)
                .start();
    }

    private void inventory(String file, FakeHttpProxy... proxies) throws Exception {
        StringBuilder lines = new StringBuilder();
        for (FakeHttpProxy p : proxies) {
            lines.append("{\"host\": \"127.0.0.1\", \"port\": ")
                    .append(p.port())
                    .append(", \"protocol\": \"http\"}\n");
        }
        Files.writeString(dir.resolve(file), lines);
    }

    private static HttpClient gateway(ProxyPoolServer server) {
        return HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                .build();
    }

    private static Set<Integer> ports(ProxyPoolServer server) {
        return EmbeddedProxyPool.engineOf(server.pool()).snapshot().proxies().stream()
                .map(Proxy::port)
                .collect(Collectors.toSet());
    }
}
