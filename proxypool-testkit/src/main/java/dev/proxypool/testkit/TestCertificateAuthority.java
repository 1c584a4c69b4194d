package dev.proxypool.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away certificate authority for TLS tests, made at test time with the {@code openssl} command
 * line into a directory: a self-signed CA ({@link #caFile()}) and server certificates it signs for
 * {@code 127.0.0.1}, {@code ::1} and {@code localhost}, RSA or EC, with a chosen serial number, written
 * as PEM (chain: leaf then CA) plus an unencrypted PKCS#8 key, the layout {@code server.gatewayTls}
 * and {@code server.apiTls} read.
 */
public final class TestCertificateAuthority {

    /** The key type of an issued certificate. */
    public enum KeyType {
        /** RSA 2048. */
        RSA,
        /** EC P-256. */
        EC
    }

    /**
     * An issued certificate.
     *
     * @param certFile the PEM chain (leaf, CA)
     * @param keyFile  the PEM PKCS#8 key
     * @param serial   the leaf's serial number
     */
    public record Issued(Path certFile, Path keyFile, BigInteger serial) {}

    private static final long OPENSSL_TIMEOUT_SECONDS = 30;

    private final Path dir;
    private final Path caCert;
    private final Path caKey;

    private TestCertificateAuthority(Path dir) {
        this.dir = dir;
        this.caCert = dir.resolve("ca.pem");
        this.caKey = dir.resolve("ca.key");
    }

    /**
     * Makes a CA in {@code dir} (valid for two days).
     *
     * @param dir an empty directory the test owns
     * @return the CA
     */
    public static TestCertificateAuthority create(Path dir) {
        TestCertificateAuthority ca = new TestCertificateAuthority(dir);
        ca.openssl(
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                ca.caKey.toString(),
                "-out",
                ca.caCert.toString(),
                "-days",
                "2",
                "-subj",
                "/CN=ProxyPool Test CA",
                "-addext",
                "basicConstraints=critical,CA:TRUE",
                "-addext",
                "keyUsage=critical,keyCertSign,cRLSign");
        return ca;
    }

    /** The CA certificate, PEM: what a client trusts ({@code --cacert}, {@code --proxy-cacert}). */
    public Path caFile() {
        return caCert;
    }

    /**
     * Issues a server certificate into {@code name.pem} / {@code name.key} in the CA's directory.
     *
     * @param name   file name stem
     * @param type   RSA or EC
     * @param serial the serial number
     * @return the files
     */
    public Issued issue(String name, KeyType type, long serial) {
        return issue(name, type, serial, "IP:127.0.0.1,IP:::1,DNS:localhost");
    }

    /**
     * As {@link #issue(String, KeyType, long)}, with only the given subject alternative names (e.g.
     * {@code IP:127.0.0.1}: a certificate a client must verify against the address it dialled).
     *
     * @param name           file name stem
     * @param type           RSA or EC
     * @param serial         the serial number
     * @param subjectAltName the {@code subjectAltName} extension's value, in openssl's syntax
     * @return the files
     */
    public Issued issue(String name, KeyType type, long serial, String subjectAltName) {
        Path key = dir.resolve(name + ".key");
        Path csr = dir.resolve(name + ".csr");
        Path leaf = dir.resolve(name + ".leaf.pem");
        Path ext = dir.resolve(name + ".ext");
        Path chain = dir.resolve(name + ".pem");
        List<String> req = new ArrayList<>(List.of("req", "-newkey"));
        if (type == KeyType.RSA) {
            req.add("rsa:2048");
        } else {
            req.addAll(List.of("ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"));
        }
        req.addAll(List.of("-nodes", "-keyout", key.toString(), "-out", csr.toString(), "-subj", "/CN=127.0.0.1"));
        openssl(req.toArray(String[]::new));
        try {
            Files.writeString(ext, """
                    basicConstraints=CA:FALSE
                    keyUsage=critical,digitalSignature,keyEncipherment
                    extendedKeyUsage=serverAuth
                    subjectAltName=%s
                    """.formatted(subjectAltName));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        openssl(
                "x509",
                "-req",
                "-in",
                csr.toString(),
                "-CA",
                caCert.toString(),
                "-CAkey",
                caKey.toString(),
                "-set_serial",
                Long.toString(serial),
                "-days",
                "2",
                "-sha256",
                "-extfile",
                ext.toString(),
                "-out",
                leaf.toString());
        try {
            Files.writeString(
                    chain,
                    Files.readString(leaf, StandardCharsets.US_ASCII)
                            + Files.readString(caCert, StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Issued(chain, key, BigInteger.valueOf(serial));
    }

    /**
     * Puts {@code from}'s files in place of {@code to}'s, each by an atomic rename (a rotation the way
     * certificate tooling does it): the certificate first, then the key.
     *
     * @param from the new certificate
     * @param to   the files the server reads
     */
    public static void rotate(Issued from, Issued to) {
        try {
            Path c = Files.copy(
                    from.certFile(),
                    to.certFile().resolveSibling(to.certFile().getFileName() + ".new"),
                    StandardCopyOption.REPLACE_EXISTING);
            Files.move(c, to.certFile(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            Path k = Files.copy(
                    from.keyFile(),
                    to.keyFile().resolveSibling(to.keyFile().getFileName() + ".new"),
                    StandardCopyOption.REPLACE_EXISTING);
            Files.move(k, to.keyFile(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void openssl(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("openssl");
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(OPENSSL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("openssl " + args[0] + " did not finish");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("openssl " + String.join(" ", args) + " failed: "
                        + new String(out, StandardCharsets.UTF_8).strip());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run openssl (install the openssl package)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running openssl", e);
        }
    }
}
