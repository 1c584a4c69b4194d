package dev.proxypool.sdk.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code server.maxConnections}, {@code server.requestHeadTimeout}, {@code server.apiIdleTimeout}
 * and {@code server.socksPort} (absent: off; 0: any free port).
 */
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
        assertEquals(Duration.ofSeconds(10), d.firstRequestTimeout());
        assertEquals(256, d.maxConnectionsPerAddress());
        assertEquals(Duration.ofSeconds(10), ProxyPoolConfig.Server.DEFAULTS.firstRequestTimeout());

        ProxyPoolConfig.Server s = ConfigLoader.load(
                        write("server: { maxConnections: 2000, requestHeadTimeout: 3s, apiIdleTimeout: 30s }\n"),
                        Map.of("PROXYPOOL_SERVER_REQUESTHEADTIMEOUT", "5s"))
                .server();
        assertEquals(2000, s.maxConnections());
        assertEquals(Duration.ofSeconds(5), s.requestHeadTimeout());
        assertEquals(Duration.ofSeconds(30), s.apiIdleTimeout());
    }

    @Test
    void firstRequestTimeoutAndPerAddressCapAreReadAndChecked() throws IOException {
        ProxyPoolConfig.Server s = ConfigLoader.load(
                        write("server: { firstRequestTimeout: 3s, maxConnectionsPerAddress: 40 }\n"),
                        Map.of("PROXYPOOL_SERVER_MAXCONNECTIONSPERADDRESS", "50"))
                .server();
        assertEquals(Duration.ofSeconds(3), s.firstRequestTimeout());
        assertEquals(50, s.maxConnectionsPerAddress());
        ConfigException zero = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(write("server: { firstRequestTimeout: 0s }\n"), Map.of()));
        assertEquals("server.firstRequestTimeout", zero.key());
        ConfigException cap = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(write("server: { maxConnectionsPerAddress: 0 }\n"), Map.of()));
        assertEquals("server.maxConnectionsPerAddress", cap.key());
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

    @Test
    void absentIsOffZeroIsAnyPortAndTheEnvironmentWins() throws IOException {
        assertEquals(
                OptionalInt.empty(),
                ConfigLoader.load(write("server: { gatewayPort: 8080 }\n"), Map.of())
                        .server()
                        .socksPort());
        assertEquals(OptionalInt.empty(), ProxyPoolConfig.Server.DEFAULTS.socksPort());
        assertEquals(
                OptionalInt.of(0),
                ConfigLoader.load(write("server: { socksPort: 0 }\n"), Map.of())
                        .server()
                        .socksPort());
        assertEquals(
                OptionalInt.of(1081),
                ConfigLoader.load(write("server: { socksPort: 1080 }\n"), Map.of("PROXYPOOL_SERVER_SOCKSPORT", "1081"))
                        .server()
                        .socksPort());
        // the constructors that predate the key leave it off
        assertEquals(OptionalInt.empty(), new ProxyPoolConfig.Server("127.0.0.1", 1, 2).socksPort());
        assertEquals(
                OptionalInt.empty(),
                new ProxyPoolConfig.Server("h", 1, 2, false, 0, Duration.ofSeconds(1), Duration.ofSeconds(1))
                        .socksPort());
    }

    @Test
    void socksPortBadValuesNameTheKey() throws IOException {
        for (String bad : new String[] {"-1", "65536", "socks"}) {
            ConfigException e = assertThrows(
                    ConfigException.class,
                    () -> ConfigLoader.load(write("server: { socksPort: " + bad + " }\n"), Map.of()));
            assertEquals("server.socksPort", e.key(), bad);
        }
        ConfigException clash = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(write("server: { gatewayPort: 8080, socksPort: 8080 }\n"), Map.of()));
        assertEquals("server.socksPort", clash.key());
        assertTrue(clash.getMessage().contains("must differ"), clash.getMessage());
        ConfigException api = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(write("server: { apiPort: 9191, socksPort: 9191 }\n"), Map.of()));
        assertEquals("server.socksPort", api.key());
        assertThrows(
                IllegalArgumentException.class,
                () -> new ProxyPoolConfig.Server(
                        "h",
                        1,
                        2,
                        false,
                        0,
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(1),
                        OptionalInt.of(70000),
                        Optional.empty(),
                        Optional.empty()));
    }
}
