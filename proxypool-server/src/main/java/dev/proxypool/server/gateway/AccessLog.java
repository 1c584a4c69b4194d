package dev.proxypool.server.gateway;

import java.time.InstantSource;
import java.util.Objects;

/**
 * The gateway's access log ({@code server.accessLog}): one line per request and per CONNECT
 * tunnel, denials included, at INFO on the logger {@value #LOGGER} so operators can route it apart
 * from the rest. Off by default; when off the gateway holds no instance and checks one field.
 *
 * <pre>
 * time=2026-01-01T00:00:00.123Z client=127.0.0.1 user=alice method=GET target=shop.example:80 status=200
 *   error=- bytes=5120 ms=12.431 proxy=p-3kq0 attempts=1 result=ok
 * </pre>
 *
 * ({@code bytes_up=} follows {@code bytes=} on tunnel lines.) Fields: {@code user} is the
 * authenticated client's name ({@code -} when authentication failed; never a secret, never the
 * username as sent, which may carry session options); {@code target} is the client's own
 * destination; {@code proxy} is the opaque proxy id, never the proxy's address; {@code error} the
 * {@code X-ProxyPool-Error} reason; {@code bytes} what was sent to the client (a tunnel's
 * {@code bytes_up} what it sent upstream); {@code status} is {@code -} when none was sent (the
 * client left first). A value outside printable ASCII, or with a space or quote, is quoted.
 */
final class AccessLog {

    /** The logger name operators route. */
    static final String LOGGER = "dev.proxypool.access";

    private static final System.Logger LOG = System.getLogger(LOGGER);

    private final InstantSource wall;

    AccessLog(InstantSource wall) {
        this.wall = Objects.requireNonNull(wall, "wall");
    }

    /**
     * Writes one line.
     *
     * @param status  the status sent to the client, 0 when none was
     * @param bytesUp bytes a tunnel carried upstream, or -1 for a plain request
     */
    void write(
            String clientAddress,
            String user,
            String method,
            String target,
            int status,
            String error,
            long bytes,
            long bytesUp,
            long nanos,
            Explain ex,
            ExchangeResult result) {
        String line = line(clientAddress, user, method, target, status, error, bytes, bytesUp, nanos, ex, result);
        if (line != null) {
            emit(line);
        }
    }

    /** Writes a line made by {@link #line} (the event loops hand it to their access log writer thread). */
    static void emit(String line) {
        LOG.log(System.Logger.Level.INFO, line);
    }

    /**
     * The line {@link #write} writes, or null when the logger is off.
     *
     * @param status  the status sent to the client, 0 when none was
     * @param bytesUp bytes a tunnel carried upstream, or -1 for a plain request
     */
    String line(
            String clientAddress,
            String user,
            String method,
            String target,
            int status,
            String error,
            long bytes,
            long bytesUp,
            long nanos,
            Explain ex,
            ExchangeResult result) {
        if (!LOG.isLoggable(System.Logger.Level.INFO)) {
            return null;
        }
        StringBuilder b = new StringBuilder(192);
        b.append("time=").append(wall.instant());
        field(b, "client", clientAddress);
        field(b, "user", user);
        field(b, "method", method);
        field(b, "target", target);
        field(b, "status", status > 0 ? Integer.toString(status) : null);
        field(b, "error", error);
        b.append(" bytes=").append(Math.max(0, bytes));
        if (bytesUp >= 0) {
            b.append(" bytes_up=").append(bytesUp);
        }
        long micros = Math.max(0, nanos) / 1_000;
        b.append(" ms=").append(micros / 1_000).append('.');
        String frac = Long.toString(micros % 1_000);
        b.append("000", 0, 3 - frac.length()).append(frac);
        field(b, "proxy", ex == null || ex.attempts() == 0 ? null : ex.proxy());
        b.append(" attempts=").append(ex == null ? 0 : ex.attempts());
        field(b, "result", result == null ? null : result.tag());
        return b.toString();
    }

    private static void field(StringBuilder b, String name, String value) {
        b.append(' ').append(name).append('=');
        if (value == null || value.isEmpty()) {
            b.append('-');
            return;
        }
        boolean plain = true;
        for (int i = 0, n = value.length(); i < n && plain; i++) {
            char c = value.charAt(i);
            plain = c > 0x20 && c < 0x7f && c != '"' && c != '\\';
        }
        if (plain) {
            b.append(value);
            return;
        }
        b.append('"');
        for (int i = 0, n = value.length(); i < n; i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c >= 0x20 && c < 0x7f) {
                b.append(c);
            } else {
                b.append(String.format("\\u%04x", (int) c));
            }
        }
        b.append('"');
    }
}
