package dev.proxypool.server.gateway;

/**
 * What the wire layer reports; the server binds it to the Helidon/Micrometer registry. Tags are
 * closed sets ({@link ExchangeResult}, {@link GatewayErrors}, http/connect): never a proxy id,
 * client or host. Implementations are thread-safe and cheap (called on every request).
 */
public interface GatewayMetrics {

    /** A request or tunnel began (in-flight + 1). */
    void started(boolean tunnel);

    /** It ended (in-flight - 1) after {@code nanos}. */
    void finished(boolean tunnel, ExchangeResult result, long nanos);

    /**
     * A SOCKS5 connection ended (in-flight - 1; it began with {@code started(true)}) after
     * {@code nanos}: counted apart from CONNECT tunnels ({@code kind=socks}) where the registry
     * tells listeners apart, as a CONNECT tunnel otherwise.
     */
    default void socksFinished(ExchangeResult result, long nanos) {
        finished(true, result, nanos);
    }

    /** An error answered with {@code X-ProxyPool-Error: reason}. */
    void error(String reason);

    /** A retry on another proxy. */
    void retried();

    /**
     * A listener closed a client connection by itself ({@code listener}: {@link ClosedReason#LISTENER_GATEWAY}
     * or {@link ClosedReason#LISTENER_SOCKS}; {@code reason}: a {@link ClosedReason}).
     */
    default void connectionClosed(String listener, String reason) {}

    GatewayMetrics NONE = new GatewayMetrics() {
        @Override
        public void started(boolean tunnel) {}

        @Override
        public void finished(boolean tunnel, ExchangeResult result, long nanos) {}

        @Override
        public void error(String reason) {}

        @Override
        public void retried() {}
    };
}
