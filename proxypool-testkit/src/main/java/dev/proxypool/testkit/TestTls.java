package dev.proxypool.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The test kit's TLS material: one self-signed certificate per JVM for {@code localhost},
 * {@code 127.0.0.1} and {@code ::1}, made at first use by running the JDK's own {@code keytool}
 * into a temporary PKCS12 file (deleted once loaded). No key material ships in the kit, and no
 * library beyond the JDK makes certificates.
 *
 * <p>{@link #serverContext()} serves it; {@link #clientContext()} trusts it and nothing else, so a
 * client using the default trust store still rejects the fakes (a TLS failure to test).
 */
public final class TestTls {

    static final String ALIAS = "proxypool-testkit";

    private TestTls() {}

    private static final class Material {
        static final KeyStore KEYS;
        static final char[] PASSWORD;
        static final X509Certificate CERT;
        static final SSLContext SERVER;
        static final SSLContext CLIENT;

        static {
            try {
                PASSWORD = HexFormat.of().formatHex(randomBytes(12)).toCharArray();
                KEYS = generate(PASSWORD);
                CERT = (X509Certificate) KEYS.getCertificate(ALIAS);
                KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(KEYS, PASSWORD);
                SERVER = SSLContext.getInstance("TLS");
                SERVER.init(kmf.getKeyManagers(), null, null);
                KeyStore trust = KeyStore.getInstance("PKCS12");
                trust.load(null, null);
                trust.setCertificateEntry(ALIAS, CERT);
                TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                tmf.init(trust);
                CLIENT = SSLContext.getInstance("TLS");
                CLIENT.init(null, tmf.getTrustManagers(), null);
            } catch (GeneralSecurityException | IOException e) {
                throw new IllegalStateException("cannot make the test kit's TLS certificate: " + e.getMessage(), e);
            }
        }
    }

    /** Serves the test certificate. */
    public static SSLContext serverContext() {
        return Material.SERVER;
    }

    /** Trusts the test certificate only. */
    public static SSLContext clientContext() {
        return Material.CLIENT;
    }

    public static X509Certificate certificate() {
        return Material.CERT;
    }

    private static byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        new SecureRandom().nextBytes(b);
        return b;
    }

    private static KeyStore generate(char[] password) throws IOException, GeneralSecurityException {
        Path dir = Files.createTempDirectory("proxypool-testkit-tls");
        Path file = dir.resolve("testkit.p12");
        String keytool = Path.of(
                        System.getProperty("java.home"),
                        "bin",
                        System.getProperty("os.name", "").startsWith("Windows") ? "keytool.exe" : "keytool")
                .toString();
        String pass = new String(password);
        List<String> cmd = List.of(
                keytool,
                "-genkeypair",
                "-alias",
                ALIAS,
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost, O=ProxyPool test kit",
                "-ext",
                "SAN=ip:127.0.0.1,ip:::1,dns:localhost",
                "-validity",
                "3650",
                "-storetype",
                "PKCS12",
                "-keystore",
                file.toString(),
                "-storepass",
                pass,
                "-keypass",
                pass,
                "-noprompt");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String output;
            try (InputStream out = p.getInputStream()) {
                output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("keytool failed: " + output.strip());
            }
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(file)) {
                ks.load(in, password);
            }
            return ks;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running keytool", e);
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }
}
