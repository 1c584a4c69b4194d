package dev.proxypool.server.gateway;

import javax.net.ssl.SSLEngine;

/**
 * TLS on a gateway listener ({@code server.gatewayTls}): a server-mode engine per accepted connection,
 * for the event loop's {@code SslHandler}, with the listener's certificate (read anew when its files
 * changed) and parameters.
 */
@FunctionalInterface
public interface TlsLayer {

    /** A new server-mode engine for one connection. */
    SSLEngine engine();
}
