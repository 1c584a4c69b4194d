package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.dispatch.Strategy;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.server.gateway.ExchangeResult;
import dev.proxypool.server.metrics.HelidonGatewayMetrics;
import io.helidon.metrics.api.Counter;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The admin API additions the console reads: {@code GET /series}, {@code GET /pipeline}, the masked
 * listing with its total, the audited reveal, and domain bans in the proxy view.
 */
class ConsoleApiTest {

    static final int SIZE = 300;

    static AdminFixture.Options options() {
        return AdminFixture.options()
                .proxies(AdminFixture.proxies(SIZE, "up-a", "up-b", "up-c"))
                .routings(
                        RoutingRule.builder("shop")
                                .strategy(Strategy.SEQUENTIAL)
                                .upstreams("up-a", "up-b")
                                .build(),
                        RoutingRule.builder("plain").build());
    }

    @Test
    void theSeriesGivesRatesOverTheSampleIntervalAndThePoolByUpstreamAndHealth() {
        try (AdminFixture f = options().series().start()) {
            // the meters the gateway and the distribution service record into (same names, tags and
            // help texts: the registry is the process's, which other tests scrape and lint)
            Counter requests = f.registry.getOrCreate(Counter.builder("proxypool.gateway.requests")
                    .description("Gateway requests and tunnels by outcome")
                    .tags(List.of(
                            io.helidon.metrics.api.Tag.create("kind", "http"),
                            io.helidon.metrics.api.Tag.create("result", "ok"))));
            Counter extracted = f.registry.getOrCreate(Counter.builder("proxypool.extraction.proxies")
                    .description("Proxies handed out by the Distribution API"));
            f.series.sample();
            requests.increment(30);
            extracted.increment(5);
            f.clock.advance(Duration.ofSeconds(2));
            f.series.sample();

            Map<String, Object> body = f.get("/series").json();
            assertEquals(0, new BigDecimal(2).compareTo((BigDecimal) body.get("intervalSeconds")));
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> samples = (List<Map<String, Object>>) body.get("samples");
            assertEquals(2, samples.size());
            Map<String, Object> last = samples.getLast();
            assertEquals(
                    0, new BigDecimal("15.0").compareTo((BigDecimal) last.get("requestsPerSecond")), last.toString());
            assertEquals(
                    0, new BigDecimal("2.5").compareTo((BigDecimal) last.get("extractionsPerSecond")), last.toString());
            assertEquals(new BigDecimal(SIZE), last.get("healthy"));
            assertEquals(new BigDecimal(SIZE * 4), last.get("capacityLimit"), "4 per proxy");
            assertEquals(new BigDecimal(0), last.get("capacityInUse"));
            assertEquals(
                    new BigDecimal(EmbeddedProxyPool.engineOf(f.pool).snapshot().version()),
                    last.get("snapshotVersion"));
            assertNull(last.get("p50Ms"), "no gateway latency recorded yet");
            assertEquals(true, body.get("storeUp"));
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> pool = (Map<String, Map<String, Object>>) body.get("pool");
            assertEquals(List.of("up-a", "up-b", "up-c"), List.copyOf(pool.keySet()));
            assertEquals(new BigDecimal(SIZE / 3), pool.get("up-a").get("healthy"));
            assertEquals(new BigDecimal(SIZE / 3), pool.get("up-a").get("stored"));
            assertEquals(new BigDecimal(0), pool.get("up-a").get("cooling"));
        }
    }

    @Test
    void theFirstSampleOnlyStartsTheLatencyWindowWhateverTheSharedHistogramHeldBefore() {
        try (AdminFixture f = options().series().start()) {
            // the JVM's registry may already hold requests, e.g. of another server in the same JVM
            HelidonGatewayMetrics gateway = new HelidonGatewayMetrics(f.registry);
            for (int i = 0; i < 10; i++) {
                gateway.started(false);
                gateway.finished(false, ExchangeResult.OK, 400_000_000L);
            }
            LiveSeries.Sample first = f.series.sample();
            assertNull(first.p50Ms(), "what the histogram held before the series is not its window's: " + first);
            for (int i = 0; i < 10; i++) {
                gateway.started(false);
                gateway.finished(false, ExchangeResult.OK, 3_000_000L);
            }
            f.clock.advance(Duration.ofSeconds(2));
            LiveSeries.Sample s = f.series.sample();
            assertNotNull(s.p99Ms(), s.toString());
            assertTrue(s.p99Ms() <= 5.0, "only the requests since the first sample (1-5 ms): " + s);
        }
    }

