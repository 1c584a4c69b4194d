package dev.proxypool.sdk.dial;

import dev.proxypool.core.wire.HeadException;
import dev.proxypool.core.wire.HeadReader;
import dev.proxypool.core.wire.Http1Parser;
import dev.proxypool.sdk.credentials.Credentials;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The {@code CONNECT} handshake with an HTTP(S) proxy (RFC 9110 §9.3.6), a state of
 * {@link UpstreamHandshake}. Any 2xx opens the tunnel (its Content-Length/Transfer-Encoding are
 * ignored, as the RFC requires); up to 4 1xx interim replies are skipped; every other status is
 * judged by {@link Failures#connectStatus}. A reply head ends at its blank line (CRLFCRLF, or bare
 * line feeds); one that does not start {@code HTTP/} fails at its first wrong byte (a banner or
 * binary reply may never send a blank line).
 */
final class HttpConnect implements UpstreamHandshake.Phase {

    private static final int MAX_INTERIM = 4;
    private static final byte[] HTTP = {'H', 'T', 'T', 'P', '/'};
    private static final byte[] CRLFCRLF = {'\r', '\n', '\r', '\n'};

    private final Target target;
    private final Credentials credentials;
    /** The reply head read so far. */
    private byte[] head = new byte[128];

    private int length;
    /** 0: inside a line; 1: after LF; 2: after LF CR. */
    private int lineEnd;

    private int interim;

    HttpConnect(Target target, Credentials credentials) {
        this.target = target;
        this.credentials = credentials;
    }

    @Override
    public byte[] start() {
        StringBuilder req = new StringBuilder(128)
                .append("CONNECT ")
                .append(target.authority())
                .append(" HTTP/1.1\r\n")
                .append("Host: ")
                .append(target.authority())
                .append("\r\n");
        if (credentials != null) {
            req.append("Proxy-Authorization: ")
                    .append(credentials.basicAuthorization().reveal())
                    .append("\r\n");
        }
        return req.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    @Override
    public boolean input(ByteBuffer in, UpstreamHandshake out) throws HandshakeRejected {
        while (in.hasRemaining()) {
            byte b = in.get();
            if (length == UpstreamHandshake.MAX_HTTP_HEAD) {
                throw Failures.protocolError("reply head longer than " + UpstreamHandshake.MAX_HTTP_HEAD + " bytes");
            }
            if (length == head.length) {
                head = Arrays.copyOf(head, Math.min(head.length * 2, UpstreamHandshake.MAX_HTTP_HEAD));
            }
            head[length++] = b;
            if (length <= HTTP.length && b != HTTP[length - 1]) {
                throw Failures.protocolError("the reply is not HTTP");
            }
            if (!endsHead(b)) {
                continue;
            }
            int status = status(head, length);
            length = 0;
            lineEnd = 0;
            if (status / 100 == 1 && interim < MAX_INTERIM) {
                interim++; // 1xx interim replies precede the real one
                continue;
            }
            HandshakeRejected refused = Failures.connectStatus(status, credentials != null);
            if (refused != null) {
                throw refused;
            }
            return true;
        }
        return false;
    }

    /** Whether {@code b} completes a blank line: LF LF or LF CR LF. */
    private boolean endsHead(byte b) {
        if (b == '\n') {
            if (lineEnd != 0) {
                return true;
            }
            lineEnd = 1;
        } else {
            lineEnd = b == '\r' && lineEnd == 1 ? 2 : 0;
        }
        return false;
    }

    /**
     * The bytes that can still belong to the head: {@code 4 - k} after a partial {@code CRLFCRLF}
     * of length {@code k}, so a byte-exact reader reads about 4 bytes at a time and never a byte of
     * the tunnel behind a CRLF-terminated head.
     */
    @Override
    public int wanted() {
        for (int k = Math.min(3, length); k > 0; k--) {
            boolean match = true;
            for (int i = 0; i < k && match; i++) {
                match = head[length - k + i] == CRLFCRLF[i];
            }
            if (match) {
                return CRLFCRLF.length - k;
            }
        }
        return CRLFCRLF.length;
    }

    /** The status code of {@code HTTP/1.x SSS ...} (the shared HTTP/1 parser); anything else is not an HTTP proxy. */
    static int status(byte[] head, int length) throws HandshakeRejected {
        try {
            Http1Parser.StatusLine line = Http1Parser.statusLine(HeadReader.over(head, 0, length), length + 1);
            if (line != null) {
                return line.status();
            }
        } catch (HeadException e) {
            throw Failures.protocolError(
                    e.kind() == HeadException.Kind.NOT_HTTP
                            ? "the reply is not HTTP"
                            : "the reply has no HTTP status code");
        } catch (IOException e) { // cannot happen: the head ends in a blank line
            throw Failures.protocolError("the reply is not HTTP");
        }
        throw Failures.protocolError("the reply is not HTTP");
    }
}
