package dev.proxypool.server.tls;

import dev.proxypool.sdk.tls.ServerKeyPair;
import dev.proxypool.sdk.tls.TlsFileException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * A server key manager over a PEM certificate chain and key that follows the files on disk: before
 * each handshake chooses its certificate it compares the files' modification time, size and identity
 * with those last read (two {@code stat} calls, no read) and, when either changed, reads both again.
 * A new pair that reads and matches serves every later handshake; one that does not (a bad PEM, a
 * key of another certificate, a half-written rotation) keeps the old pair in service and is logged
 * once as an error naming the file, until the files change again.
 *
 * <p>Each generation of the pair gets its own alias prefix, so a handshake that chose its alias
 * before a reload still gets the key of the chain it was given.
 */
final class ReloadingKeyManager extends X509ExtendedKeyManager {

    private static final System.Logger LOG = System.getLogger(ReloadingKeyManager.class.getName());
    private static final char[] NO_PASSWORD = new char[0];

    /** One loaded pair: the JDK's key manager over it, and the file stamp it was read at. */
    private record Generation(long id, X509ExtendedKeyManager delegate, ServerKeyPair pair, Stamp stamp) {
        String alias(String delegateAlias) {
            return delegateAlias == null ? null : id + "/" + delegateAlias;
        }
    }

    /** What identifies a version of the two files without reading them. */
    private record Stamp(Object cert, Object key) {}

    private final String name;
    private final Path certFile;
    private final Path keyFile;
    private final AtomicLong reloads = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile Generation current;
    private volatile Generation previous;
    private Stamp lastFailed;

    /**
     * Reads the files now.
     *
     * @param name     the listener's config key, in log lines ({@code server.gatewayTls})
     * @throws TlsFileException naming the file at fault
     */
    ReloadingKeyManager(String name, Path certFile, Path keyFile) {
        this.name = Objects.requireNonNull(name, "name");
        this.certFile = Objects.requireNonNull(certFile, "certFile");
        this.keyFile = Objects.requireNonNull(keyFile, "keyFile");
        Stamp stamp = stamp();
        this.current = load(1, stamp);
    }

    /** The certificate new handshakes are given (after checking the files). */
    X509Certificate certificate() {
        refresh();
        return current.pair().leaf();
    }

    /** Successful reloads since start. */
    long reloads() {
        return reloads.get();
    }

    /** Changed files that could not be used (the old pair stayed in service). */
    long failures() {
        return failures.get();
    }

    /** Reads the files again when they changed since the last look; cheap when they did not. */
    void refresh() {
        Stamp now = stamp();
        if (now.equals(current.stamp())) {
            return;
        }
        synchronized (this) {
            Generation cur = current;
            if (now.equals(cur.stamp()) || now.equals(lastFailed)) {
                return;
            }
            try {
                Generation next = load(cur.id() + 1, now);
                previous = cur;
                current = next;
                lastFailed = null;
                reloads.incrementAndGet();
                LOG.log(
                        Level.INFO,
                        "{0}: reloaded the certificate (serial {1}, expires {2})",
                        name,
                        next.pair().leaf().getSerialNumber().toString(16),
                        next.pair().leaf().getNotAfter().toInstant());
            } catch (TlsFileException e) {
                lastFailed = now;
                failures.incrementAndGet();
                LOG.log(
                        Level.ERROR,
                        "{0}: the changed certificate files cannot be used, the previous certificate stays in service: {1}",
                        name,
                        e.getMessage());
            }
        }
    }

    private Stamp stamp() {
        return new Stamp(stampOf(certFile), stampOf(keyFile));
    }

    private static Object stampOf(Path file) {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            return List.of(a.lastModifiedTime(), a.size(), String.valueOf(a.fileKey()));
        } catch (IOException e) {
            return "missing"; // mid-rotation: read (and report) when it is back or changed
        }
    }

    private Generation load(long id, Stamp stamp) {
        ServerKeyPair pair = ServerKeyPair.read(certFile, keyFile);
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("server", pair.key(), NO_PASSWORD, pair.chain().toArray(X509Certificate[]::new));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, NO_PASSWORD);
            for (KeyManager km : kmf.getKeyManagers()) {
                if (km instanceof X509ExtendedKeyManager x) {
                    return new Generation(id, x, pair, stamp);
                }
            }
            throw new TlsFileException(certFile, "gave the JDK no X.509 key manager");
        } catch (GeneralSecurityException | IOException e) {
            throw new TlsFileException(certFile, "cannot be used with its key (" + e.getMessage() + ")");
        }
    }

    private Generation generation(String alias) {
        if (alias == null) {
            return null;
        }
        int slash = alias.indexOf('/');
        if (slash <= 0) {
            return null;
        }
        String id = alias.substring(0, slash);
        Generation cur = current;
        if (id.equals(Long.toString(cur.id()))) {
            return cur;
        }
        Generation prev = previous;
        return prev != null && id.equals(Long.toString(prev.id())) ? prev : null;
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        refresh();
        Generation g = current;
        return g.alias(g.delegate().chooseServerAlias(keyType, issuers, socket));
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        refresh();
        Generation g = current;
        return g.alias(g.delegate().chooseEngineServerAlias(keyType, issuers, engine));
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        Generation g = current;
        String[] aliases = g.delegate().getServerAliases(keyType, issuers);
        if (aliases == null) {
            return null;
        }
        String[] out = new String[aliases.length];
        for (int i = 0; i < aliases.length; i++) {
            out[i] = g.alias(aliases[i]);
        }
        return out;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        Generation g = generation(alias);
        return g == null ? null : g.delegate().getCertificateChain(alias.substring(alias.indexOf('/') + 1));
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        Generation g = generation(alias);
        return g == null ? null : g.delegate().getPrivateKey(alias.substring(alias.indexOf('/') + 1));
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null; // a server's key manager
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return null;
    }
}
