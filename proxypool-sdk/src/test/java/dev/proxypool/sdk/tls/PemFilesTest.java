package dev.proxypool.sdk.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proxypool.testkit.TestCertificateAuthority;
import dev.proxypool.testkit.TestCertificateAuthority.Issued;
import dev.proxypool.testkit.TestCertificateAuthority.KeyType;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** PEM certificate chains and PKCS#8 keys (RSA, EC) read with JDK APIs; every bad file named with its fault. */
class PemFilesTest {

    @TempDir
    static Path dir;

    static TestCertificateAuthority ca;
    static Issued rsa;
    static Issued ec;

    @BeforeAll
    static void certificates() {
        ca = TestCertificateAuthority.create(dir);
        rsa = ca.issue("rsa", KeyType.RSA, 11);
        ec = ca.issue("ec", KeyType.EC, 12);
    }

    @Test
    void readsRsaAndEcPairsWithTheirChains() {
        ServerKeyPair r = ServerKeyPair.read(rsa.certFile(), rsa.keyFile());
        assertEquals(BigInteger.valueOf(11), r.leaf().getSerialNumber());
        assertEquals(2, r.chain().size(), "leaf and CA");
        assertEquals("RSA", r.key().getAlgorithm());
        ServerKeyPair e = ServerKeyPair.read(ec.certFile(), ec.keyFile());
        assertEquals(BigInteger.valueOf(12), e.leaf().getSerialNumber());
        assertEquals("EC", e.key().getAlgorithm());
        assertEquals(1, PemFiles.certificates(ca.caFile()).size());
    }

    private Path file(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    private static String openssl(String... args) throws Exception {
        Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void badFilesAreNamedWithWhatIsWrong() throws Exception {
        Path missing = dir.resolve("missing.pem");
        TlsFileException m = assertThrows(TlsFileException.class, () -> PemFiles.certificates(missing));
        assertEquals(missing, m.file());
        assertTrue(m.getMessage().equals(missing + " does not exist (the PEM certificate file)"), m.getMessage());

        Path empty = file("empty.pem", "");
        assertTrue(assertThrows(TlsFileException.class, () -> PemFiles.certificates(empty))
                .getMessage()
                .contains("holds no PEM certificate"));
        Path garbage = file("garbage.pem", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
        assertTrue(assertThrows(TlsFileException.class, () -> PemFiles.certificates(garbage))
                .getMessage()
                .contains("is not a valid PEM certificate chain"));

        // a certificate given as the key, PKCS#1 and encrypted keys: each told apart
        assertTrue(assertThrows(TlsFileException.class, () -> PemFiles.privateKey(rsa.certFile()))
                .getMessage()
                .contains("holds no PEM private key"));
        Path pkcs1 = dir.resolve("pkcs1.key");
        openssl("openssl", "pkey", "-in", rsa.keyFile().toString(), "-traditional", "-out", pkcs1.toString());
        String p1 = assertThrows(TlsFileException.class, () -> PemFiles.privateKey(pkcs1))
                .getMessage();
        assertTrue(p1.contains("PKCS#1/SEC1") && p1.contains("openssl pkcs8 -topk8"), p1);
        Path encrypted = dir.resolve("enc.key");
        openssl(
                "openssl",
                "pkcs8",
                "-topk8",
                "-in",
                rsa.keyFile().toString(),
                "-passout",
                "pass:secret123",
                "-out",
                encrypted.toString());
        assertTrue(assertThrows(TlsFileException.class, () -> PemFiles.privateKey(encrypted))
                .getMessage()
                .contains("encrypted private key"));
        Path badBase64 = file("bad64.key", "-----BEGIN PRIVATE KEY-----\n%%%%\n-----END PRIVATE KEY-----\n");
        assertTrue(assertThrows(TlsFileException.class, () -> PemFiles.privateKey(badBase64))
                .getMessage()
                .contains("not valid base64"));
        Path notAKey = file("junk.key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
        assertTrue(assertThrows(TlsFileException.class, () -> PemFiles.privateKey(notAKey))
                .getMessage()
                .contains("not a PKCS#8 RSA or EC key"));

        // the key of another certificate
        TlsFileException mismatch =
                assertThrows(TlsFileException.class, () -> ServerKeyPair.read(rsa.certFile(), ec.keyFile()));
        assertEquals(ec.keyFile(), mismatch.file());
        assertTrue(
                mismatch.getMessage().contains("does not hold the private key of the certificate CN=127.0.0.1"),
                mismatch.getMessage());

        // unreadable (skipped as root, who reads everything: then the permission check is moot)
        Path locked = Files.copy(rsa.keyFile(), dir.resolve("locked.key"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
        if (!Files.isReadable(locked)) {
            assertTrue(assertThrows(TlsFileException.class, () -> PemFiles.privateKey(locked))
                    .getMessage()
                    .contains("cannot be read"));
        }
    }

    @Test
    void keyMaterialNeverAppearsInAMessage() throws Exception {
        String keyText = Files.readString(rsa.keyFile());
        String body =
                keyText.lines().filter(l -> !l.startsWith("-----")).findFirst().orElseThrow();
        TlsFileException e = assertThrows(TlsFileException.class, () -> PemFiles.certificates(rsa.keyFile()));
        assertFalse(e.getMessage().contains(body), e.getMessage());
    }

    @Test
    void modernSuitesOnly() throws Exception {
        javax.net.ssl.SSLContext ctx = PemFiles.trusting(ca.caFile());
        List<String> suites = TlsDefaults.cipherSuites(ctx);
        assertTrue(suites.contains("TLS_AES_128_GCM_SHA256"), suites.toString());
        assertTrue(suites.contains("TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384"), suites.toString());
        assertTrue(suites.contains("TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256"), suites.toString());
        for (String s : suites) {
            assertFalse(
                    s.contains("_CBC_") || s.startsWith("TLS_RSA_") || s.contains("_DHE_") || s.contains("3DES"), s);
        }
    }
}
