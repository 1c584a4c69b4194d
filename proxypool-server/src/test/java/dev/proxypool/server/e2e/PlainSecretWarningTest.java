package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plain client secret (SPEC: "dev only, warns at start") is warned about at start, naming the client, never the secret. */
class PlainSecretWarningTest {

    private static final String SECRET = "plain-canary-5e1f";

    @TempDir
    Path dir;

    @Test
    void aPlainSecretIsWarnedAboutByNameOnly() throws Exception {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                clients:
                  - { name: alice, secret: %s }
                  - { name: bob, secretHash: "%s" }
                health: { active: { enabled: false } }
                """.formatted(SECRET, dev.proxypool.core.security.SecretHash.hash("bob-pw".toCharArray(), 2_000)));
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                records.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger log = Logger.getLogger(ProxyPoolServer.class.getName());
        log.addHandler(capture);
        try (ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of())).configDir(dir).start()) {
            List<String> warnings = records.stream().filter(r -> r.getLevel() == Level.WARNING)
                    .map(LogRecord::getMessage).filter(m -> m.contains("plain secret")).toList();
            assertEquals(1, warnings.size(), "one warning, for alice only: " + warnings);
            assertTrue(warnings.getFirst().contains("clients[alice].secret"), warnings.getFirst());
            for (LogRecord r : records) {
                assertFalse(String.valueOf(r.getMessage()).contains(SECRET), "the secret itself is never logged");
            }
        } finally {
            log.removeHandler(capture);
        }
    }
}
