package dev.proxypool.sdk.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.core.sequential.FetchOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProviderRegistryTest {

    @TempDir
    Path dir;

    private static void rejects(String fragment, org.junit.jupiter.api.function.Executable e) {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, e);
        assertTrue(
                ex.getMessage().contains(fragment), () -> "message '" + ex.getMessage() + "' lacks '" + fragment + "'");
    }

    @Test
    void unknownAndNotEnabledTypesAreRefusedNamingTheKeyAndTheKnownTypes() {
        Fx fx = new Fx(dir);
        ProviderRegistry registry = ProviderRegistry.standard(Set.of("jsonl_inventory"));
        rejects(
                "providers[x].type: unknown type 'xml_feed' (known: csv, http_json_feed, jsonl_inventory, session_gateway, text_list)",
                () -> registry.create(ProviderConfig.of("x", "xml_feed", Map.of()), fx.environment()));
        rejects(
                "providers[y].type: type 'csv' is not enabled (enabled: jsonl_inventory; known: csv, http_json_feed,"
                        + " jsonl_inventory, session_gateway, text_list)",
                () -> registry.create(ProviderConfig.of("y", "csv", Map.of("path", "a")), fx.environment()));
        assertEquals(
                Set.of("csv", "http_json_feed", "jsonl_inventory", "session_gateway", "text_list"),
                registry.knownTypes());
        assertEquals(Set.of("jsonl_inventory"), registry.enabledTypes());
    }

    @Test
    void typesAreRegisteredExplicitlyInCode() {
        Fx fx = new Fx(dir);
        ProviderAdapter mine =
                ctx -> FetchReport.failed("m", ctx.upstream(), FetchOutcome.ErrorKind.NETWORK, "", Duration.ZERO);
        ProviderRegistry registry = ProviderRegistry.builtIns()
                .register("my_vendor", (c, e) -> mine)
                .enable("my_vendor")
                .build();
        assertSame(mine, registry.create(ProviderConfig.of("m", "my_vendor", Map.of()), fx.environment()));
        rejects("registered twice", () -> ProviderRegistry.builtIns().register("csv", (c, e) -> mine));
        rejects(
                "enabled provider type 'nope' is unknown",
                () -> ProviderRegistry.builtIns().enable("nope"));
        rejects("must be snake_case", () -> ProviderRegistry.builder().register("My-Type", (c, e) -> mine));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown setting          | jsonl_inventory | path=a;tokenENV=X             |                | providers[p].tokenENV: unknown setting for type 'jsonl_inventory'
            neither path nor url     | jsonl_inventory | protocol=http                 |                | providers[p].path or providers[p].url: set exactly one
            both path and url        | text_list       | path=a;url=http://h/x         |                | set exactly one
            url required             | http_json_feed  | path=a                        |                | providers[p].path: unknown setting
            feed without url         | http_json_feed  | listField=data                |                | providers[p].url is required
            token with file          | jsonl_inventory | path=a;tokenEnv=T             |                | providers[p].tokenEnv applies only to url sources
            token and basic          | http_json_feed  | url=http://h/x;tokenEnv=T;username=u;passwordEnv=P | | set either tokenEnv or username/passwordEnv
            user without password    | http_json_feed  | url=http://h/x;username=u     |                | providers[p].passwordEnv is required with providers[p].username
            non-http url             | http_json_feed  | url=file:///etc/passwd        |                | providers[p].url: only http:// and https:// URLs are supported
            unclosed placeholder     | http_json_feed  | url=http://h/x?c={country     |                | providers[p].url: unclosed '{'
            bad placeholder          | http_json_feed  | url=http://h/x?c={a-b}        |                | placeholder '{a-b}' must be letters
            bad protocol             | text_list       | path=a;protocol=gopher        |                | providers[p].protocol: unknown protocol 'gopher'
            bad maxBytes             | csv             | path=a;maxBytes=lots          |                | providers[p].maxBytes: 'lots' is not a size
            bad timeout              | http_json_feed  | url=http://h/x;timeout=soon   |                | providers[p].timeout: 'soon' is not a positive duration
            bad weight               | csv             | path=a;weight=0               |                | providers[p].weight: '0' is not a positive integer
            bad static label         | csv             | path=a;labels.a b=x           |                | providers[p].labels.a b: invalid label
            bad expiry format        | csv             | path=a;expiresAtFormat=unix   |                | providers[p].expiresAtFormat: unknown format 'unix'
            bad delimiter            | csv             | path=a;delimiter=ab           |                | providers[p].delimiter: 'ab' must be one character
            password field           | http_json_feed  | url=http://h/x                | password=pass  | providers[p].fields.password: credentials are never stored
            username field           | csv             | path=a                        | username=user  | providers[p].fields.username: credentials are never stored
            unknown field            | csv             | path=a                        | hostname=ip    | providers[p].fields.hostname: unknown field
            fields on a text list    | text_list       | path=a                        | host=ip        | providers[p].fields: type 'text_list' has no fields to map
            bad credentialRef        | csv             | path=a;credentialRef=a b      |                | providers[p].credentialRef: credentialRef 'a b' is invalid
            """)
    void badSettingsAreRefusedAtCreationNamingTheKey(
            String name, String type, String settings, String fields, String message) {
        Fx fx = new Fx(dir);
        rejects(message, () -> fx.adapter("p", type, pairs(settings), pairs(fields)));
    }

    @Test
    void configNamesAndValuesAreChecked() {
        rejects(
                "providers[bad name].name: 'bad name' is invalid",
                () -> ProviderConfig.of("bad name", "csv", Map.of()));
        rejects("providers[p].type is missing", () -> ProviderConfig.of("p", " ", Map.of()));
        ProviderConfig c = new ProviderConfig("p", "csv", Map.of("path", " a.csv "), Map.of("host", "ip"));
        assertEquals("a.csv", c.settings().get("path"));
        assertEquals("ProviderConfig[p type=csv settings=[path]]", c.toString(), "values stay out of toString");
        rejects("upstreams[u]: fetch timeout must be positive", () -> new FetchContext("u", Map.of(), Duration.ZERO));
    }

    @Test
    void settingsParseSizesAndDurations() {
        assertEquals(Duration.ofMillis(500), Settings.parseDuration("500ms"));
        assertEquals(Duration.ofSeconds(10), Settings.parseDuration("10s"));
        assertEquals(Duration.ofMinutes(2), Settings.parseDuration("2m"));
        assertEquals(Duration.ofHours(1), Settings.parseDuration("1h"));
        assertEquals(Duration.ofSeconds(10), Settings.parseDuration("PT10S"));
        assertEquals(null, Settings.parseDuration("10x"));
        Settings s =
                new Settings(ProviderConfig.of("p", "csv", Map.of("maxBytes", "512KB", "timeout", "2MB")), Set.of());
        assertEquals(512 * 1024, s.bytes("maxBytes", 1));
        assertEquals(2 * 1024 * 1024, s.bytes("timeout", 1));
    }

    private static Map<String, String> pairs(String s) {
        Map<String, String> m = new HashMap<>();
        if (s != null) {
            for (String kv : s.split(";")) {
                int eq = kv.indexOf('=');
                m.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
        return m;
    }
}
