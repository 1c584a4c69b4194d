package dev.proxypool.sdk.tls;

import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * A TLS server's certificate chain (leaf first) and the leaf's private key, read and checked
 * together: the key must belong to the leaf.
 *
 * @param chain the certificates, leaf first
 * @param key   the leaf's private key
 */
public record ServerKeyPair(List<X509Certificate> chain, PrivateKey key) {

    /** Copies the chain; both parts are required. */
    public ServerKeyPair {
        chain = List.copyOf(chain);
        Objects.requireNonNull(key, "key");
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("the certificate chain is empty");
        }
    }

    /**
     * Reads and checks both files.
     *
     * @param certFile the PEM certificate chain, leaf first
     * @param keyFile  the PEM PKCS#8 private key of the leaf
     * @return the pair
     * @throws TlsFileException naming the file at fault
     */
    public static ServerKeyPair read(Path certFile, Path keyFile) {
        List<X509Certificate> chain = PemFiles.certificates(certFile);
        PrivateKey key = PemFiles.privateKey(keyFile);
        PemFiles.checkKeyMatches(key, chain.getFirst(), keyFile);
        return new ServerKeyPair(chain, key);
    }

    /**
     * The certificate presented first.
     *
     * @return the leaf certificate
     */
    public X509Certificate leaf() {
        return chain.getFirst();
    }
}
