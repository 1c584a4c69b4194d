package dev.proxypool.server.gateway;

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
    static ResponseHead read(WireReader in, GatewayConfig cfg) throws IOException, WireException {
        String line;
        try {
            line = in.readLine(cfg.maxRequestLineBytes());
        } catch (WireReader.LineTooLongException e) {
            throw new WireException(502, GatewayErrors.UPSTREAM_PROTOCOL, "upstream status line too long");
        }
        if (line == null) {
            return null;
        }
        // HTTP/1.x SP 3DIGIT [SP reason]
        if (line.length() < 12 || !line.startsWith("HTTP/1.") || line.charAt(8) != ' ') {
            throw new WireException(502, GatewayErrors.UPSTREAM_PROTOCOL, "malformed upstream status line");
        }
        char minor = line.charAt(7);
        int status = 0;
        for (int i = 9; i < 12; i++) {
            char c = line.charAt(i);
            if (c < '0' || c > '9') {
                throw new WireException(502, GatewayErrors.UPSTREAM_PROTOCOL, "malformed upstream status code");
            }
            status = status * 10 + (c - '0');
        }
        if (status < 100 || line.length() > 12 && line.charAt(12) != ' ') {
            throw new WireException(502, GatewayErrors.UPSTREAM_PROTOCOL, "malformed upstream status line");
        }
        String reason = line.length() > 13 ? line.substring(13) : "";
        HeaderFields headers = new HeaderFields();
        RequestHead.readFields(in, headers, cfg.maxHeaderBytes(), cfg.maxHeaderCount(), false);
        return new ResponseHead(status, reason, minor != '0', headers);
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