    @Test
    void theSeriesP50AndP99ComeFromTheLatencyHistogramOfTheLastMinute() {
        try (AdminFixture f = options().series().start()) {
            HelidonGatewayMetrics gateway = new HelidonGatewayMetrics(f.registry); // the real meters
            f.series.sample(); // the window starts here, whatever the registry recorded before
            for (int i = 0; i < 100; i++) {
                gateway.started(false);
                gateway.finished(false, ExchangeResult.OK, i < 98 ? 3_000_000L : 400_000_000L);
                gateway.started(true); // tunnels are left out of the console's percentiles
                gateway.finished(true, ExchangeResult.OK, 20_000_000_000L);
            }
            f.clock.advance(Duration.ofSeconds(2));
            LiveSeries.Sample s = f.series.sample();
            // as histogram_quantile: rank 50 of 100 lies in (1 ms, 5 ms], which holds 98 → 1 + 4 × 50/98;
            // rank 99 in (250 ms, 500 ms], which holds 2 above 98 → 250 + 250 × 1/2
            assertEquals(1 + 4 * 50 / 98.0, s.p50Ms(), 1e-6, s.toString());
            assertEquals(375.0, s.p99Ms(), 1e-6, s.toString());

            f.clock.advance(Duration.ofSeconds(30));
            assertEquals(375.0, f.series.sample().p99Ms(), 1e-6, "still inside the minute");
            f.clock.advance(Duration.ofSeconds(31));
            assertNull(f.series.sample().p50Ms(), "no request ended in the last minute");
        }
    }

    @Test
    void quantilesInterpolateInsideTheirBucketAndStopAtTheLargestBound() {
        double[] bounds = {1, 5, 10};
        assertEquals(0.5, LiveSeries.quantile(0.5, bounds, new long[] {4, 4, 4}, 4), 1e-9);
        assertEquals(7.5, LiveSeries.quantile(0.75, bounds, new long[] {0, 2, 4}, 4), 1e-9);
        assertEquals(10, LiveSeries.quantile(0.99, bounds, new long[] {0, 0, 1}, 4), 1e-9, "above every bound");
    }

    @Test
    void theSeriesRingKeepsTheNewestSamples() {
        try (AdminFixture f = options().series().start()) {
            for (int i = 0; i < 8; i++) {
                f.clock.advance(Duration.ofSeconds(2));
                f.series.sample();
            }
            List<LiveSeries.Sample> s = f.series.samples();
            assertEquals(5, s.size(), "capacity 5");
            for (int i = 1; i < s.size(); i++) {
                assertTrue(s.get(i - 1).at().isBefore(s.get(i).at()), "oldest first");
            }
            assertEquals(f.clock.instant(), s.getLast().at());
        }
    }

    @Test
    void withoutASeriesThePathIsNotFound() {
        try (AdminFixture f = options().start()) {
            AdminFixture.Response r = f.get("/series");
            assertEquals(404, r.status());
            assertEquals("not_found", r.error());
            assertEquals(401, f.send("GET", "/series", null, "wrong").status(), "behind the admin token like the rest");
        }
    }

    @Test
    void thePipelineViewListsSequentialPositions() {
        try (AdminFixture f = options().start()) {
            assertEquals(
                    200,
                    f.post("/routings/shop/sequential", "{\"action\": \"advance\"}")
                            .status());
            Map<String, Object> body = f.get("/pipeline").json();
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> seq = (List<Map<String, Object>>) body.get("sequential");
            assertEquals(1, seq.size(), "only the sequential routing");
            assertEquals("shop", seq.getFirst().get("routing"));
            assertEquals(new BigDecimal(1), seq.getFirst().get("index"));
            assertEquals("up-b", seq.getFirst().get("upstream"));
            assertEquals(List.of("up-a", "up-b"), seq.getFirst().get("upstreams"));
            assertTrue(body.get("upstreams") instanceof List<?>);
            assertEquals(401, f.send("GET", "/pipeline", null, null).status());
        }
    }

