package dev.proxypool.sdk.dial;

import dev.proxypool.core.health.FailureKind;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import javax.net.ssl.SSLException;

/**
 * Maps an I/O failure at a dial stage to a {@link FailureKind} and a short reason without the
 * JDK's message (which may name an address).
 */
final class Failures {

    private Failures() {}

    record Classified(FailureKind kind, String reason) {}

    static Classified classify(IOException e, DialStage stage) {
        if (has(e, SocketTimeoutException.class)) {
            return new Classified(
                    FailureKind.CONNECT_TIMEOUT,
                    switch (stage) {
                        case CONNECT -> "connect timed out";
                        case TLS -> "TLS handshake timed out";
                        default -> "handshake timed out";
                    });
        }
        if (has(e, InterruptedIOException.class)) {
            return new Classified(FailureKind.CONNECT_TIMEOUT, "interrupted");
        }
        String type = " (" + e.getClass().getSimpleName() + ")";
        return switch (stage) {
            case CREDENTIALS -> new Classified(FailureKind.PROXY_AUTH_REJECTED, "credentials unavailable" + type);
            case CONNECT -> new Classified(FailureKind.CONNECTION_REFUSED, "connection refused" + type);
            case TLS -> new Classified(FailureKind.TLS_FAILURE, "TLS handshake failed" + type);
            case HANDSHAKE -> {
                if (has(e, EOFException.class)) {
                    yield new Classified(FailureKind.CONNECTION_RESET, "the proxy closed the connection mid-handshake");
                }
                if (has(e, SocketException.class)) {
                    yield new Classified(FailureKind.CONNECTION_RESET, "connection reset mid-handshake" + type);
                }
                if (e instanceof SSLException) {
                    yield new Classified(FailureKind.TLS_FAILURE, "TLS failed mid-handshake" + type);
                }
                yield new Classified(FailureKind.PROTOCOL_ERROR, "handshake failed" + type);
            }
        };
    }

    private static boolean has(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
