package dev.proxypool.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.sdk.engine.PoolEngine;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The admin API shows each proxy's effective weight and dynamic factor, and what the factor is judged
 * against (the other healthy proxies of its upstream), in {@code GET /v1/admin/proxies/{id}} and in the
 * list view.
 */
class ProxyWeightViewTest {

    @Test
    void aProxySlowerThanItsPeersShowsItsReducedFactorAndEffectiveWeight() {
        List<Proxy> weighted = AdminFixture.proxies(4, "lab").stream()
                .map(p -> p.toBuilder().weight(10).build())
                .toList();
        try (AdminFixture f = AdminFixture.options().proxies(weighted).start()) {
            PoolEngine engine = EmbeddedProxyPool.engineOf(f.pool);
            for (int round = 0; round < 40; round++) {
                for (int i = 0; i < 4; i++) {
                    ProxyHealth h = engine.runtime(String.format("p%05d", i))
                            .orElseThrow()
                            .health();
                    long ms = i == 1 ? 320 : 20; // p00001 is 300 ms slower than its three peers
                    h.recordSuccess(Admission.ADMITTED, ms * 1_000_000, f.clock.read());
                }
            }

            Map<String, Object> slow = f.get("/proxies/p00001").json();
            double factor = ((Number) slow.get("weightFactor")).doubleValue();
            assertTrue(factor < 0.2, "factor " + factor + " in " + slow);
            assertEquals(10, ((Number) slow.get("weight")).intValue(), "the configured base weight");
            assertEquals(Math.round(10 * factor), ((Number) slow.get("effectiveWeight")).intValue(), "base x factor");
            Map<?, ?> dynamic = (Map<?, ?>) slow.get("dynamicWeight");
            assertEquals(20.0, ((Number) dynamic.get("peerLatencyEwmaMs")).doubleValue(), 0.5);
            assertEquals(1.0, ((Number) dynamic.get("peerSuccessEwma")).doubleValue());
            assertEquals(1.0, ((Number) dynamic.get("successEwma")).doubleValue());
            assertEquals(0.117, ((Number) dynamic.get("target")).doubleValue(), 0.01, "(20+20)/(320+20)");
            assertEquals(factor, ((Number) dynamic.get("share")).doubleValue(), 0.001);
            assertEquals(320.0, ((Number) slow.get("latencyEwmaMs")).doubleValue(), 0.5);

            List<Map<String, Object>> listed = f.get("/proxies").list("proxies");
            assertEquals(4, listed.size());
            for (Map<String, Object> p : listed) {
                double listedFactor = ((Number) p.get("weightFactor")).doubleValue();
                if (p.get("id").equals("p00001")) {
                    assertEquals(factor, listedFactor, 1e-9, "the list shows the same factor");
                } else {
                    assertEquals(1.0, listedFactor, 1e-9, p.toString());
                    assertEquals(10, ((Number) p.get("effectiveWeight")).intValue());
                    Map<?, ?> d = (Map<?, ?>) p.get("dynamicWeight");
                    assertEquals(120.0, ((Number) d.get("peerLatencyEwmaMs")).doubleValue(), 0.5, "(20+20+320)/3");
                }
            }
        }
    }
}
