package dev.proxypool.server.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.sdk.config.ConfigLoader;
import dev.proxypool.server.ProxyPoolServer;
import dev.proxypool.server.e2e.security.LogCapture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plain client secret (docs/configuration.md#clients-list: for development only) is warned about at start, naming the client, never the secret. */
class PlainSecretWarningTest {

    private static final String SECRET = "plain-canary-5e1f";

    @TempDir
    Path dir;

    @Test
    void aPlainSecretIsWarnedAboutByNameOnly() throws Exception {
        Path cfg = dir.resolve("proxypool.yaml");
        Files.writeString(
                cfg, """
                server: { host: 127.0.0.1, gatewayPort: 0, apiPort: 0 }
                clients:
                  - { name: alice, secret: %s }
                  - { name: bob, secretHash: "%s" }
                health: { active: { enabled: false } }
                """.formatted(SECRET, dev.proxypool.core.security.SecretHash.hash("bob-pw".toCharArray(), 2_000)));
        String logger = ProxyPoolServer.class.getName();
        try (LogCapture logs = LogCapture.install();
                ProxyPoolServer server = ProxyPoolServer.builder(ConfigLoader.load(cfg, Map.of()))
                        .configDir(dir)
                        .start()) {
            List<String> warnings = logs.lines().stream()
                    .filter(l -> l.is("WARNING", logger))
                    .map(LogCapture.Line::text)
                    .filter(m -> m.contains("plain secret"))
                    .toList();
            assertEquals(1, warnings.size(), "one warning, for alice only: " + warnings);
            assertTrue(warnings.getFirst().contains("clients[alice].secret"), warnings.getFirst());
            for (LogCapture.Line l : logs.lines()) {
                assertFalse(l.text().contains(SECRET), "the secret itself is never logged: " + l.where());
            }
        }
    }
}
