package dev.proxypool.server.gateway;

import dev.proxypool.core.routing.RetryRule;
import java.time.Duration;

/**
 * Wire limits and timeouts of the gateway listener. Defaults (in {@link #DEFAULTS}):
 *
 * <table>
 * <caption>defaults</caption>
 * <tr><td>maxRequestLineBytes</td><td>8192</td><td>longer: 431 request_line_too_long</td></tr>
 * <tr><td>maxHeaderBytes</td><td>65536</td><td>larger header block: 431 headers_too_large</td></tr>
 * <tr><td>maxHeaderCount</td><td>256</td><td>more fields: 431</td></tr>
 * <tr><td>idleTimeout</td><td>60 s</td><td>a keep-alive connection with no new request is closed</td></tr>
 * <tr><td>ioTimeout</td><td>60 s</td><td>no byte within a request or response: the exchange fails</td></tr>
 * <tr><td>tunnelIdleTimeout</td><td>5 min</td><td>a CONNECT tunnel with no byte either way is closed</td></tr>
 * <tr><td>connectTimeout</td><td>10 s</td><td>opening the upstream connection</td></tr>
 * <tr><td>maxAttempts</td><td>2</td><td>GET/HEAD attempts, each on a different proxy</td></tr>
 * <tr><td>bufferBytes</td><td>16384</td><td>per-connection read/write buffers</td></tr>
 * <tr><td>requestHeadTimeout</td><td>10 s</td><td>from a request's first byte to the end of its head: else 408 and
 * close (a client trickling header bytes cannot hold a connection)</td></tr>
 * <tr><td>maxConnections</td><td>0 (no cap)</td><td>open client connections; one more is closed at once.
 * {@link ConnectionLimits} sizes the server's default from the descriptor limit</td></tr>
 * <tr><td>firstRequestTimeout</td><td>10 s</td><td>from accept to the first complete request head (TLS handshake,
 * SOCKS5 greeting and request included): else the connection is closed (a silent or trickling client cannot hold
 * a connection)</td></tr>
 * <tr><td>maxConnectionsPerAddress</td><td>256</td><td>open connections of one client address on a listener; one
 * more is closed at once</td></tr>
 * <tr><td>firstByteTimeout</td><td>10 s</td><td>wait for the response head of an idempotent request that another
 * attempt may still serve: after it the proxy is blamed ({@code slow_body}) and the request retried</td></tr>
 * </table>
 */
