package dev.proxypool.cli.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code admin snapshot}'s first line counts proxies the way people read them. */
class SnapshotCommandTest {

    @Test
    void countsReadAsEnglish() {
        assertEquals("0 proxies (the pool is empty)", SnapshotCommand.proxies(BigDecimal.ZERO));
        assertEquals("1 proxy", SnapshotCommand.proxies(BigDecimal.ONE));
        assertEquals("2 proxies", SnapshotCommand.proxies(BigDecimal.valueOf(2)));
    }

    @Test
    void anEmptyPoolSaysSo(@TempDir Path dir) throws Exception {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(
                cfg,
                "server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }\nadmin: { token: admin-0123456789abcdef }\n");
        try (ProxyPoolServer server =
                ProxyPoolServer.builder(ConfigLoader.load(cfg)).configDir(dir).start()) {
            AdminRun r = AdminRun.run(
                    "admin",
                    "snapshot",
                    "--api",
                    "http://127.0.0.1:" + server.apiPort(),
                    "--token",
                    "admin-0123456789abcdef");
            assertEquals(0, r.exit(), r.err());
            assertTrue(
                    r.out()
                            .lines()
                            .findFirst()
                            .orElse("")
                            .matches("snapshot version \\d+, generated .* 0 proxies \\(the pool is empty\\)"),
                    r.out());
        }
    }
}
