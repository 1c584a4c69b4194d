package dev.proxypool.server.tls;

import dev.proxypool.sdk.config.ConfigException;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.sdk.tls.TlsDefaults;
import dev.proxypool.sdk.tls.TlsFileException;
import dev.proxypool.server.gateway.TlsLayer;
import io.helidon.common.tls.Tls;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;
import javax.net.ServerSocketFactory;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;

/**
 * TLS for one listener: an {@link SSLContext} whose key manager follows the PEM files on disk
 * ({@link ReloadingKeyManager}), TLS 1.2/1.3 and forward-secret AEAD suites only. The gateway takes
 * its {@link #layer()} (an engine per connection for its event loop's {@code SslHandler}), the Helidon REST
 * listener its {@link #helidonTls()}; on both the handshake runs under the listener's first-request
 * deadline.
 *
 * <p>Client-initiated renegotiation (TLS 1.2; 1.3 has none) is refused on every listener: the first
 * use of this class sets {@value #REJECT_RENEGOTIATION} unless the operator set it, before any server
 * handshake reads it (the JDK reads it once per process). A renegotiation costs the server a full
 * handshake for a few client bytes, and a request served after one runs under parameters the first
 * handshake did not agree.
 */
public final class ListenerTls {

    /** The JDK's switch that makes a server answer a client's renegotiation with a fatal alert. */
    static final String REJECT_RENEGOTIATION = "jdk.tls.rejectClientInitiatedRenegotiation";

    static {
        // process-wide, for the gateway's TLS sockets too; read once, before the first server handshake,
        // which is why the REST listener's engines also refuse it themselves (NoRenegotiation)
        if (System.getProperty(REJECT_RENEGOTIATION) == null) {
            System.setProperty(REJECT_RENEGOTIATION, "true");
        }
    }

    private final String key;
    private final ReloadingKeyManager keys;
    private final SSLContext context;
    private final SSLParameters parameters;

    private ListenerTls(String key, ReloadingKeyManager keys, SSLContext context) {
        this.key = key;
        this.keys = keys;
        this.context = context;
        this.parameters = TlsDefaults.serverParameters(context);
    }

    /**
     * Reads the files now.
     *
     * @param key   the config key, named in errors and logs ({@code server.gatewayTls})
     * @param files the certificate and key files
     * @return the listener's TLS
     * @throws ConfigException naming {@code key.certFile} or {@code key.keyFile} and the file at fault
     */
    public static ListenerTls of(String key, ProxyPoolConfig.TlsFiles files) {
        Objects.requireNonNull(files, key);
        ReloadingKeyManager keys;
        try {
            keys = new ReloadingKeyManager(key, files.certFile(), files.keyFile());
        } catch (TlsFileException e) {
            String which = e.file().equals(files.certFile()) ? ".certFile" : ".keyFile";
            throw new ConfigException(key + which, e.getMessage(), e);
        }
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(new KeyManager[] {keys}, null, null);
            return new ListenerTls(key, keys, ctx);
        } catch (GeneralSecurityException e) {
            throw new ConfigException(key, "the JDK cannot set up TLS: " + e.getMessage(), e);
        }
    }

    /** The config key this TLS belongs to. */
    public String key() {
        return key;
    }

    /** The certificate a new handshake gets now (the files are checked for a change first). */
    public X509Certificate certificate() {
        return keys.certificate();
    }

    /** Successful certificate reloads since start. */
    public long reloads() {
        return keys.reloads();
    }

    /** Changed certificate files that could not be used (the previous certificate stayed in service). */
    public long reloadFailures() {
        return keys.failures();
    }

    /** The protocols offered. */
    public List<String> protocols() {
        return List.of(parameters.getProtocols());
    }

    /** The cipher suites offered. */
    public List<String> cipherSuites() {
        return List.of(parameters.getCipherSuites());
    }

    /** Server sockets that speak TLS with this listener's certificate and parameters. */
    public ServerSocketFactory serverSocketFactory() {
        ServerSocketFactory tls = context.getServerSocketFactory();
        return new ServerSocketFactory() {
            @Override
            public ServerSocket createServerSocket() throws IOException {
                return configure(tls.createServerSocket());
            }

            @Override
            public ServerSocket createServerSocket(int port) throws IOException {
                return configure(tls.createServerSocket(port));
            }

            @Override
            public ServerSocket createServerSocket(int port, int backlog) throws IOException {
                return configure(tls.createServerSocket(port, backlog));
            }

            @Override
            public ServerSocket createServerSocket(int port, int backlog, InetAddress address) throws IOException {
                return configure(tls.createServerSocket(port, backlog, address));
            }
        };
    }

    /** Server-mode TLS for the gateway listener's event loops, with this listener's certificate and parameters. */
    public TlsLayer layer() {
        SSLContext engines = NoRenegotiation.wrap(context);
        return () -> {
            SSLEngine e = engines.createSSLEngine();
            e.setUseClientMode(false);
            e.setSSLParameters(parameters);
            return e;
        };
    }

    private ServerSocket configure(ServerSocket s) {
        SSLServerSocket ssl = (SSLServerSocket) s;
        ssl.setSSLParameters(parameters);
        ssl.setUseClientMode(false);
        return ssl;
    }

    /** The same context and parameters for a Helidon WebServer listener. */
    public Tls helidonTls() {
        return Tls.builder()
                .sslContext(NoRenegotiation.wrap(context))
                .sslParameters(parameters)
                .enabledProtocols(List.of(parameters.getProtocols()))
                .enabledCipherSuites(List.of(parameters.getCipherSuites()))
                .build();
    }
}
