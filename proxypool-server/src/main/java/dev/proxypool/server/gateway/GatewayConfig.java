package dev.proxypool.server.gateway;

import dev.proxypool.core.routing.RetryRule;
import dev.proxypool.sdk.config.ProxyPoolConfig;
import java.time.Duration;
import java.util.Objects;

/**
 * Wire limits and timeouts of the gateway listener, as one connection handler reads them. Two kinds of
 * component:
 *
 * <ul>
 *   <li>configuration keys of {@code proxypool.yaml} ({@code gateway.*}, {@code server.*}): their names,
 *       defaults and checks live in {@link ProxyPoolConfig.Gateway} and {@link ProxyPoolConfig.Server}
 *       (docs/configuration.md), and {@link Builder#from} copies them from there; this record only refuses a
 *       missing value;
 *   <li>the wire's own limits, not configurable in the file: defined, defaulted and checked here (a bad value
 *       is a programming error, its message names the component, never a configuration key).
 * </ul>
 *
 * <table>
 * <caption>components</caption>
 * <tr><th>component</th><th>default</th><th>meaning</th></tr>
 * <tr><td>maxRequestLineBytes</td><td>{@value #DEFAULT_MAX_REQUEST_LINE_BYTES} (code only)</td><td>longer: 431
 * request_line_too_long</td></tr>
 * <tr><td>maxHeaderBytes</td><td>{@value #DEFAULT_MAX_HEADER_BYTES} (code only)</td><td>larger header block: 431
 * headers_too_large</td></tr>
 * <tr><td>maxHeaderCount</td><td>{@value #DEFAULT_MAX_HEADER_COUNT} (code only)</td><td>more fields: 431</td></tr>
 * <tr><td>maxAttempts</td><td>{@value #DEFAULT_MAX_ATTEMPTS} (code only; {@code serve} sets
 * {@link RetryRule#MAX_ATTEMPTS})</td><td>the ceiling of attempts of one request, each on a different proxy;
 * each routing's {@code retry} decides below it</td></tr>
 * <tr><td>idleTimeout</td><td>{@code gateway.idleTimeout}</td><td>a keep-alive connection with no new request is
 * closed</td></tr>
 * <tr><td>ioTimeout</td><td>{@code gateway.ioTimeout}</td><td>no byte within a request or response: the exchange
 * fails</td></tr>
 * <tr><td>tunnelIdleTimeout</td><td>{@code gateway.tunnelIdleTimeout}</td><td>a CONNECT tunnel with no byte either
 * way is closed</td></tr>
 * <tr><td>firstByteTimeout</td><td>{@code gateway.firstByteTimeout}</td><td>wait for the response head of an
 * idempotent request that another attempt may still serve: after it the proxy is blamed ({@code slow_body}) and
 * the request retried</td></tr>
 * <tr><td>requestHeadTimeout</td><td>{@code server.requestHeadTimeout}</td><td>from a request's first byte to the
 * end of its head: else 408 and close (a client trickling header bytes cannot hold a connection)</td></tr>
 * <tr><td>firstRequestTimeout</td><td>{@code server.firstRequestTimeout}</td><td>from accept to the first complete
 * request head (TLS handshake, SOCKS5 greeting and request included): else the connection is closed</td></tr>
 * <tr><td>maxConnectionsPerAddress</td><td>{@code server.maxConnectionsPerAddress}</td><td>open connections of one
 * client address on a listener; one more is closed at once</td></tr>
 * <tr><td>maxConnections</td><td>0 (no cap)</td><td>open client connections; one more is closed at once. The
 * value in force, not the key: {@code serve} sizes {@code server.maxConnections: 0} from the descriptor limit
 * ({@link ConnectionLimits})</td></tr>
 * </table>
 */
