package dev.proxypool.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.proxypool.core.extract.UpstreamCounts;
import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.time.Clocks;
import dev.proxypool.core.time.ManualClock;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import dev.proxypool.testkit.Await;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A running pool purges its store in the background (expired proxies, ended tombstones, old
 * idempotency records): nothing else does, so without it a long-running server keeps a tombstone
 * for every proxy it ever handed out (found by the soak).
 */
@Tag("slow")
class PoolPurgeTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void expiredProxiesLeaveTheStoreWithoutAnyCaller() throws Exception {
        ManualClock wall = new ManualClock(START);
        Proxy soon = proxy("203.0.113.1", START.plusSeconds(60));
        Proxy later = proxy("203.0.113.2", START.plusSeconds(3600));
        try (ProxyPool pool = ProxyPool.builder()
                .clocks(Clocks.monotonic(), wall)
                .proxies(List.of(soon, later))
                .build()) {
            assertEquals(2, available(pool));
            wall.advance(Duration.ofSeconds(61));
            // an expired proxy counts as stored until a purge drops it; the pool's own purge must do that
            Await.atMost(EmbeddedProxyPool.PURGE_INTERVAL.multipliedBy(4))
                    .until("the expired proxy purged in the background", () -> available(pool), n -> n == 1);
        }
    }

    private static int available(ProxyPool pool) {
        int n = 0;
        for (UpstreamCounts c :
                EmbeddedProxyPool.engineOf(pool).store().countsByUpstream().values()) {
            n += c.available();
        }
        return n;
    }

    private static Proxy proxy(String host, Instant expiresAt) {
        return Proxy.builder(new ProxyKey(Protocol.HTTP, host, 8000, CredentialRef.NONE))
                .provider("test")
                .upstream("u")
                .expiresAt(expiresAt)
                .build();
    }
}
