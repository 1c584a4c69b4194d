package dev.proxypool.server.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.Labels;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.core.nodes.NodeSettings;
import dev.proxypool.sdk.engine.EmbeddedProxyPool;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The registry without HTTP: store reconciliation, conflicts, settings, and a concurrency stress. */
class NodeRegistryTest {

    private final NodeFixture f = new NodeFixture();

    @AfterEach
    void close() {
        f.close();
    }

    private static NodeAdvert advert(String host, int port) {
        return new NodeAdvert(host, port, Protocol.HTTP, Labels.of("region", "eu"), 4);
    }

    @Test
    void sweepRemovesNodeProxiesNoNodeOwns() {
        Proxy orphan = Proxy.builder(new ProxyKey(Protocol.HTTP, "203.0.113.99", 3128, CredentialRef.NONE))
                .provider(NodeRegistry.UPSTREAM)
                .upstream(NodeRegistry.UPSTREAM)
                .build();
        f.pool.addProxies(List.of(orphan));
        assertEquals(1, f.inSnapshot().size(), "left behind by a previous process");

        f.registry.sweep();

        assertEquals(List.of(), f.inSnapshot());
    }

    @Test
    void sweepPutsBackALiveNodeTheStoreLost() {
        String token = f.registry.issueToken("a").token();
        f.registry.register(token, advert("203.0.113.10", 3128)).orElseThrow();
        String proxyId = f.registry.nodes().getFirst().proxyId();
        EmbeddedProxyPool.engineOf(f.pool)
                .publish(() -> EmbeddedProxyPool.engineOf(f.pool).store().remove(List.of(proxyId)));
        assertEquals(List.of(), f.inSnapshot());

        f.registry.sweep();

        assertEquals(proxyId, f.inSnapshot().getFirst().id());
    }

    @Test
    void anAddressOfAConfiguredUpstreamCannotRegister() {
        Proxy configured = Proxy.builder(new ProxyKey(Protocol.HTTP, "203.0.113.10", 3128, CredentialRef.NONE))
                .upstream("vendor")
                .build();
        f.pool.addProxies(List.of(configured));
        String token = f.registry.issueToken("a").token();

        IllegalStateException e = assertThrows(
                IllegalStateException.class, () -> f.registry.register(token, advert("203.0.113.10", 3128)));

        assertTrue(e.getMessage().contains("configured upstream"), e.getMessage());
        assertEquals(List.of(), f.registry.nodes());
    }

    @Test
    void revokedTokenRegistersNothingAndUnknownNamesAreFalse() {
        String token = f.registry.issueToken("a").token();
        assertTrue(f.registry.revokeToken("a"));
        assertEquals(Optional.empty(), f.registry.register(token, advert("203.0.113.10", 3128)));
        assertEquals(false, f.registry.revokeToken("a"));
        assertEquals(Optional.empty(), f.registry.register("", advert("203.0.113.10", 3128)));
    }

    @Test
    void settingsAndAdvertsRejectBadValuesNamingTheKey() {
        Duration s = Duration.ofSeconds(1);
        Object[][] settings = {
            {Duration.ZERO, s.multipliedBy(3), s.multipliedBy(600), s, "nodes.heartbeatInterval"},
            {s, s, s.multipliedBy(600), s, "nodes.livenessTimeout"},
            {s, s.multipliedBy(30), s.multipliedBy(10), s, "nodes.credentialTtl"},
            {s, s.multipliedBy(30), s.multipliedBy(600), null, "nodes.sweepInterval"},
        };
        for (Object[] c : settings) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> new NodeSettings((Duration) c[0], (Duration) c[1], (Duration) c[2], (Duration) c[3]));
            assertTrue(e.getMessage().startsWith((String) c[4]), e.getMessage());
        }
        Object[][] adverts = {
            {" ", 80, Protocol.HTTP, 1, "host"},
            {"a b", 80, Protocol.HTTP, 1, "host"},
            {"h", 0, Protocol.HTTP, 1, "port"},
            {"h", 65536, Protocol.HTTP, 1, "port"},
            {"h", 80, null, 1, "protocol"},
            {"h", 80, Protocol.HTTP, 0, "maxConcurrency"},
            {"h", 80, Protocol.HTTP, NodeAdvert.MAX_CONCURRENCY + 1, "maxConcurrency"},
        };
        for (Object[] c : adverts) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> new NodeAdvert((String) c[0], (Integer) c[1], (Protocol) c[2], Labels.EMPTY, (Integer) c[3]));
            assertTrue(e.getMessage().startsWith((String) c[4]), e.getMessage());
        }
    }

    /**
     * Many threads register, heartbeat, revoke, reissue and sweep while the clock moves; at the end
     * the snapshot's node proxies are exactly the registry's nodes, each of a token in force.
     */
    @Test
    void concurrentRegistrationHeartbeatRevocationAndSweepsKeepPoolAndRegistryInStep() throws Exception {
        int threads = 8;
        int rounds = 300;
        String[] names = {"t0", "t1", "t2", "t3"};
        ConcurrentLinkedQueue<String> tokens = new ConcurrentLinkedQueue<>();
        for (String n : names) {
            tokens.add(f.registry.issueToken(n).token());
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    ThreadLocalRandom rnd = ThreadLocalRandom.current();
                    for (int i = 0; i < rounds; i++) {
                        int op = rnd.nextInt(20);
                        if (op == 0) {
                            String name = names[rnd.nextInt(names.length)];
                            if (f.registry.revokeToken(name)) {
                                tokens.add(f.registry.issueToken(name).token());
                            }
                        } else if (op == 1) {
                            f.registry.sweep();
                        } else if (op == 2) {
                            synchronized (f.clock) {
                                f.clock.advance(Duration.ofSeconds(5));
                            }
                        } else {
                            String token = tokens.peek();
                            if (token == null) {
                                continue;
                            }
                            try {
                                String host = "10.0." + thread + "." + rnd.nextInt(16);
                                Optional<NodeCredential> c = f.registry.register(token, advert(host, 3128));
                                if (c.isPresent() && rnd.nextBoolean()) {
                                    f.registry.heartbeat(
                                            c.get().nodeId(), c.get().secret());
                                }
                            } catch (IllegalStateException conflict) {
                                // another token's live node holds the address: expected under contention
                            }
                            if (rnd.nextInt(4) == 0) {
                                tokens.poll();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> fu : futures) {
                fu.get(20, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        f.registry.sweep();
        Set<String> registered = new HashSet<>();
        Set<String> inForce = new HashSet<>(f.registry.tokenNames());
        for (NodeView n : f.registry.nodes()) {
            assertTrue(registered.add(n.proxyId()), "one node per address");
            assertTrue(inForce.contains(n.tokenName()), "a node of a revoked token survived: " + n.nodeId());
        }
        Set<String> pooled = new HashSet<>();
        for (Proxy p : f.inSnapshot()) {
            pooled.add(p.id());
        }
        assertEquals(registered, pooled);
        assertTrue(f.registry.nodes().size() <= threads * 16);
    }
}