    @Test
    void theMaskedListingHidesAddressesAndCountsTheMatches() {
        try (AdminFixture f = options().start()) {
            AdminFixture.Response r = f.get("/proxies?masked=true&limit=10");
            assertEquals(200, r.status(), r.body());
            for (Map<String, Object> p : r.list("proxies")) {
                assertTrue(((String) p.get("host")).matches("10\\.0\\.x\\.x"), p.toString());
                assertEquals(true, p.get("masked"));
                assertFalse(p.containsKey("password"));
            }
            assertFalse(r.body().contains("\"10.0.0.1\""), "no full address in a masked answer");
            assertEquals(new BigDecimal(SIZE), r.json().get("total"));
            assertEquals(
                    new BigDecimal(SIZE / 3),
                    f.get("/proxies?upstream=up-b&limit=1").json().get("total"));
            assertEquals(
                    new BigDecimal(SIZE),
                    f.get("/proxies?state=available&limit=1").json().get("total"));
            assertEquals(
                    new BigDecimal(0),
                    f.get("/proxies?state=disabled&limit=1").json().get("total"));
            assertNull(
                    f.get("/proxies?protocol=socks5&limit=1").json().get("total"),
                    "not countable from the store's counts");
            assertNull(f.get("/proxies?label.country=US&limit=1").json().get("total"));
            assertEquals(
                    "10.0.0.1",
                    f.get("/proxies?limit=2").list("proxies").get(1).get("host"),
                    "unmasked by default (API unchanged)");

            assertEquals(200, f.post("/proxies/p00001/disable", null).status());
            assertEquals(
                    new BigDecimal(1),
                    f.get("/proxies?state=disabled&limit=1").json().get("total"));
            assertEquals(
                    new BigDecimal(SIZE - 1),
                    f.get("/proxies?state=available&limit=1").json().get("total"));
            AdminFixture.Response bad = f.get("/proxies?masked=yes");
            assertEquals(400, bad.status());
            assertEquals("masked must be true or false, got 'yes'", bad.message());
        }
    }

    @Test
    void revealingAnAddressIsAudited() {
        try (AdminFixture f = options().start()) {
            AdminFixture.Response r = f.post("/proxies/p00007/reveal", null);
            assertEquals(200, r.status(), r.body());
            Proxy p = EmbeddedProxyPool.engineOf(f.pool)
                    .store()
                    .get("p00007")
                    .orElseThrow()
                    .proxy();
            assertEquals(p.host(), r.json().get("host"));
            assertEquals(new BigDecimal(p.port()), r.json().get("port"));
            assertFalse(r.body().contains("vendor") && r.body().contains("password"));
            Map<String, Object> audit = f.get("/audit?limit=1").list("entries").getFirst();
            assertEquals("proxy.reveal", audit.get("action"));
            assertEquals("p00007", audit.get("entityName"));
            assertEquals(404, f.post("/proxies/nope/reveal", null).status());
        }
    }

    @Test
    void domainBansAreListedWithTheirTimeLeft() {
        try (AdminFixture f = options().start()) {
            assertTrue(EmbeddedProxyPool.engineOf(f.pool).reportBan("p00003", "Shop.Example"));
            f.clock.advance(Duration.ofSeconds(60));
            Map<String, Object> p =
                    f.get("/proxies?limit=5&masked=true").list("proxies").get(3);
            assertEquals("p00003", p.get("id"));
            Map<?, ?> bans = (Map<?, ?>) p.get("bannedDomains");
            assertEquals(List.of("shop.example"), List.copyOf(bans.keySet()));
            long left = ((BigDecimal) bans.get("shop.example")).longValue();
            long full = dev.proxypool.core.health.HealthPolicy.DEFAULTS
                    .domainBanDuration()
                    .toSeconds();
            assertEquals(full - 60, left, "the default ban duration minus the minute gone by");
            assertEquals(
                    Map.of(),
                    f.get("/proxies?limit=1").list("proxies").getFirst().get("bannedDomains"));
        }
    }

    /** Regression: an empty name used to answer "is required as a string, got a string". */
    @Test
    void anEmptyNameSaysItIsEmpty() {
        try (AdminFixture f = options().start()) {
            AdminFixture.Response r = f.post("/upstreams", "{\"name\": \" \", \"provider\": \"lab\"}");
            assertEquals(400, r.status());
            assertEquals("upstreams[].name: is required (got an empty name)", r.message());
            assertEquals(
                    "upstreams[].name: is required as a string, got a number",
                    f.post("/upstreams", "{\"name\": 5}").message());
        }
    }
}