public record GatewayConfig(
        int maxRequestLineBytes,
        int maxHeaderBytes,
        int maxHeaderCount,
        Duration idleTimeout,
        Duration ioTimeout,
        Duration tunnelIdleTimeout,
        int maxAttempts,
        Duration requestHeadTimeout,
        int maxConnections,
        Duration firstRequestTimeout,
        int maxConnectionsPerAddress,
        Duration firstByteTimeout) {

    /** The default {@link #maxRequestLineBytes()}. */
    public static final int DEFAULT_MAX_REQUEST_LINE_BYTES = 8192;
    /** The default {@link #maxHeaderBytes()}. */
    public static final int DEFAULT_MAX_HEADER_BYTES = 65536;
    /** The default {@link #maxHeaderCount()}. */
    public static final int DEFAULT_MAX_HEADER_COUNT = 256;
    /** The default {@link #maxAttempts()}. */
    public static final int DEFAULT_MAX_ATTEMPTS = 2;

    /** The wire defaults, and the keys' defaults of {@link ProxyPoolConfig.Gateway} and {@link ProxyPoolConfig.Server}. */
    public static final GatewayConfig DEFAULTS = builder().build();

    /**
     * Checks the wire limits; the configuration keys were checked where they were read.
     *
     * @throws IllegalArgumentException naming the component of a wire limit out of range
     * @throws NullPointerException     naming the configuration key of a missing duration
     */
    public GatewayConfig {
        check("maxRequestLineBytes", maxRequestLineBytes, 256, 1 << 20);
        check("maxHeaderBytes", maxHeaderBytes, 1024, 1 << 24);
        check("maxHeaderCount", maxHeaderCount, 8, 10_000);
        check("maxAttempts", maxAttempts, 1, RetryRule.MAX_ATTEMPTS);
        check("maxConnections", maxConnections, 0, Integer.MAX_VALUE);
        Objects.requireNonNull(idleTimeout, "gateway.idleTimeout");
        Objects.requireNonNull(ioTimeout, "gateway.ioTimeout");
        Objects.requireNonNull(tunnelIdleTimeout, "gateway.tunnelIdleTimeout");
        Objects.requireNonNull(firstByteTimeout, "gateway.firstByteTimeout");
        Objects.requireNonNull(requestHeadTimeout, "server.requestHeadTimeout");
        Objects.requireNonNull(firstRequestTimeout, "server.firstRequestTimeout");
    }

    /**
     * A builder holding {@link #DEFAULTS}.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link GatewayConfig}; starts from the defaults. */
    public static final class Builder {
        private int maxRequestLineBytes = DEFAULT_MAX_REQUEST_LINE_BYTES;
        private int maxHeaderBytes = DEFAULT_MAX_HEADER_BYTES;
        private int maxHeaderCount = DEFAULT_MAX_HEADER_COUNT;
        private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
        private int maxConnections = 0;
        private Duration idleTimeout;
        private Duration ioTimeout;
        private Duration tunnelIdleTimeout;
        private Duration firstByteTimeout;
        private Duration requestHeadTimeout;
        private Duration firstRequestTimeout;
        private int maxConnectionsPerAddress;

        private Builder() {
            from(ProxyPoolConfig.Gateway.DEFAULTS, ProxyPoolConfig.Server.DEFAULTS);
        }

        /**
         * The configuration keys of {@code gateway} and {@code server} this record carries. Not
         * {@code server.maxConnections}: its 0 means "sized at start", see {@link #maxConnections(int)}.
         *
         * @param gateway the {@code gateway} section
         * @param server  the {@code server} section
         * @return this builder
         */
        public Builder from(ProxyPoolConfig.Gateway gateway, ProxyPoolConfig.Server server) {
            this.idleTimeout = gateway.idleTimeout();
            this.ioTimeout = gateway.ioTimeout();
            this.tunnelIdleTimeout = gateway.tunnelIdleTimeout();
            this.firstByteTimeout = gateway.firstByteTimeout();
            this.requestHeadTimeout = server.requestHeadTimeout();
            this.firstRequestTimeout = server.firstRequestTimeout();
            this.maxConnectionsPerAddress = server.maxConnectionsPerAddress();
            return this;
        }

        /**
         * @param d see {@link GatewayConfig#idleTimeout()}
         * @return this builder
         */
        public Builder idleTimeout(Duration d) {
            this.idleTimeout = d;
            return this;
        }

        /**
         * @param d see {@link GatewayConfig#ioTimeout()}
         * @return this builder
         */
        public Builder ioTimeout(Duration d) {
            this.ioTimeout = d;
            return this;
        }

        /**
         * @param d see {@link GatewayConfig#tunnelIdleTimeout()}
         * @return this builder
         */
        public Builder tunnelIdleTimeout(Duration d) {
            this.tunnelIdleTimeout = d;
            return this;
        }

        /**
         * @param d see {@link GatewayConfig#firstByteTimeout()}
         * @return this builder
         */
        public Builder firstByteTimeout(Duration d) {
            this.firstByteTimeout = d;
            return this;
        }

        /**
         * @param d see {@link GatewayConfig#requestHeadTimeout()}
         * @return this builder
         */
        public Builder requestHeadTimeout(Duration d) {
            this.requestHeadTimeout = d;
            return this;
        }

        /**
         * @param d see {@link GatewayConfig#firstRequestTimeout()}
         * @return this builder
         */
        public Builder firstRequestTimeout(Duration d) {
            this.firstRequestTimeout = d;
            return this;
        }

        /**
         * @param n see {@link GatewayConfig#maxConnectionsPerAddress()}
         * @return this builder
         */
        public Builder maxConnectionsPerAddress(int n) {
            this.maxConnectionsPerAddress = n;
            return this;
        }

        /**
         * @param n the cap on open client connections in force; 0: none
         * @return this builder
         */
        public Builder maxConnections(int n) {
            this.maxConnections = n;
            return this;
        }

        /**
         * @param n see {@link GatewayConfig#maxAttempts()}
         * @return this builder
         */
        public Builder maxAttempts(int n) {
            this.maxAttempts = n;
            return this;
        }

        /**
         * @return the checked configuration
         * @throws IllegalArgumentException naming the component of a wire limit out of range
         */
        public GatewayConfig build() {
            return new GatewayConfig(
                    maxRequestLineBytes,
                    maxHeaderBytes,
                    maxHeaderCount,
                    idleTimeout,
                    ioTimeout,
                    tunnelIdleTimeout,
                    maxAttempts,
                    requestHeadTimeout,
                    maxConnections,
                    firstRequestTimeout,
                    maxConnectionsPerAddress,
                    firstByteTimeout);
        }
    }

    private static void check(String component, int v, int min, int max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(
                    "GatewayConfig." + component + " must be between " + min + " and " + max + ", got " + v);
        }
    }
}
