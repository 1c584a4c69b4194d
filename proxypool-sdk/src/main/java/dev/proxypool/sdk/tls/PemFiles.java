package dev.proxypool.sdk.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.InvalidKeySpecException;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Reads PEM files with JDK APIs only. Every failure is a {@link TlsFileException} naming the file and
 * what is wrong with it (missing, unreadable, no certificate, an encrypted or PKCS#1/SEC1 key, a key
 * that does not belong to the certificate); the key material itself never appears in a message.
 */
public final class PemFiles {

    /** Larger PEM files are refused: a certificate chain or a key takes a few KiB. */
    static final long MAX_FILE_BYTES = 1024 * 1024;

    private static final String PKCS8_BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String PKCS8_END = "-----END PRIVATE KEY-----";
    private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC");
    private static final byte[] PROBE = "proxypool key check".getBytes(StandardCharsets.US_ASCII);

    private PemFiles() {}

    /**
     * The certificates of a PEM file, in file order (a chain: the leaf first).
     *
     * @param file a PEM file of one or more {@code CERTIFICATE} blocks
     * @return at least one certificate
     * @throws TlsFileException naming the file when it is missing, unreadable or holds no valid certificate
     */
    public static List<X509Certificate> certificates(Path file) {
        byte[] bytes = read(file, "certificate");
        String text = new String(bytes, StandardCharsets.US_ASCII);
        if (!text.contains("-----BEGIN CERTIFICATE-----")) {
            throw new TlsFileException(file, "holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
        }
        try {
            List<X509Certificate> out = new ArrayList<>();
            for (Certificate c :
                    CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(bytes))) {
                out.add((X509Certificate) c);
            }
            if (out.isEmpty()) {
                throw new TlsFileException(file, "holds no PEM certificate");
            }
            return List.copyOf(out);
        } catch (CertificateException | ClassCastException e) {
            throw new TlsFileException(file, "is not a valid PEM certificate chain (" + firstLine(e) + ")");
        }
    }

    /**
     * The private key of a PEM file in PKCS#8 ({@code -----BEGIN PRIVATE KEY-----}), RSA or EC.
     *
     * @param file the key file
     * @return the key
     * @throws TlsFileException naming the file when it is missing, unreadable, encrypted, not PKCS#8 or not RSA/EC
     */
    public static PrivateKey privateKey(Path file) {
        String text = new String(read(file, "private key"), StandardCharsets.US_ASCII);
        if (text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")) {
            throw new TlsFileException(
                    file,
                    "holds an encrypted private key: give an unencrypted PKCS#8 key with restricted file permissions");
        }
        if (text.contains("-----BEGIN RSA PRIVATE KEY-----") || text.contains("-----BEGIN EC PRIVATE KEY-----")) {
            throw new TlsFileException(
                    file,
                    "holds a PKCS#1/SEC1 key: convert it to PKCS#8 with 'openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8'");
        }
        int begin = text.indexOf(PKCS8_BEGIN);
        int end = text.indexOf(PKCS8_END, Math.max(begin, 0));
        if (begin < 0 || end < 0) {
            throw new TlsFileException(file, "holds no PEM private key (-----BEGIN PRIVATE KEY-----)");
        }
        byte[] der;
        try {
            // strict: the MIME decoder would skip stray characters and hide a damaged file
            der = Base64.getDecoder()
                    .decode(text.substring(begin + PKCS8_BEGIN.length(), end).replaceAll("\\s", ""));
        } catch (IllegalArgumentException e) {
            throw new TlsFileException(file, "holds a private key block that is not valid base64");
        }
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (NoSuchAlgorithmException | InvalidKeySpecException e) {
                // not this algorithm: try the next
            }
        }
        throw new TlsFileException(file, "holds a private key that is not a PKCS#8 RSA or EC key");
    }

    /**
     * Checks that {@code key} belongs to the public key of {@code leaf} (signs a probe, verifies it).
     *
     * @param key     the private key
     * @param leaf    the certificate presented with it
     * @param keyFile named in the error
     * @throws TlsFileException when they do not match
     */
    public static void checkKeyMatches(PrivateKey key, X509Certificate leaf, Path keyFile) {
        String alg = key.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
        boolean ok;
        try {
            Signature s = Signature.getInstance(alg);
            s.initSign(key);
            s.update(PROBE);
            byte[] sig = s.sign();
            Signature v = Signature.getInstance(alg);
            v.initVerify(leaf.getPublicKey());
            v.update(PROBE);
            ok = v.verify(sig);
        } catch (GeneralSecurityException e) {
            ok = false;
        }
        if (!ok) {
            throw new TlsFileException(
                    keyFile, "does not hold the private key of the certificate " + leaf.getSubjectX500Principal());
        }
    }

    /**
     * An {@link SSLContext} for clients that trusts exactly the certificates of a PEM file (a CA or a
     * server's own self-signed certificate), with host-name checks left to the client.
     *
     * @param caFile the trusted certificates
     * @return the context
     * @throws TlsFileException naming the file when it cannot be read
     */
    public static SSLContext trusting(Path caFile) {
        List<X509Certificate> anchors = certificates(caFile);
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            for (int i = 0; i < anchors.size(); i++) {
                ks.setCertificateEntry("ca-" + i, anchors.get(i));
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException | IOException e) {
            throw new TlsFileException(caFile, "cannot be used as a trust store (" + firstLine(e) + ")");
        }
    }

    private static byte[] read(Path file, String what) {
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new TlsFileException(file, "is larger than " + MAX_FILE_BYTES + " bytes: not a PEM " + what);
            }
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new TlsFileException(file, "does not exist (the PEM " + what + " file)");
        } catch (IOException e) {
            throw new TlsFileException(file, "cannot be read (" + firstLine(e) + ")");
        }
    }

    private static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
