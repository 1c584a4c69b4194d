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

/** {@code gateway.firstByteTimeout}: its default, the file, the environment, and its check. */
class GatewayFirstByteTimeoutConfigTest {

    @TempDir
    Path dir;

    private Path write(String yaml) throws IOException {
        Path f = dir.resolve("proxypool.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    @Test
    void firstByteTimeoutDefaultsTo10sAndIsReadFromTheFileAndTheEnvironment() throws IOException {
        assertEquals(
                Duration.ofSeconds(10),
                ConfigLoader.load(write("gateway: { ioTimeout: 30s }\n"), Map.of())
                        .gateway()
                        .firstByteTimeout());
        assertEquals(
                Duration.ofSeconds(2),
                ConfigLoader.load(write("gateway: { firstByteTimeout: 2s }\n"), Map.of())
                        .gateway()
                        .firstByteTimeout());
        assertEquals(
                Duration.ofSeconds(3),
                ConfigLoader.load(
                                write("gateway: { firstByteTimeout: 2s }\n"),
                                Map.of("PROXYPOOL_GATEWAY_FIRSTBYTETIMEOUT", "3s"))
                        .gateway()
                        .firstByteTimeout());
    }

    @Test
    void aZeroFirstByteTimeoutIsRefusedNamingTheKey() {
        ConfigException e = assertThrows(
                ConfigException.class, () -> ConfigLoader.load(write("gateway: { firstByteTimeout: 0s }\n"), Map.of()));
        assertTrue(e.getMessage().contains("firstByteTimeout"), e.getMessage());
    }
}
