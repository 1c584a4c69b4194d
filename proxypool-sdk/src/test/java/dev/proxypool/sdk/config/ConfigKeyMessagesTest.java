package dev.proxypool.sdk.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.probe.ProberSettings;
import dev.proxypool.sdk.redis.RedisClusterConfig;
import dev.proxypool.sdk.redis.RedisStoreConfig;
import dev.proxypool.sdk.validate.ValidatorSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every out-of-range value, read from a file the way {@code proxypool serve} reads it, is refused naming the
 * key as the user writes it in {@code proxypool.yaml}, and that key is one docs/configuration.md documents;
 * the defaults and bounds other settings records use are the configuration's, not copies.
 */
class ConfigKeyMessagesTest {

    @TempDir
    Path dir;

    static Stream<Arguments> outOfRange() {
        return Stream.of(
                Arguments.of("server: { maxConnections: -1 }", "server.maxConnections"),
                Arguments.of("server: { maxConnections: 10000001 }", "server.maxConnections"),
                Arguments.of("server: { maxConnectionsPerAddress: 0 }", "server.maxConnectionsPerAddress"),
                Arguments.of("server: { gatewayThreads: 1025 }", "server.gatewayThreads"),
                Arguments.of("server: { requestHeadTimeout: 0s }", "server.requestHeadTimeout"),
                Arguments.of("server: { firstRequestTimeout: 0s }", "server.firstRequestTimeout"),
                Arguments.of("server: { apiIdleTimeout: 0s }", "server.apiIdleTimeout"),
                Arguments.of("server: { socksPort: 70000 }", "server.socksPort"),
                Arguments.of("gateway: { ioTimeout: 0s }", "gateway.ioTimeout"),
                Arguments.of("gateway: { idleTimeout: 0s }", "gateway.idleTimeout"),
                Arguments.of("gateway: { tunnelIdleTimeout: 0s }", "gateway.tunnelIdleTimeout"),
                Arguments.of("gateway: { firstByteTimeout: 0s }", "gateway.firstByteTimeout"),
                Arguments.of("store: { type: mongo }", "store.type"),
                Arguments.of("store: { keyPrefix: \"{pp}:\" }", "store.keyPrefix"),
                Arguments.of("store: { keyPrefix: \"" + "p".repeat(65) + "\" }", "store.keyPrefix"),
                Arguments.of("store: { shards: 1025 }", "store.shards"),
                Arguments.of("store: { waitReplicas: 17 }", "store.waitReplicas"),
                Arguments.of(
                        "store: { type: redis-cluster, nodes: [\"127.0.0.1:7000\"], waitTimeout: 5s }",
                        "store.waitTimeout"),
                Arguments.of("store: { index: { dimensions: [a, b, c, d, e] } }", "store.index.dimensions"),
                Arguments.of("pipeline: { validationConcurrency: 10001 }", "pipeline.validationConcurrency"),
                Arguments.of("pipeline: { validationTimeout: 11m }", "pipeline.validationTimeout"),
                Arguments.of("pipeline: { unknownAsnPenalty: 0 }", "pipeline.unknownAsnPenalty"),
                Arguments.of("health: { active: { interval: 2d } }", "health.active.interval"),
                Arguments.of("health: { active: { interval: 0s } }", "health.active.interval"),
                Arguments.of("cluster: { deltasKept: 100001 }", "cluster.deltasKept"),
                Arguments.of("cluster: { fullEvery: 65 }", "cluster.fullEvery"),
                Arguments.of("cluster: { renewAfter: 6m }", "cluster.renewAfter"),
                Arguments.of("cluster: { leaseTtl: 500ms }", "cluster.leaseTtl"),
                Arguments.of("nodes: { livenessTimeout: 5s }", "nodes.livenessTimeout"),
                Arguments.of("admin: { requestLog: 100001 }", "admin.requestLog"),
                Arguments.of("admin: { flags: { minRequests: 0 } }", "admin.flags.minRequests"),
                Arguments.of("distribution: { maxCount: 0 }", "distribution.maxCount"),
                Arguments.of("distribution: { leaseMaxHold: 25h }", "distribution.leaseMaxHold"));
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("outOfRange")
    void anOutOfRangeValueNamesItsDocumentedKey(String yaml, String key) throws IOException {
        assertTrue(documentation().contains("`" + key + "`"), key + " is not documented in docs/configuration.md");
        Path file = dir.resolve("proxypool.yaml");
        Files.writeString(file, yaml + "\n");
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigLoader.load(file, Map.of()));
        assertEquals(key, e.key(), e.getMessage());
        assertTrue(e.getMessage().startsWith(key + ": "), e.getMessage());
    }

