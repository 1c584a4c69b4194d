package dev.proxypool.sdk.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.testkit.TestCertificateAuthority;
import dev.proxypool.testkit.TestCertificateAuthority.Issued;
import dev.proxypool.testkit.TestCertificateAuthority.KeyType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code server.gatewayTls} and {@code server.apiTls}: paths relative to the config, files checked at load. */
class TlsConfigTest {

    @TempDir
    Path dir;

    private Path write(String yaml) throws IOException {
        Path f = dir.resolve("proxypool.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    @Test
    void absentIsPlainAndFilesResolveAgainstTheConfigDirectory() throws IOException {
        ProxyPoolConfig.Server plain = ConfigLoader.load(write("server: { gatewayPort: 8080 }\n"), Map.of())
                .server();
        assertEquals(Optional.empty(), plain.gatewayTls());
        assertEquals(Optional.empty(), plain.apiTls());
        assertEquals(Optional.empty(), ProxyPoolConfig.Server.DEFAULTS.apiTls());

        TestCertificateAuthority ca = TestCertificateAuthority.create(dir);
        Issued gw = ca.issue("gw", KeyType.RSA, 1);
        Issued api = ca.issue("api", KeyType.EC, 2);
        ProxyPoolConfig.Server s = ConfigLoader.load(write("""
                                server:
                                  gatewayTls: { certFile: gw.pem, keyFile: gw.key }
                                  apiTls: { certFile: api.pem, keyFile: api.key }
                                """), Map.of()).server();
        assertEquals(
                new ProxyPoolConfig.TlsFiles(gw.certFile(), gw.keyFile()),
                s.gatewayTls().orElseThrow());
        assertEquals(
                new ProxyPoolConfig.TlsFiles(api.certFile(), api.keyFile()),
                s.apiTls().orElseThrow());
    }

    @Test
    void badSettingsNameTheKeyAndTheFile() throws IOException {
        TestCertificateAuthority ca = TestCertificateAuthority.create(dir);
        ca.issue("gw", KeyType.RSA, 1);
        ca.issue("other", KeyType.RSA, 2);

        ConfigException noKey = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(write("server: { gatewayTls: { certFile: gw.pem } }\n"), Map.of()));
        assertEquals("server.gatewayTls.keyFile", noKey.key());
        assertTrue(noKey.getMessage().contains("is required"), noKey.getMessage());

        ConfigException missing = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(
                        write("server: { apiTls: { certFile: nope.pem, keyFile: gw.key } }\n"), Map.of()));
        assertEquals("server.apiTls.certFile", missing.key());
        assertTrue(missing.getMessage().contains(dir.resolve("nope.pem") + " does not exist"), missing.getMessage());

        ConfigException wrong = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(
                        write("server: { apiTls: { certFile: gw.pem, keyFile: other.key } }\n"), Map.of()));
        assertEquals("server.apiTls.keyFile", wrong.key());
        assertTrue(wrong.getMessage().contains("does not hold the private key"), wrong.getMessage());

        ConfigException unknown = assertThrows(
                ConfigException.class,
                () -> ConfigLoader.load(
                        write("server: { gatewayTls: { certFile: gw.pem, keyFile: gw.key, password: x } }\n"),
                        Map.of()));
        assertEquals("server.gatewayTls.password", unknown.key());
    }
}
