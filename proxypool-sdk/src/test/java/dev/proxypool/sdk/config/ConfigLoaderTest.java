package dev.proxypool.sdk.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.dispatch.Strategy;
import dev.proxypool.core.model.LabelSelector;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.routing.NoCandidatePolicy;
import dev.proxypool.core.routing.RoutingRule;
import dev.proxypool.core.sequential.Exhaustion;
import dev.proxypool.core.sticky.StickyPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigLoaderTest {

    @TempDir
    Path dir;

    /** A full configuration over the sections of docs/configuration.md. */
    private static final String SPEC_EXAMPLE = """
            server:   { gatewayPort: 8080, apiPort: 9090 }
            store:    { type: memory }
            database: { type: none }
            credentials: { file: secrets/credentials.properties }
            admin: { tokenEnv: PROXYPOOL_ADMIN_TOKEN }
            clients:
              - { name: alice, secretHash: "%s", token: "alice-token-0123456789", quota: { extractionsPerHour: 1000 }, rateLimit: { rps: 200 } }
            providers:
              - { name: lab, type: jsonl_inventory, path: inventory/upstreams.jsonl }
              - { name: vendor-a, type: http_json_feed, url: "https://vendor.example/api", tokenEnv: VENDOR_A_TOKEN,
                  fields: { host: ip, port: port, protocol: protocol, expiresAt: expire_time } }
              - { name: vendor-b, type: http_json_feed, url: "https://vendor-b.example/api" }
            upstreams:
              - { name: vendor-a-us, provider: vendor-a, params: { country: US }, fetch: { interval: 30s, lowWaterMark: 50 } }
              - { name: vendor-b-us, provider: vendor-b, params: { country: US } }
              - { name: lab, provider: lab, validate: false }
            routings:
              - name: shop
                match: { hosts: ["*.shop.example"] }
                strategy: sequential
                upstreams: [vendor-a-us, vendor-b-us]
                exhaustion: stop
                emptyThreshold: 3
                filter: { protocol: http, labels: { type: residential } }
                minRemainingTtl: 30s
                sticky: { enabled: true, header: X-ProxyPool-Session, lifetime: 10m, idle: 60s, onLost: repin, maxEntries: 100000, busyWait: 250ms }
                retry: { maxAttempts: 2, budgetPercent: 20 }
                onNoCandidate: reject
              - name: rest
            health:
              passive: { consecutiveFailures: 3, errorRate: 0.30, window: 60s, minSamples: 20 }
              active:  { enabled: true, interval: 30s, failuresToCool: 2, targets: ["http://127.0.0.1:9090/v1/echo"] }
              cooldown: { initial: 3m, max: 30m }
              domainBan: { duration: 10m, maxPerProxy: 1000 }
              slowStart: 60s
            pipeline: { echoUrl: "http://127.0.0.1:9090/v1/echo", validationConcurrency: 100, validationTimeout: 8s,
                        minScore: 18, poolSize: 150, reserveSize: 700, asnDatabase: data/asn-ipv4.csv }
            security: { allowPrivateDestinations: false, connectPorts: [443, 8443] }
            """.formatted("pbkdf2-sha256$1000$c2FsdHNhbHRzYWx0$" + "A".repeat(43));

    private Path write(String yaml) throws IOException {
        Path f = dir.resolve("proxypool.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    @Test
    void activeFailuresToCoolReachesTheHealthPolicy() throws IOException {
        ProxyPoolConfig c = ConfigLoader.load(write("""
                health:
                  active: { enabled: true, failuresToCool: 5, targets: ["http://127.0.0.1:9090/v1/echo"] }
                """), Map.of());
        assertEquals(5, c.health().activeFailuresToCool());
        assertEquals(5, c.health().policy().failuresToCool(), "the core's rule must see the configured value");
        assertEquals(
                2,
                ConfigLoader.load(write("server: { gatewayPort: 8080 }\n"), Map.of())
                        .health()
                        .policy()
                        .failuresToCool());
    }

    @Test
    void readsTheSpecExample() throws IOException {
        ProxyPoolConfig c =
                ConfigLoader.load(write(SPEC_EXAMPLE), Map.of("PROXYPOOL_ADMIN_TOKEN", "admin-token-0123456789"));
        assertEquals(8080, c.server().gatewayPort());
        assertEquals(ProxyPoolConfig.StoreType.MEMORY, c.store().type());
        assertEquals("admin-token-0123456789", c.admin().token().orElseThrow().reveal());
        assertEquals("***", c.admin().token().orElseThrow().toString());
        assertEquals(1000, c.clients().get(0).extractionsPerHour());
        assertEquals(200.0, c.clients().get(0).rps());
        assertEquals("ip", c.providers().get(1).fields().get("host"));
        assertEquals(Duration.ofSeconds(30), c.upstreams().get(0).fetchInterval());
        assertEquals(50, c.upstreams().get(0).lowWaterMark());
        assertFalse(c.upstreams().get(2).validate());

        RoutingRule shop = c.routings().get(0);
        assertEquals(Strategy.SEQUENTIAL, shop.strategy());
        assertEquals(List.of("vendor-a-us", "vendor-b-us"), shop.upstreams());
        assertEquals(Exhaustion.STOP, shop.exhaustion());
        assertEquals(Set.of(Protocol.HTTP), shop.filter().protocols());
        assertEquals(LabelSelector.parse("type=residential"), shop.filter().labels());
        assertEquals(Duration.ofSeconds(30), shop.filter().minRemainingTtl());
        assertTrue(shop.sticky().enabled());
        assertEquals(StickyPolicy.OnLost.REPIN, shop.sticky().onLost());
        assertEquals(Duration.ofMillis(250), shop.sticky().busyWait());
        assertEquals(
                StickyPolicy.DEFAULT_BUSY_WAIT, c.routings().get(1).sticky().busyWait());
        assertEquals(NoCandidatePolicy.REJECT, shop.onNoCandidate());
        assertEquals("rest", c.routings().get(1).name());
        assertEquals(Duration.ofMinutes(3), c.health().policy().cooldownInitial());
        assertEquals(150, c.pipeline().poolSize());
        assertEquals(
                dir.resolve("data/asn-ipv4.csv"), c.pipeline().asnDatabase().orElseThrow());
        assertEquals(
                dir.resolve("secrets/credentials.properties"),
                c.credentials().file().orElseThrow());
        assertEquals(List.of(443, 8443), c.security().connectPorts());
    }

    @Test
    void environmentVariablesOverrideScalars() throws IOException {
        ProxyPoolConfig c = ConfigLoader.load(
                write("server: { gatewayPort: 8080 }\n"),
                Map.of("PROXYPOOL_SERVER_GATEWAYPORT", "18080", "PROXYPOOL_HEALTH_PASSIVE_CONSECUTIVEFAILURES", "5"));
        assertEquals(18080, c.server().gatewayPort());
        assertEquals(5, c.health().policy().consecutiveFailures());
        assertEquals(9090, c.server().apiPort());
    }

    @Test
    void distinctTargetFailuresIsReadWithItsDefault() throws IOException {
        assertEquals(
                10,
                ConfigLoader.load(write("server: { gatewayPort: 8080 }\n"), Map.of())
                        .health()
                        .policy()
                        .distinctTargetFailures());
        assertEquals(
                4,
                ConfigLoader.load(write("health: { passive: { distinctTargetFailures: 4 } }\n"), Map.of())
                        .health()
                        .policy()
                        .distinctTargetFailures());
    }

    @Test
    void defaultsNeedNoFile() {
        ProxyPoolConfig c = ConfigLoader.defaults(Map.of());
        assertEquals(ProxyPoolConfig.defaults(), c);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "unknown top-level key | servr: { gatewayPort: 1 } | servr",
                "typo in a section | server: { gatewayPrt: 1 } | server.gatewayPrt",
                "port out of range | server: { gatewayPort: 70000 } | server.gatewayPort",
                "port not a number | server: { apiPort: abc } | server.apiPort",
                "unknown store | store: { type: mongo } | store.type",
                "cluster without nodes | 'store: { type: redis-cluster }' | store.nodes",
                "cluster with empty nodes | 'store: { type: redis-cluster, nodes: [] }' | store.nodes",
                "cluster node without port | 'store: { type: redis-cluster, nodes: [h] }' | store.nodes",
                "cluster with 0 shards | 'store: { type: redis-cluster, nodes: [h:7000], shards: 0 }' | store.shards",
                "negative waitReplicas | 'store: { type: redis-cluster, nodes: [h:7000], waitReplicas: -1 }' | store.waitReplicas",
                "zero waitTimeout | 'store: { type: redis-cluster, nodes: [h:7000], waitTimeout: 0s }' | store.waitTimeout",
                "waitTimeout at the socket timeout | 'store: { type: redis-cluster, nodes: [h:7000], waitTimeout: 2s }' | store.waitTimeout",
                "nodes for one node | 'store: { type: redis, nodes: [h:7000] }' | store.nodes",
                "five index dimensions | 'store: { index: { dimensions: [a, b, c, d, e] } }' | store.index.dimensions",
                "repeated index dimension | 'store: { index: { dimensions: [country, country] } }' | store.index.dimensions",
                "index dimension not a label key | 'store: { index: { dimensions: [\"a=b\"] } }' | store.index.dimensions",
                "index protocol not a boolean | 'store: { index: { protocol: sometimes } }' | store.index.protocol",
                "index upstream not a boolean | 'store: { index: { upstream: often } }' | store.index.upstream",
                "unknown strategy | 'routings: [{ name: r, strategy: fastest }]' | routings[r].strategy",
                "missing upstream | 'routings: [{ name: r, upstreams: [nope] }]' | routings[r].upstreams[0]",
                "bad duration | 'routings: [{ name: r, minRemainingTtl: soon }]' | routings[r].minRemainingTtl",
                "bad label selector | 'routings: [{ name: r, filter: { labels: { country: \"\" } } }]' | routings[r].filter.labels",
                "duplicate routing | 'routings: [{ name: r }, { name: r }]' | routings[r].name",
                "unknown provider | 'upstreams: [{ name: u, provider: ghost }]' | upstreams[u].provider",
                "bad secret hash | 'clients: [{ name: a, secretHash: md5 }]' | clients[a].secretHash",
                "bad protocol | 'routings: [{ name: r, filter: { protocol: ftp } }]' | routings[r].filter.protocol",
                "unset token env | 'admin: { tokenEnv: NOPE_NOT_SET }' | admin.tokenEnv",
                "cooldown max below initial | 'health: { cooldown: { initial: 10m, max: 1m } }' | health",
                "access log not a boolean | 'server: { accessLog: maybe }' | server.accessLog",
                "sticky busyWait too long | 'routings: [{ name: r, sticky: { busyWait: 2m } }]' | routings[r].sticky.busyWait",
                "sticky busyWait negative | 'routings: [{ name: r, sticky: { busyWait: -1s } }]' | routings[r].sticky.busyWait",
                "distinct target failures 0 | 'health: { passive: { distinctTargetFailures: 0 } }' | health.passive.distinctTargetFailures",
            })
    void badConfigIsRefusedNamingTheKey(String what, String yaml, String key) throws IOException {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(write(yaml), Map.of()));
        assertEquals(key, e.key(), e.getMessage());
        assertTrue(e.getMessage().startsWith(key + ": "), e.getMessage());
    }

    @Test
    void redisClusterWaitTimeoutNotBelowTheSocketTimeoutIsRefusedNamingBoth() throws IOException {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(
                        write("store: { type: redis-cluster, nodes: [\"h:7000\"], waitTimeout: 5s }\n"), Map.of()));
        assertEquals("store.waitTimeout", e.key(), e.getMessage());
        assertTrue(
                e.getMessage()
                        .startsWith("store.waitTimeout: (5000 ms) must be below the Redis Cluster client's socket"
                                + " timeout (2000 ms)"),
                e.getMessage());
        // only a cluster waits for replicas: a single-node store ignores the key's value
        assertEquals(
                Duration.ofSeconds(5),
                ConfigLoader.load(write("store: { type: redis, waitTimeout: 5s }\n"), Map.of())
                        .store()
                        .waitTimeout());
    }

    @Test
    void redisClusterStoreReadsItsNodesShardsAndWait() throws IOException {
        ProxyPoolConfig c = ConfigLoader.load(
                write("store: { type: redis-cluster, nodes: [\"127.0.0.1:7100\", \"127.0.0.1:7101\"],"
                        + " keyPrefix: \"x:\", shards: 8, waitReplicas: 2, waitTimeout: 250ms }\n"),
                Map.of());
        assertEquals(ProxyPoolConfig.StoreType.REDIS_CLUSTER, c.store().type());
        assertEquals(List.of("127.0.0.1:7100", "127.0.0.1:7101"), c.store().nodes());
        assertEquals(8, c.store().shards());
        assertEquals(2, c.store().waitReplicas());
        assertEquals(Duration.ofMillis(250), c.store().waitTimeout());
        ProxyPoolConfig d = ConfigLoader.load(write("store: { type: redis-cluster, nodes: [\"h:1\"] }\n"), Map.of());
        assertEquals(16, d.store().shards());
        assertEquals(-1, d.store().waitReplicas(), "auto: 1 when the master has a replica");
    }

    @Test
    void storeIndexDimensionsDefaultToCountryAndTypeAndAreKeptSorted() throws IOException {
        assertEquals(
                List.of("country", "type"),
                ConfigLoader.load(write("store: { type: memory }\n"), Map.of())
                        .store()
                        .indexDimensions());
        assertEquals(
                List.of("city", "country", "type"),
                ConfigLoader.load(write("store: { index: { dimensions: [type, country, city] } }\n"), Map.of())
                        .store()
                        .indexDimensions());
        assertEquals(
                List.of(),
                ConfigLoader.load(write("store: { index: { dimensions: [] } }\n"), Map.of())
                        .store()
                        .indexDimensions());
    }

    @Test
    void storeIndexProtocolDefaultsToTrue() throws IOException {
        assertTrue(ConfigLoader.load(write("store: { type: memory }\n"), Map.of())
                .store()
                .indexProtocol());
        ProxyPoolConfig.Store off = ConfigLoader.load(
                        write("store: { index: { dimensions: [country], protocol: false } }\n"), Map.of())
                .store();
        assertFalse(off.indexProtocol());
        assertEquals(List.of("country"), off.indexDimensions(), "set together, neither lost");
    }

    @Test
    void storeIndexUpstreamDefaultsToFalse() throws IOException {
        assertFalse(ConfigLoader.load(write("store: { type: memory }\n"), Map.of())
                .store()
                .indexUpstream());
        ProxyPoolConfig.Store on = ConfigLoader.load(
                        write("store: { index: { dimensions: [country], protocol: false, upstream: true } }\n"),
                        Map.of())
                .store();
        assertTrue(on.indexUpstream());
        assertFalse(on.indexProtocol(), "set together, none lost");
        assertEquals(List.of("country"), on.indexDimensions());
    }

    @Test
    void sequentialRoutingNeedsTwoUpstreams() throws IOException {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(write("""
                providers: [{ name: p, type: jsonl_inventory, path: x.jsonl }]
                upstreams: [{ name: u, provider: p }]
                routings: [{ name: r, strategy: sequential, upstreams: [u] }]
                """), Map.of()));
        assertEquals("routings[r].upstreams", e.key());
        assertTrue(e.getMessage().contains("at least two upstreams"), e.getMessage());
    }

    @Test
    void unreadableOrBrokenFilesAreClearErrors() throws IOException {
        ConfigException missing =
                assertThrows(ConfigException.class, () -> ConfigLoader.load(dir.resolve("nope.yaml"), Map.of()));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
        ConfigException broken = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(write("server: { gatewayPort: 8080\n  - ]: :"), Map.of()));
        assertTrue(broken.getMessage().startsWith("--config: cannot parse"), broken.getMessage());
    }

    @Test
    void aYamlSyntaxErrorNamesItsLineAndColumnButNotTheLine() throws IOException {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(write("""
                server: { host: 127.0.0.1 }
                admin: { token: not-shown-0123456789 }
                providers:
                  - name: a
                   type: jsonl_inventory
                """), Map.of()));
        assertTrue(
                e.getMessage()
                        .startsWith("--config: cannot parse " + dir.resolve("proxypool.yaml")
                                + " as YAML at line 5, column 4: "),
                e.getMessage());
        assertEquals(-1, e.getMessage().indexOf('\n'), e.getMessage());
        ConfigException flow = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(
                        write("server: { host: 127.0.0.1\nadmin: { token: not-shown-0123456789 }\n"), Map.of()));
        assertTrue(
                flow.getMessage().matches(".* as YAML at line 2, column \\d+: .*started at line 1, column \\d+.*"),
                flow.getMessage());
        assertTrue(
                !flow.getMessage().contains("not-shown") && !e.getMessage().contains("not-shown"), flow.getMessage());
    }

    @Test
    void aPlainClientSecretNeedsEightCharacters() throws IOException {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(write("clients: [{ name: alice, secret: x }]\n"), Map.of()));
        assertEquals("clients[alice].secret: must be at least 8 characters", e.getMessage());
        ConfigException env = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(
                        write("clients: [{ name: alice, secretEnv: ALICE_SECRET }]\n"),
                        Map.of("ALICE_SECRET", "1234567")));
        assertEquals("clients[alice].secretEnv: must be at least 8 characters", env.getMessage());
        assertEquals(
                1,
                ConfigLoader.load(write("clients: [{ name: alice, secret: 12345678 }]\n"), Map.of())
                        .clients()
                        .size());
    }

    @Test
    void durationsReadAsPeopleWriteThem() {
        assertEquals(Duration.ofMillis(500), Durations.parse("k", "500ms"));
        assertEquals(Duration.ofSeconds(30), Durations.parse("k", "30s"));
        assertEquals(Duration.ofSeconds(30), Durations.parse("k", "30"));
        assertEquals(Duration.ofMinutes(10), Durations.parse("k", "10m"));
        assertEquals(Duration.ofHours(24), Durations.parse("k", "24h"));
        assertEquals(Duration.ofSeconds(90), Durations.parse("k", "PT1M30S"));
        assertEquals(
                "k: unknown duration unit 'w' in '2w' (use ms, s, m, h or d)",
                assertThrows(ConfigException.class, () -> Durations.parse("k", "2w"))
                        .getMessage());
        assertThrows(ConfigException.class, () -> Durations.parse("k", "-5s"));
        assertEquals("10m", Durations.format(Duration.ofMinutes(10)));
        assertEquals("1500ms", Durations.format(Duration.ofMillis(1500)));
    }

    @Test
    void theAccessLogIsOffByDefault() throws IOException {
        assertFalse(ConfigLoader.load(write("server: { gatewayPort: 8080 }\n"), Map.of())
                .server()
                .accessLog());
        assertTrue(ConfigLoader.load(write("server: { accessLog: true }\n"), Map.of())
                .server()
                .accessLog());
    }

    @Test
    void gatewayTimeoutsAreReadWithDefaultsAndEnvironmentOverrides() throws IOException {
        ProxyPoolConfig defaults = ConfigLoader.load(write("server: { gatewayPort: 8080 }\n"), Map.of());
        assertEquals(ProxyPoolConfig.Gateway.DEFAULTS, defaults.gateway());
        assertEquals(Duration.ofSeconds(60), defaults.gateway().ioTimeout());

        ProxyPoolConfig c = ConfigLoader.load(
                write("gateway: { ioTimeout: 5s, tunnelIdleTimeout: 2m }\n"),
                Map.of("PROXYPOOL_GATEWAY_IDLETIMEOUT", "15s"));
        assertEquals(
                new ProxyPoolConfig.Gateway(Duration.ofSeconds(5), Duration.ofSeconds(15), Duration.ofMinutes(2)),
                c.gateway());

        ConfigException zero = assertThrows(
                ConfigException.class, () -> ConfigLoader.load(write("gateway: { ioTimeout: 0s }\n"), Map.of()));
        assertEquals("gateway.ioTimeout", zero.key());
        assertTrue(zero.getMessage().contains("must be positive"), zero.getMessage());
        ConfigException unknown = assertThrows(
                ConfigException.class, () -> ConfigLoader.load(write("gateway: { readTimeout: 5s }\n"), Map.of()));
        assertTrue(unknown.getMessage().contains("readTimeout"), unknown.getMessage());
    }

    @Test
    void nodeTimingsAreReadWithDefaultsAndCheckedNamingTheKey() throws IOException {
        assertEquals(
                ProxyPoolConfig.Nodes.DEFAULTS,
                ConfigLoader.load(write("server: { gatewayPort: 8080 }\n"), Map.of())
                        .nodes());

        ProxyPoolConfig c = ConfigLoader.load(write("""
                nodes: { heartbeatInterval: 5s, livenessTimeout: 20s, credentialTtl: 2m }
                """), Map.of("PROXYPOOL_NODES_SWEEPINTERVAL", "1s"));
        assertEquals(
                new ProxyPoolConfig.Nodes(
                        Duration.ofSeconds(5), Duration.ofSeconds(20), Duration.ofMinutes(2), Duration.ofSeconds(1)),
                c.nodes());

        ConfigException liveness = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(write("nodes: { heartbeatInterval: 30s, livenessTimeout: 30s }\n"), Map.of()));
        assertEquals("nodes.livenessTimeout", liveness.key());
        assertTrue(
                liveness.getMessage().contains("must be longer than nodes.heartbeatInterval"), liveness.getMessage());
        ConfigException ttl = assertThrows(
                ConfigException.class, () -> ConfigLoader.load(write("nodes: { credentialTtl: 10s }\n"), Map.of()));
        assertEquals("nodes.credentialTtl", ttl.key());
        ConfigException zero = assertThrows(
                ConfigException.class, () -> ConfigLoader.load(write("nodes: { heartbeatInterval: 0s }\n"), Map.of()));
        assertEquals("nodes.heartbeatInterval", zero.key());
        ConfigException unknown = assertThrows(
                ConfigException.class, () -> ConfigLoader.load(write("nodes: { heartbeat: 5s }\n"), Map.of()));
        assertTrue(unknown.getMessage().contains("heartbeat"), unknown.getMessage());
    }

    @Test
    void clusterSettingsAreReadWithDefaultsAndCheckedNamingTheKey() throws IOException {
        assertEquals(
                ClusterSettings.DEFAULTS,
                ConfigLoader.load(write("server: { gatewayPort: 8080 }\n"), Map.of())
                        .cluster());

        ProxyPoolConfig c = ConfigLoader.load(write("""
                cluster: { validity: 2m, renewAfter: 30s, deltasKept: 16, fullEvery: 4, deflate: true,
                           pollInterval: 2s, backoffMin: 50ms, backoffMax: 2s }
                """), Map.of("PROXYPOOL_CLUSTER_WORKERTTL", "9s"));
        assertEquals(
                new ClusterSettings(
                        Duration.ofMinutes(2),
                        Duration.ofSeconds(30),
                        16,
                        4,
                        true,
                        Duration.ofSeconds(2),
                        Duration.ofMillis(50),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(9)),
                c.cluster());

        ConfigException renew = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(write("cluster: { validity: 10m, renewAfter: 6m }\n"), Map.of()));
        assertEquals("cluster.renewAfter", renew.key());
        assertTrue(renew.getMessage().contains("at most half of cluster.validity"), renew.getMessage());
        ConfigException full = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(write("cluster: { deltasKept: 8, fullEvery: 9 }\n"), Map.of()));
        assertEquals("cluster.fullEvery", full.key());
        ConfigException zero = assertThrows(
                ConfigException.class, () -> ConfigLoader.load(write("cluster: { pollInterval: 0s }\n"), Map.of()));
        assertEquals("cluster.pollInterval", zero.key());
        ConfigException unknown = assertThrows(
                ConfigException.class, () -> ConfigLoader.load(write("cluster: { validty: 5m }\n"), Map.of()));
        assertTrue(unknown.getMessage().contains("validty"), unknown.getMessage());
    }
}
