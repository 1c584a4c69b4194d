package dev.proxypool.server.gateway;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.SocketChannel;
import java.util.OptionalLong;

/**
 * The client side of one gateway connection, whichever listener accepted it (our own
 * {@link GatewayListener}, or a Helidon listener through {@code GatewayConnectionSelector}, a test
 * fixture the load harness runs).
 */
interface ClientChannel {

    InputStream input();

    OutputStream output();

    /** Sets the read timeout; listeners that cannot (Helidon) enforce idleness themselves. */
    void readTimeout(int millis);

    /**
     * Whether {@link #shutdownInput()} ends a read blocked in {@link #input()} (it returns end of
     * stream), so that a wait can be bounded from another thread ({@link FirstByteWait}) instead of by
     * a read timeout; when false, reads that must end in time need {@link #readTimeout(int)}.
     */
    default boolean readsInterruptible() {
        return false;
    }

    /** Shuts our receiving side down: a blocked read returns end of stream; nothing when not supported. */
    default void shutdownInput() {}

    /**
     * Whether {@link #abort()} ends any read blocked in {@link #input()} from another thread, a TLS
     * handshake's included ({@link FirstRequestDeadline}).
     */
    default boolean abortable() {
        return false;
    }

    /** Closes the connection at once from another thread, without a TLS close_notify; {@link #close()} by default. */
    default void abort() {
        close();
    }

    /**
     * When the listener accepted the connection ({@link Gateway#ticker()} time), so that the first-request
     * deadline counts from there, not from when the connection's thread first ran; empty when unknown.
     */
    default OptionalLong acceptedAt() {
        return OptionalLong.empty();
    }

    /** Half-closes our sending side (end of a tunnel's downstream). */
    void shutdownOutput();

    /**
     * Closes after an error response: half-close, then read and discard what the client still
     * sends for a short while, so the close does not turn into a RST that destroys the response.
     */
    void closeGracefully();

    void close();

    /**
     * The plain socket channel under this connection, for the selector relay of established
     * tunnels ({@link TunnelRelay}); {@code null} when there is none (TLS, another listener), and
     * the tunnel then relays with blocking threads.
     */
    default SocketChannel socketChannel() {
        return null;
    }

    /** The client's address, for the echo of errors in debug logs only (masked there). */
    String peer();
}
