package dev.proxypool.server.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for 127.0.0.1 made at test time with the JDK's keytool into a temp
 * PKCS12, with a server context (key) and a client context that trusts only that certificate.
 */
final class SelfSignedTls {

    private static final char[] PASSWORD = "changeit".toCharArray();

    final SSLContext server;
    final SSLContext client;
    /** The certificate in PEM, for curl --cacert. */
    final Path pem;

    private SelfSignedTls(SSLContext server, SSLContext client, Path pem) {
        this.server = server;
        this.client = client;
        this.pem = pem;
    }

    static SelfSignedTls create(Path dir) throws IOException, InterruptedException, GeneralSecurityException {
        Path ks = dir.resolve("origin.p12");
        String keytool =
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(
                        keytool,
                        "-genkeypair",
                        "-alias",
                        "origin",
                        "-keyalg",
                        "EC",
                        "-groupname",
                        "secp256r1",
                        "-dname",
                        "CN=127.0.0.1",
                        "-ext",
                        "SAN=ip:127.0.0.1,dns:localhost",
                        "-validity",
                        "2",
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        ks.toString(),
                        "-storepass",
                        new String(PASSWORD),
                        "-keypass",
                        new String(PASSWORD))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool failed: " + out);
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(ks)) {
            keys.load(in, PASSWORD);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD);
        SSLContext server = SSLContext.getInstance("TLS");
        server.init(kmf.getKeyManagers(), null, null);

        Certificate cert = keys.getCertificate("origin");
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("origin", cert);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext client = SSLContext.getInstance("TLS");
        client.init(null, tmf.getTrustManagers(), null);

        Path pem = dir.resolve("origin.pem");
        Files.writeString(
                pem,
                "-----BEGIN CERTIFICATE-----\n"
                        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                                .encodeToString(cert.getEncoded())
                        + "\n-----END CERTIFICATE-----\n");
        return new SelfSignedTls(server, client, pem);
    }
}
