package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.sequential.FetchOutcome;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.pipeline.CollectionPipeline;
import dev.proxypool.sdk.pipeline.PipelineRound;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.testkit.Await;
import dev.proxypool.testkit.FakeHttpProxy;
import dev.proxypool.testkit.FakeOrigin;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source's answer is the truth about what it sells (docs/design.md P13): an inventory file
 * rewritten without two of its four proxies withdraws them after the grace of one more successful
 * fetch, and gateway requests stop reaching them; an empty answer afterwards withdraws nothing.
 */
@Tag("slow")
class DelistedProxiesTest {

    @TempDir
    Path dir;

    @Test
    void proxiesTheInventoryNoLongerListsLeaveAfterTwoSuccessfulFetchesAndAnEmptyAnswerRemovesNothing()
            throws Exception {
        try (FakeOrigin origin = FakeOrigin.start();
                FakeHttpProxy kept1 = FakeHttpProxy.start();
                FakeHttpProxy kept2 = FakeHttpProxy.start();
                FakeHttpProxy gone1 = FakeHttpProxy.start();
                FakeHttpProxy gone2 = FakeHttpProxy.start()) {
            Path inventory = dir.resolve("inv.jsonl");
            rewrite(inventory, List.of(kept1, kept2, gone1, gone2));
            Path cfg = dir.resolve("proxypool.yaml");
            Files.writeString(cfg, """
                    server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                    providers: [{ name: lab, type: jsonl_inventory, path: inv.jsonl }]
                    upstreams: [{ name: lab, provider: lab, validate: false, fetch: { interval: 1s } }]
                    health: { active: { enabled: false } }
                    security: { allowDestinations: ["127.0.0.0/8"] }
                    """);
            try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                            .configDir(dir)
                            .start();
                    HttpClient gw = HttpClient.newBuilder()
                            .proxy(ProxySelector.of(new InetSocketAddress("127.0.0.1", server.gatewayPort())))
                            .build()) {
                CollectionPipeline pipeline =
                        EmbeddedProxyPool.pipelineOf(server.pool()).orElseThrow();
                assertEquals(Set.of(kept1.port(), kept2.port(), gone1.port(), gone2.port()), ports(server));

                // per successful fetch after the rewrite: were the de-listed ones still in the pool after it?
                List<Boolean> stillThere = new CopyOnWriteArrayList<>();
                AtomicInteger empties = new AtomicInteger();
                rewrite(inventory, List.of(kept1, kept2));
                pipeline.addListener(new CollectionPipeline.Listener() {
                    @Override
                    public void onRound(PipelineRound round) {
                        round.reports().forEach(r -> {
                            if (r.outcome() instanceof FetchOutcome.Empty) {
                                empties.incrementAndGet();
                            } else if (!(r.outcome() instanceof FetchOutcome.Error)) {
                                stillThere.add(ports(server).contains(gone1.port()));
                            }
                        });
                    }
                });
                Await.atMost(Duration.ofSeconds(20))
                        .until(
                                "the de-listed proxies leave the pool",
                                () -> ports(server).equals(Set.of(kept1.port(), kept2.port())));
                assertTrue(
                        stillThere.size() >= 2,
                        "withdrawn only after the second successful fetch without them: " + stillThere);
                long goneBefore = gone1.requests() + gone2.requests();
                long keptBefore = kept1.requests() + kept2.requests();
                for (int i = 0; i < 8; i++) {
                    HttpResponse<String> r = gw.send(
                            HttpRequest.newBuilder(origin.uri("/echo"))
                                    .timeout(Duration.ofSeconds(10))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, r.statusCode(), r.body());
                }
                assertEquals(
                        goneBefore,
                        gone1.requests() + gone2.requests(),
                        "no gateway request reaches a de-listed proxy");
                assertEquals(keptBefore + 8, kept1.requests() + kept2.requests());

                // an empty answer is taken for a broken one, never for "sells nothing"
                rewrite(inventory, List.of());
                int seen = empties.get();
                Await.atMost(Duration.ofSeconds(20)).until("three empty answers", () -> empties.get() >= seen + 3);
                assertEquals(Set.of(kept1.port(), kept2.port()), ports(server), "nothing withdrawn on empty answers");
                HttpResponse<String> r = gw.send(
                        HttpRequest.newBuilder(origin.uri("/echo"))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), r.body());
            }
        }
    }

    private static Set<Integer> ports(ProxyPoolServer server) {
        return EmbeddedProxyPool.engineOf(server.pool()).snapshot().proxies().stream()
                .map(Proxy::port)
                .collect(Collectors.toSet());
    }

    /** Replaces the file in one step, so no fetch reads it half-written. */
    private void rewrite(Path inventory, List<FakeHttpProxy> proxies) throws Exception {
        StringBuilder lines = new StringBuilder();
        for (FakeHttpProxy p : proxies) {
            lines.append("{\"host\": \"127.0.0.1\", \"port\": ")
                    .append(p.port())
                    .append(", \"protocol\": \"http\"}\n");
        }
        Path tmp = dir.resolve("inv.jsonl.tmp");
        Files.writeString(tmp, lines);
        Files.move(tmp, inventory, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