public record GatewayConfig(
        int maxRequestLineBytes,
        int maxHeaderBytes,
        int maxHeaderCount,
        Duration idleTimeout,
        Duration ioTimeout,
        Duration tunnelIdleTimeout,
        Duration connectTimeout,
        int maxAttempts,
        int bufferBytes,
        Duration requestHeadTimeout,
        int maxConnections,
        Duration firstRequestTimeout,
        int maxConnectionsPerAddress,
        Duration firstByteTimeout) {

    public static final GatewayConfig DEFAULTS = new GatewayConfig(
            8192,
            65536,
            256,
            Duration.ofSeconds(60),
            Duration.ofSeconds(60),
            Duration.ofMinutes(5),
            Duration.ofSeconds(10),
            2,
            16384,
            Duration.ofSeconds(10),
            0,
            Duration.ofSeconds(10),
            256,
            Duration.ofSeconds(10));

    public GatewayConfig {
        check("gateway.maxRequestLineBytes", maxRequestLineBytes, 256, 1 << 20);
        check("gateway.maxHeaderBytes", maxHeaderBytes, 1024, 1 << 24);
        check("gateway.maxHeaderCount", maxHeaderCount, 8, 10_000);
        check("gateway.maxAttempts", maxAttempts, 1, RetryRule.MAX_ATTEMPTS);
        check("gateway.bufferBytes", bufferBytes, 1024, 1 << 22);
        positive("gateway.idleTimeout", idleTimeout);
        positive("gateway.ioTimeout", ioTimeout);
        positive("gateway.tunnelIdleTimeout", tunnelIdleTimeout);
        positive("gateway.connectTimeout", connectTimeout);
        positive("server.requestHeadTimeout", requestHeadTimeout);
        check("server.maxConnections", maxConnections, 0, Integer.MAX_VALUE);
        positive("server.firstRequestTimeout", firstRequestTimeout);
        check("server.maxConnectionsPerAddress", maxConnectionsPerAddress, 1, Integer.MAX_VALUE);
        positive("gateway.firstByteTimeout", firstByteTimeout);
    }

    public GatewayConfig withIdleTimeout(Duration d) {
        return new GatewayConfig(
                maxRequestLineBytes,
                maxHeaderBytes,
                maxHeaderCount,
                d,
                ioTimeout,
                tunnelIdleTimeout,
                connectTimeout,
                maxAttempts,
                bufferBytes,
                requestHeadTimeout,
                maxConnections,
                firstRequestTimeout,
                maxConnectionsPerAddress,
                firstByteTimeout);
    }

    public GatewayConfig withIoTimeout(Duration d) {
        return new GatewayConfig(
                maxRequestLineBytes,
                maxHeaderBytes,
                maxHeaderCount,
                idleTimeout,
                d,
                tunnelIdleTimeout,
                connectTimeout,
                maxAttempts,
                bufferBytes,
                requestHeadTimeout,
                maxConnections,
                firstRequestTimeout,
                maxConnectionsPerAddress,
                firstByteTimeout);
    }

    public GatewayConfig withTunnelIdleTimeout(Duration d) {
        return new GatewayConfig(
                maxRequestLineBytes,
                maxHeaderBytes,
                maxHeaderCount,
                idleTimeout,
                ioTimeout,
                d,
                connectTimeout,
                maxAttempts,
                bufferBytes,
                requestHeadTimeout,
                maxConnections,
                firstRequestTimeout,
                maxConnectionsPerAddress,
                firstByteTimeout);
    }

    public GatewayConfig withMaxAttempts(int n) {
        return new GatewayConfig(
                maxRequestLineBytes,
                maxHeaderBytes,
                maxHeaderCount,
                idleTimeout,
                ioTimeout,
                tunnelIdleTimeout,
                connectTimeout,
                n,
                bufferBytes,
                requestHeadTimeout,
                maxConnections,
                firstRequestTimeout,
                maxConnectionsPerAddress,
                firstByteTimeout);
    }

    /** The deadline from a request's first byte to the end of its head (408 after it). */
    public GatewayConfig withRequestHeadTimeout(Duration d) {
        return new GatewayConfig(
                maxRequestLineBytes,
                maxHeaderBytes,
                maxHeaderCount,
                idleTimeout,
                ioTimeout,
                tunnelIdleTimeout,
                connectTimeout,
                maxAttempts,
                bufferBytes,
                d,
                maxConnections,
                firstRequestTimeout,
                maxConnectionsPerAddress,
                firstByteTimeout);
    }

    /** The cap on open client connections; 0: none. */
    public GatewayConfig withMaxConnections(int n) {
        return new GatewayConfig(
                maxRequestLineBytes,
                maxHeaderBytes,
                maxHeaderCount,
                idleTimeout,
                ioTimeout,
                tunnelIdleTimeout,
                connectTimeout,
                maxAttempts,
                bufferBytes,
                requestHeadTimeout,
                n,
                firstRequestTimeout,
                maxConnectionsPerAddress,
                firstByteTimeout);
    }

    /**
     * The deadline from accept to a connection's first complete request head: TLS handshake, SOCKS5
     * greeting and request included; the connection is closed after it.
     */
    public GatewayConfig withFirstRequestTimeout(Duration d) {
        return new GatewayConfig(
                maxRequestLineBytes,
                maxHeaderBytes,
                maxHeaderCount,
                idleTimeout,
                ioTimeout,
                tunnelIdleTimeout,
                connectTimeout,
                maxAttempts,
                bufferBytes,
                requestHeadTimeout,
                maxConnections,
                d,
                maxConnectionsPerAddress,
                firstByteTimeout);
    }

    /** The cap on connections one client address holds open on a listener; one more is closed at once. */
    public GatewayConfig withMaxConnectionsPerAddress(int n) {
        return new GatewayConfig(
                maxRequestLineBytes,
                maxHeaderBytes,
                maxHeaderCount,
                idleTimeout,
                ioTimeout,
                tunnelIdleTimeout,
                connectTimeout,
                maxAttempts,
                bufferBytes,
                requestHeadTimeout,
                maxConnections,
                firstRequestTimeout,
                n,
                firstByteTimeout);
    }

    /**
     * The bound on the wait for the response head of an idempotent request that may still be retried on
     * another proxy (else {@code ioTimeout}).
     */
    public GatewayConfig withFirstByteTimeout(Duration d) {
        return new GatewayConfig(
                maxRequestLineBytes,
                maxHeaderBytes,
                maxHeaderCount,
                idleTimeout,
                ioTimeout,
                tunnelIdleTimeout,
                connectTimeout,
                maxAttempts,
                bufferBytes,
                requestHeadTimeout,
                maxConnections,
                firstRequestTimeout,
                maxConnectionsPerAddress,
                d);
    }

    int idleTimeoutMillis() {
        return millis(idleTimeout);
    }

    int firstByteTimeoutMillis() {
        return millis(firstByteTimeout);
    }

    int ioTimeoutMillis() {
        return millis(ioTimeout);
    }

    int tunnelIdleTimeoutMillis() {
        return millis(tunnelIdleTimeout);
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, d.toMillis()));
    }

    private static void check(String key, int v, int min, int max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(key + " must be between " + min + " and " + max + ", got " + v);
        }
    }

    private static void positive(String key, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(key + " must be a positive duration, got " + d);
        }
    }
}
