package dev.proxypool.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigException;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A config file's entities written as documents and read back by the config reader give equal records. */
class ConfigDocsTest {

    @TempDir
    Path dir;

    private ProxyPoolConfig load(String yaml) throws Exception {
        Path f = dir.resolve("proxypool.yaml");
        Files.writeString(f, yaml);
        return ConfigLoader.load(f, Map.of());
    }

    @Test
    void everyEntityRoundTripsThroughItsDocument() throws Exception {
        ProxyPoolConfig c =
                load("""
                clients:
                  - { name: alice, secretHash: "%s", token: alice-token-0123456789, quota: { extractionsPerHour: 1000 }, rateLimit: { rps: 200 } }
                  - { name: bob }
                providers:
                  - { name: lab, type: jsonl_inventory, path: inventory/lab.jsonl, labels: { type: datacenter } }
                  - { name: vendor-a, type: http_json_feed, url: "https://feed.example/list", tokenEnv: VENDOR_A_TOKEN,
                      fields: { host: ip, port: port, protocol: protocol, expiresAt: expire_time }, timeout: 5s }
                upstreams:
                  - { name: vendor-a-us, provider: vendor-a, params: { country: US }, fetch: { interval: 30s, lowWaterMark: 50 } }
                  - { name: vendor-a-de, provider: vendor-a, params: { country: DE }, fetch: { interval: 2m } }
                  - { name: lab, provider: lab, validate: false }
                routings:
                  - name: shop
                    match: { hosts: ["*.shop.example", "shop.example"], ports: [443], methods: [GET, CONNECT], headers: { X-Tenant: a } }
                    strategy: sequential
                    upstreams: [vendor-a-us, vendor-a-de]
                    exhaustion: loop
                    emptyThreshold: 5
                    filter: { protocol: http, labels: { type: residential } }
                    minRemainingTtl: 30s
                    maxHealthAge: 2m
                    sticky: { enabled: true, header: X-S, lifetime: 10m, idle: 60s, onLost: strict, maxEntries: 5000 }
                    retry: { maxAttempts: 3, budgetPercent: 10 }
                    onNoCandidate: wait
                    waitTimeout: 2s
                  - { name: hashed, match: { clients: [alice] }, strategy: consistentHash, hashKey: "header:X-Key" }
                  - { name: default }
                """.formatted(dev.proxypool.core.security.SecretHash.hash("s3cret".toCharArray(), 1000)));

        ConfigState state = ConfigState.from(c);
        assertEquals(
                List.of("shop", "hashed", "default"), state.names(EntityType.ROUTING), "routings keep their order");
        ProxyPoolConfig back = state.validate(dir);

        // providers, upstreams and clients are kept by name; routings in order
        assertEquals(sorted(c.providers(), ProxyPoolConfig.Provider::name), back.providers());
        assertEquals(sorted(c.upstreams(), ProxyPoolConfig.Upstream::name), back.upstreams());
        assertEquals(c.routings(), back.routings());
        assertEquals(c.clients().get(0).secretHash(), back.clients().get(0).secretHash());
        assertEquals(1000, back.clients().get(0).extractionsPerHour());
        assertEquals(200.0, back.clients().get(0).rps());
        assertTrue(back.clients().get(0).token().isEmpty(), "tokens are only kept hashed");
        assertEquals(
                ClientDocs.tokenHash("alice-token-0123456789"),
                state.find(EntityType.CLIENT, "alice").orElseThrow().doc().get(Entity.TOKEN_HASH));
        assertEquals(
                "alice",
                state.clientForTokenHash(ClientDocs.tokenHash("alice-token-0123456789"))
                        .orElseThrow());
        assertTrue(state.clientForTokenHash(ClientDocs.tokenHash("wrong-token-0123456789"))
                .isEmpty());
    }

    private static <T> List<T> sorted(List<T> in, java.util.function.Function<T, String> name) {
        return in.stream().sorted(java.util.Comparator.comparing(name)).toList();
    }

    @Test
    void aPlainDevSecretIsHashedBeforeItIsStored() throws Exception {
        ProxyPoolConfig c = load("clients: [{ name: dev, secret: plain-dev-secret }]\n");
        Entity devClient = ConfigState.from(c).find(EntityType.CLIENT, "dev").orElseThrow();
        String hash = (String) devClient.doc().get(Entity.SECRET_HASH);
        assertTrue(dev.proxypool.core.security.SecretHash.verify("plain-dev-secret".toCharArray(), hash));
        assertFalse(JsonTree.write(devClient.doc()).contains("plain-dev-secret"));
    }

    @Test
    void validationNamesTheKeyLikeTheConfigFile() {
        Map<String, Object> bad = Map.of("name", "shop", "strategy", "sequential", "upstreams", List.of("nope"));
        ConfigState s =
                ConfigState.EMPTY.with(EntityType.ROUTING, List.of(new Entity(EntityType.ROUTING, "shop", bad)));
        ConfigException e = assertThrows(ConfigException.class, () -> s.validate(dir));
        assertEquals(
                "routings[shop].upstreams[0]: names upstream 'nope', which is not defined under upstreams",
                e.getMessage());
    }

    @Test
    void publicDocumentsHideSecrets() {
        Entity client = new Entity(
                EntityType.CLIENT,
                "alice",
                ClientDocs.doc(
                        "alice",
                        java.util.Optional.of("pbkdf2-sha256$x"),
                        java.util.Optional.of(ClientDocs.tokenHash("t")),
                        5,
                        1.5));
        String json = JsonTree.write(client.publicDoc());
        assertEquals(
                "{\"name\":\"alice\",\"quota\":{\"extractionsPerHour\":5},\"rateLimit\":{\"rps\":1.5},"
                        + "\"hasSecret\":true,\"hasToken\":true}",
                json);
        Entity provider = new Entity(
                EntityType.PROVIDER,
                "v",
                Map.of("name", "v", "type", "http_json_feed", "url", "https://user:pa55@feed.example:8443/x?y=1"));
        assertEquals(
                "https://***@feed.example:8443/x?y=***", provider.publicDoc().get("url"));
        assertEquals("https://feed.example/a@b", SecretUrls.mask("https://feed.example/a@b"));
        assertEquals("https://***@feed.example/", SecretUrls.mask("https://user@feed.example/"));
    }

    @Test
    void jsonTreeWritesWhatItParses() {
        String json = "{\"a\":[1,2.5,\"x\\\"y\",true,null,{\"b\":{}}],\"c\":\"\\u0001\"}";
        assertEquals(json, JsonTree.write(JsonTree.parseObject(json)));
        assertEquals(
                "{\"a\":200,\"b\":1.5,\"c\":1000,\"d\":1E+999999999}",
                JsonTree.write(JsonTree.parseObject("{\"a\": 200.0, \"b\": 1.50, \"c\": 1e3, \"d\": 1e999999999}")),
                "one form per number; a huge exponent stays short");
        assertEquals(JsonTree.parseObject("{\"x\": 5}"), JsonTree.freeze(Map.of("x", 5.0)));
        assertThrows(IllegalArgumentException.class, () -> JsonTree.parseObject("[1]"));
        assertThrows(IllegalArgumentException.class, () -> JsonTree.parseObject("{\"a\": 1} x"));
        assertThrows(IllegalArgumentException.class, () -> JsonTree.parseObject("{".repeat(40) + "}".repeat(40)));
    }
}
