package dev.proxypool.sdk.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code server.maxConnections}, {@code server.requestHeadTimeout} and {@code server.apiIdleTimeout}. */
class ServerLimitsConfigTest {

    @TempDir
    Path dir;

    private Path write(String yaml) throws IOException {
        Path f = dir.resolve("proxypool.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    @Test
    void defaultsThenFileThenEnvironment() throws IOException {
        ProxyPoolConfig.Server d = ConfigLoader.load(write("server: { gatewayPort: 8080 }\n"), Map.of())
                .server();
        assertEquals(0, d.maxConnections(), "0: sized from the descriptor limit at start");
        assertEquals(Duration.ofSeconds(10), d.requestHeadTimeout());
        assertEquals(Duration.ofSeconds(60), d.apiIdleTimeout());

        ProxyPoolConfig.Server s = ConfigLoader.load(
                        write("server: { maxConnections: 2000, requestHeadTimeout: 3s, apiIdleTimeout: 30s }\n"),
                        Map.of("PROXYPOOL_SERVER_REQUESTHEADTIMEOUT", "5s"))
                .server();
        assertEquals(2000, s.maxConnections());
        assertEquals(Duration.ofSeconds(5), s.requestHeadTimeout());
        assertEquals(Duration.ofSeconds(30), s.apiIdleTimeout());
    }

    @Test
    void badValuesNameTheKey() throws IOException {
        ConfigException negative = assertThrows(
                ConfigException.class, () -> ConfigLoader.load(write("server: { maxConnections: -1 }\n"), Map.of()));
        assertEquals("server.maxConnections", negative.key());
        ConfigException zero = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(write("server: { requestHeadTimeout: 0s }\n"), Map.of()));
        assertEquals("server.requestHeadTimeout", zero.key());
        assertTrue(zero.getMessage().contains("must be positive"), zero.getMessage());
        ConfigException idle = assertThrows(
                ConfigException.class, () -> ConfigLoader.load(write("server: { apiIdleTimeout: -5s }\n"), Map.of()));
        assertEquals("server.apiIdleTimeout", idle.key());
    }
}
