package dev.proxypool.sdk.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigException;
import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.testkit.fuzz.FuzzRun;
import dev.proxypool.testkit.fuzz.FuzzRun.Outcome;
import io.helidon.common.media.type.MediaTypes;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.config.yaml.YamlConfigParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #9 scenario 6, config loader: 100,000 generated {@code proxypool.yaml} texts (mutated valid
 * configs and configs assembled from the schema) go through the loader's validation, and 1,500
 * files with random {@code PROXYPOOL_*} overrides through {@link ConfigLoader#load(Path,
 * java.util.Map)}. Each one loads, or is refused with a
 * {@link ConfigException} whose key names where the problem is (a top-level section's path,
 * {@code --config} for the file itself) and whose message never repeats a secret; any other
 * exception is the loader's "500". No file takes more than a second of CPU.
 */
@Tag("slow")
class ConfigLoaderFuzzTest {

    static final Set<String> SECTIONS = Set.of(
            "server",
            "store",
            "database",
            "credentials",
            "admin",
            "clients",
            "providers",
            "upstreams",
            "routings",
            "health",
            "pipeline",
            "security",
            "distribution");

    @TempDir
    Path dir;

    /**
     * 100,000 texts through the loader's validation ({@link ConfigLoader#read}). The Helidon tree is
     * built here with the YAML parser only: {@link ConfigLoader#load} builds one with every
     * service-loaded parser, mapper and filter, which costs milliseconds per file; the file path
     * itself (and the environment overrides, which only it applies) is fuzzed below.
     */
    @Test
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everyTextIsValidOrRefusedWithAConfigErrorNamingTheKey() throws Throwable {
        FuzzRun run = FuzzRun.inProcess("config.yaml", 100_000);
        run.forEach((i, r) -> {
            ConfigTexts.Input in = ConfigTexts.next(r);
            byte[] bytes = in.yaml().getBytes(StandardCharsets.UTF_8);
            if (in.yaml().lines().anyMatch(l -> l.chars().filter(c -> c == '.').count() > 200)) {
                // ConfigLoader.load refuses these before Helidon sees them (checked in the file run)
                run.check(i, bytes, () -> Outcome.refused("--config (too many '.')"), o -> o);
                return;
            }
            run.<Object>check(
                    i,
                    bytes,
                    () -> {
                        Config tree;
                        // returns an Outcome (YAML refused), a ProxyPoolConfig or a ConfigException
                        try {
                            tree = Config.builder()
                                    .disableEnvironmentVariablesSource()
                                    .disableSystemPropertiesSource()
                                    .disableParserServices()
                                    .disableMapperServices()
                                    .disableFilterServices()
                                    .addParser(YamlConfigParser.create())
                                    .addSource(ConfigSources.create(in.yaml(), MediaTypes.APPLICATION_X_YAML))
                                    .build();
                            tree.asNodeList();
                        } catch (RuntimeException | StackOverflowError notYaml) {
                            // what ConfigLoader.load turns into a --config error; the file run checks that
                            return Outcome.refused("--config (YAML, checked in the file run)");
                        }
                        try {
                            return ConfigLoader.read(tree, dir);
                        } catch (ConfigException e) {
                            return e;
                        }
                    },
                    result -> result instanceof Outcome o ? o : verdict(result, in));
        });
        run.finish();
        run.require(run.accepted() > run.inputs() / 100, "too few configs valid (" + run.accepted() + ")");
    }

    /** 1,500 files through {@link ConfigLoader#load(Path, java.util.Map)}: the file, the YAML parse and the overrides. */
    @Test
    @Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everyFileLoadsOrIsRefusedWithAConfigErrorNamingTheKey() throws Throwable {
        Path file = dir.resolve("proxypool.yaml");
        FuzzRun run = FuzzRun.live("config.file", 1_500);
        run.forEach((i, r) -> {
            ConfigTexts.Input in = ConfigTexts.next(r);
            byte[] bytes = in.yaml().getBytes(StandardCharsets.UTF_8);
            run.check(
                    i,
                    bytes,
                    () -> {
                        Files.write(file, bytes);
                        try {
                            return ConfigLoader.load(file, in.env());
                        } catch (ConfigException e) {
                            return e;
                        }
                    },
                    result -> verdict(result, in));
        });
        run.finish();
        run.require(run.accepted() > 0, "no config loaded");
    }

