package dev.proxypool.cli.demo;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The demo origin's TLS key: a fresh self-signed certificate for {@code 127.0.0.1} and
 * {@code localhost}, made at each demo start by the running JDK's {@code keytool} (the JDK has no
 * public API that signs certificates, and no key ships with the product). Clients reach it with
 * {@code curl -k}; nothing trusts it.
 */
public final class DemoTls {

    private static final String ALIAS = "proxypool-demo-origin";
    private static final long KEYTOOL_SECONDS = 60;
    /** The store password reaches keytool through its environment, not its command line (visible to {@code ps}). */
    private static final String PASSWORD_VARIABLE = "PROXYPOOL_DEMO_STOREPASS";

    private DemoTls() {}

    /**
     * A server context holding a new key. The key store passes through {@code workDir} (the demo's
     * private temporary directory) and is deleted from it once loaded.
     *
     * @throws IOException when {@code keytool} is missing or fails
     */
    public static SSLContext selfSignedServer(Path workDir) throws IOException {
        byte[] secret = new byte[18];
        new SecureRandom().nextBytes(secret);
        char[] password =
                Base64.getUrlEncoder().withoutPadding().encodeToString(secret).toCharArray();
        Path store = workDir.resolve("demo-origin.p12");
        try {
            runKeytool(store, password);
            KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(KeyStore.getInstance(store.toFile(), password), password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers.getKeyManagers(), null, new SecureRandom());
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot load the demo origin's key: " + e.getMessage(), e);
        } finally {
            Files.deleteIfExists(store);
        }
    }

    private static void runKeytool(Path store, char[] password) throws IOException {
        boolean windows =
                System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("win");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", windows ? "keytool.exe" : "keytool");
        if (!Files.isExecutable(keytool)) {
            throw new IOException("the demo's HTTPS origin needs the JDK's keytool, not found at " + keytool);
        }
        ProcessBuilder keygen = new ProcessBuilder(
                        keytool.toString(),
                        "-genkeypair",
                        "-noprompt",
                        "-alias",
                        ALIAS,
                        "-keyalg",
                        "EC",
                        "-groupname",
                        "secp256r1",
                        "-validity",
                        "30",
                        "-dname",
                        "CN=127.0.0.1, O=proxypool demo",
                        "-ext",
                        "SAN=ip:127.0.0.1,dns:localhost",
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        store.toString(),
                        "-storepass:env",
                        PASSWORD_VARIABLE,
                        "-keypass:env",
                        PASSWORD_VARIABLE)
                .redirectErrorStream(true);
        keygen.environment().put(PASSWORD_VARIABLE, new String(password));
        Process p = keygen.start();
        try (InputStream output = p.getInputStream()) {
            String said = new String(output.readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(KEYTOOL_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("keytool did not finish in " + KEYTOOL_SECONDS + " s");
            }
            if (p.exitValue() != 0) {
                throw new IOException("keytool failed (exit " + p.exitValue() + "): " + said);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while keytool made the demo's certificate", e);
        }
    }
}
