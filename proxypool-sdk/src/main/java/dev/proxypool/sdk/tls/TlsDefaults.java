package dev.proxypool.sdk.tls;

import java.util.Arrays;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The protocol and cipher-suite choice of every ProxyPool TLS endpoint: TLS 1.3 and 1.2 only, and
 * of the JDK's enabled suites only the forward-secret AEAD ones (the TLS 1.3 suites, and ECDHE with
 * AES-GCM or ChaCha20-Poly1305 for 1.2). No CBC, no static RSA key exchange, no DHE, no 3DES/RC4.
 */
public final class TlsDefaults {

    /** The protocols offered, newest first. */
    public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    private TlsDefaults() {}

    /**
     * Whether a cipher suite is one of the modern ones.
     *
     * @param suite a JSSE suite name
     * @return true for TLS 1.3 suites and ECDHE + AEAD suites
     */
    public static boolean modern(String suite) {
        if (suite.startsWith("TLS_AES_") || suite.startsWith("TLS_CHACHA20_")) {
            return true;
        }
        return suite.startsWith("TLS_ECDHE_")
                && (suite.contains("_GCM_") || suite.endsWith("_CHACHA20_POLY1305_SHA256"));
    }

    /**
     * The modern suites among those {@code context} enables by default, in the JDK's order.
     *
     * @param context the context
     * @return the suites
     */
    public static List<String> cipherSuites(SSLContext context) {
        return Arrays.stream(context.getDefaultSSLParameters().getCipherSuites())
                .filter(TlsDefaults::modern)
                .toList();
    }

    /**
     * Server-side parameters: {@link #PROTOCOLS}, {@link #cipherSuites}, the server's suite order.
     *
     * @param context the server's context
     * @return fresh parameters
     */
    public static SSLParameters serverParameters(SSLContext context) {
        SSLParameters p = context.getDefaultSSLParameters();
        p.setProtocols(PROTOCOLS.toArray(String[]::new));
        p.setCipherSuites(cipherSuites(context).toArray(String[]::new));
        p.setUseCipherSuitesOrder(true);
        return p;
    }
}