    /** Found by this fuzz test: Helidon's duplicate-key error dumps both subtrees, values (secrets) included. */
    @Test
    void aYamlTreeErrorDoesNotRepeatTheConfigsValues() throws Exception {
        Path file = dir.resolve("dup.yaml");
        Files.writeString(file, "admin: { token: \"" + ConfigTexts.TOKEN + "\",\n   .   x: 1 }\n");
        ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(
                ConfigException.class, () -> ConfigLoader.load(file, java.util.Map.of()));
        assertEquals("--config", e.key(), e.getMessage());
        assertTrue(
                !e.getMessage().contains(ConfigTexts.CANARY), "the error repeats the admin token: " + e.getMessage());
    }

    /** Found by this fuzz test: a key of thousands of dots overflowed the stack in Helidon's tree building. */
    @Test
    void aKeyOfThousandsOfDotsIsAConfigErrorNotAStackOverflow() throws Exception {
        Path file = dir.resolve("dots.yaml");
        Files.writeString(file, "server: { gatewayPort" + ".".repeat(5_000) + ": 8080 }\n");
        ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(
                ConfigException.class, () -> ConfigLoader.load(file, java.util.Map.of()));
        assertEquals("--config", e.key(), e.getMessage());
    }

    /** Found by this fuzz test (seed 4280506400697993537, input 90727): an echoed value spilled its line breaks into the message. */
    @Test
    void anEchoedValueWithLineBreaksKeepsTheErrorOnOneLine() throws Exception {
        Path file = dir.resolve("multiline.yaml");
        Files.writeString(
                file,
                "store: { type: redis, uri: \"rediPG_PASSWORD|\\n\\nstore: { type: rediss://127.0.0.1:6379\" }\n");
        ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(
                ConfigException.class, () -> ConfigLoader.load(file, java.util.Map.of()));
        assertEquals("store.uri", e.key(), e.getMessage());
        assertEquals(-1, e.getMessage().indexOf('\n'), e.getMessage());
        assertTrue(
                e.getMessage().contains("rediPG_PASSWORD|\\n\\nstore"),
                "the value is shown escaped: " + e.getMessage());
    }

    static Outcome verdict(Object result, ConfigTexts.Input in) {
        if (result instanceof ProxyPoolConfig c) {
            assertTrue(
                    !c.toString().contains(ConfigTexts.CANARY) || !in.secretsInPlace(),
                    "a secret in ProxyPoolConfig.toString()");
            assertTrue(c.server().gatewayPort() >= 0 && c.server().gatewayPort() <= 65535, "gateway port");
            assertTrue(c.server().apiPort() >= 0 && c.server().apiPort() <= 65535, "api port");
            return Outcome.parsed("loaded");
        }
        ConfigException e = (ConfigException) result;
        String key = e.key();
        assertTrue(key != null && !key.isBlank(), "a config error without a key");
        assertTrue(
                e.getMessage().startsWith(key + ": ") && e.getMessage().length() > key.length() + 2,
                "a config error that does not say what is wrong: " + e.getMessage());
        String section = key.split("[.\\[]", 2)[0];
        boolean unknownTopLevelKey =
                !key.contains(".") && e.getMessage().startsWith(key + ": unknown key (known here: ");
        assertTrue(
                key.equals("--config") || key.equals("(root)") || SECTIONS.contains(section) || unknownTopLevelKey,
                "a config error naming no known place: " + e.getMessage());
        assertTrue(
                !e.getMessage().contains(ConfigTexts.CANARY) || !in.secretsInPlace(),
                "a config error repeats a secret: " + e.getMessage());
        assertEquals(-1, e.getMessage().indexOf('\n'), "a multi-line config error (parser dump?): " + e.getMessage());
        return Outcome.refused(
                key.equals("--config")
                        ? "--config " + detail(e.getMessage())
                        : unknownTopLevelKey ? "unknown top-level key" : section);
    }

    private static String detail(String message) {
        int at = message.indexOf(" as YAML: ");
        String d = at < 0 ? message : message.substring(at + 10);
        return d.substring(0, Math.min(32, d.length()));
    }
}
