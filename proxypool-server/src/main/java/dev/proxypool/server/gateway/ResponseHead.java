package dev.proxypool.server.gateway;

import dev.proxypool.core.wire.HeadException;
import dev.proxypool.core.wire.HeadReader;
import dev.proxypool.core.wire.Http1Parser;
import java.io.IOException;

/** A parsed upstream response head; every error in it is the upstream's (502 upstream_protocol_error). */
final class ResponseHead {

    final int status;
    final String reasonPhrase;
    final boolean http11;
    final HeaderFields headers;

    private ResponseHead(int status, String reasonPhrase, boolean http11, HeaderFields headers) {
        this.status = status;
        this.reasonPhrase = reasonPhrase;
        this.http11 = http11;
        this.headers = headers;
    }

    /**
     * Reads one response head.
     *
     * @return the head, or {@code null} when the upstream closed before sending a byte
     */
    static ResponseHead read(HeadReader in, GatewayConfig cfg) throws IOException, WireException {
        Http1Parser.StatusLine line;
        try {
            line = Http1Parser.statusLine(in, cfg.maxRequestLineBytes());
        } catch (HeadException e) {
            throw new WireException(
                    502,
                    GatewayErrors.UPSTREAM_PROTOCOL,
                    switch (e.kind()) {
                        case STATUS_LINE_TOO_LONG -> "upstream status line too long";
                        case MALFORMED_STATUS_CODE -> "malformed upstream status code";
                        default -> "malformed upstream status line";
                    });
        }
        if (line == null) {
            return null;
        }
        HeaderFields headers = new HeaderFields();
        RequestHead.readFields(in, headers, cfg.maxHeaderBytes(), cfg.maxHeaderCount(), false);
        return new ResponseHead(line.status(), line.reasonPhrase(), line.http11(), headers);
    }

    /** The body framing of this response to a request with {@code method} (RFC 9112 §6.3). */
    long framing(String method) throws WireException {
        if (method.equals("HEAD") || status < 200 || status == 204 || status == 304) {
            return 0;
        }
        long f = Framing.of(headers, Framing.UNTIL_CLOSE, false);
        if (f == Long.MIN_VALUE) {
            throw new WireException(502, GatewayErrors.UPSTREAM_PROTOCOL, "upstream response framing is invalid");
        }
        return f;
    }
}
