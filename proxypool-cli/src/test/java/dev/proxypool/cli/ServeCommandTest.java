package dev.proxypool.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code proxypool serve} refusing a bad config: one line naming the key, exit 2 (usage). */
class ServeCommandTest {

    @TempDir
    Path dir;

    @Test
    void aMisspeltProviderTypeNamesItsKeyAndIsAUsageError() throws IOException {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                providers: [{ name: vendor-a, type: jsonl_inventroy, path: inventory.jsonl }]
                upstreams: [{ name: vendor-a, provider: vendor-a }]
                """);
        CliRunner.Run r = assertTimeoutPreemptively(
                Duration.ofSeconds(60), () -> CliRunner.run("serve", "--config", cfg.toString()));
        assertEquals(Main.EXIT_USAGE, r.exit(), r.out() + r.err());
        assertEquals(
                List.of("proxypool serve: bad config: providers[vendor-a].type: unknown type 'jsonl_inventroy' "
                        + "(known: csv, http_json_feed, jsonl_inventory, session_gateway, text_list)"),
                r.errLines());
    }

    @Test
    void aProviderSettingAnAdapterRefusesIsAUsageErrorNamingTheKey() throws IOException {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                providers: [{ name: vendor-a, type: text_list }]
                upstreams: [{ name: vendor-a, provider: vendor-a }]
                """);
        CliRunner.Run r = assertTimeoutPreemptively(
                Duration.ofSeconds(60), () -> CliRunner.run("serve", "--config", cfg.toString()));
        assertEquals(Main.EXIT_USAGE, r.exit(), r.out() + r.err());
        assertEquals(
                List.of(
                        "proxypool serve: bad config: providers[vendor-a].path or providers[vendor-a].url: set exactly one"),
                r.errLines());
    }
}
