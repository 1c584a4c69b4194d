package dev.proxypool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code proxypool serve --import-config} is a known flag, refused with the key named when no database is configured. */
class ServeImportConfigTest {

    @TempDir
    Path dir;

    @Test
    void importConfigWithoutADatabaseIsABadConfigNamingDatabaseType() throws Exception {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                health: { active: { enabled: false } }
                """);
        CliRunner.Run r = CliRunner.run("serve", "--config", cfg.toString(), "--import-config");
        assertEquals(Main.EXIT_USAGE, r.exit(), r.err());
        assertTrue(r.err().contains("bad config: database.type: --import-config"), r.err());
    }

    @Test
    void theHelpDescribesTheFlag() {
        CliRunner.Run r = CliRunner.run("serve", "--help");
        assertEquals(0, r.exit());
        assertTrue(r.out().contains("--import-config"), r.out());
    }
}