    @Test
    void theRecordsRefuseWhatTheFileRefusesNamingTheSameKey() {
        IllegalArgumentException connections = assertThrows(
                IllegalArgumentException.class,
                () -> new ProxyPoolConfig.Server(
                        "127.0.0.1", 8080, 9090, false, -1, Duration.ofSeconds(10), Duration.ofSeconds(60)));
        assertTrue(connections.getMessage().startsWith("server.maxConnections "), connections.getMessage());
        IllegalArgumentException io = assertThrows(
                IllegalArgumentException.class,
                () -> new ProxyPoolConfig.Gateway(Duration.ZERO, Duration.ofSeconds(60), Duration.ofMinutes(5)));
        assertTrue(io.getMessage().startsWith("gateway.ioTimeout "), io.getMessage());
        IllegalArgumentException head = assertThrows(
                IllegalArgumentException.class,
                () -> new ProxyPoolConfig.Server(
                        "127.0.0.1", 8080, 9090, false, 0, Duration.ofSeconds(-1), Duration.ofSeconds(60)));
        assertTrue(head.getMessage().startsWith("server.requestHeadTimeout "), head.getMessage());
        IllegalArgumentException deltas = assertThrows(
                IllegalArgumentException.class,
                () -> ClusterSettings.builder()
                        .deltasKept(ClusterSettings.MAX_DELTAS_KEPT + 1)
                        .fullEvery(1)
                        .build());
        assertTrue(deltas.getMessage().startsWith("cluster.deltasKept "), deltas.getMessage());
        IllegalArgumentException interval = assertThrows(
                IllegalArgumentException.class,
                () -> ProberSettings.builder()
                        .interval(ProxyPoolConfig.Health.MAX_ACTIVE_INTERVAL.plusMillis(1))
                        .build());
        assertTrue(interval.getMessage().startsWith("health.active.interval "), interval.getMessage());
        IllegalArgumentException timeout = assertThrows(
                IllegalArgumentException.class,
                () -> ValidatorSettings.builder()
                        .timeout(ProxyPoolConfig.Pipeline.MAX_VALIDATION_TIMEOUT.plusMillis(1))
                        .build());
        assertTrue(timeout.getMessage().startsWith("pipeline.validationTimeout "), timeout.getMessage());
        IllegalArgumentException replicas = assertThrows(
                IllegalArgumentException.class,
                () -> RedisClusterConfig.of(List.of("127.0.0.1:7000"))
                        .withWait(RedisClusterConfig.MAX_WAIT_REPLICAS + 1, Duration.ofMillis(500)));
        assertTrue(replicas.getMessage().startsWith("store.waitReplicas "), replicas.getMessage());
    }

    @Test
    void theSettingsRecordsTakeTheirDefaultsFromTheConfiguration() {
        ProxyPoolConfig d = ProxyPoolConfig.defaults();
        ValidatorSettings v = ValidatorSettings.DEFAULTS;
        assertEquals(d.pipeline().echoUrl(), v.echoUrl().toString());
        assertEquals(d.pipeline().validationConcurrency(), v.concurrency());
        assertEquals(d.pipeline().validationTimeout(), v.timeout());
        assertEquals(d.health().activeInterval(), ProberSettings.DEFAULTS.interval());
        assertEquals(
                d.health().activeTargets(),
                ProberSettings.DEFAULTS.targets().stream().map(Object::toString).toList());
        RedisClusterConfig cluster = RedisClusterConfig.of(List.of("127.0.0.1:7000"));
        assertEquals(d.store().shards(), cluster.shards());
        assertEquals(d.store().waitReplicas(), cluster.waitReplicas());
        assertEquals(d.store().waitTimeout(), cluster.waitTimeout());
        assertEquals(d.store().keyPrefix(), cluster.keyPrefix());
        // store.uri's default is written once as a URI; the single-node client's defaults must be that URI
        assertEquals(RedisStoreConfig.DEFAULTS, RedisStoreConfig.fromUri(ProxyPoolConfig.Store.DEFAULT_URI));
    }

    private static String documentation() throws IOException {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path doc = p.resolve("docs/configuration.md");
            if (Files.isRegularFile(doc)) {
                return Files.readString(doc);
            }
        }
        throw new IllegalStateException(
                "docs/configuration.md not found above " + Path.of("").toAbsolutePath());
    }
}
