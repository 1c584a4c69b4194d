package dev.proxypool.testkit;

import dev.proxypool.core.wire.ChunkedBody;
import dev.proxypool.core.wire.HeadException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** Copies HTTP/1.1 message bodies by their framing (Content-Length, chunked, or until close). */
final class HttpBody {

    private HttpBody() {}

    /** Copies (or, with a null {@code out}, discards) a request body. */
    static void copyRequestBody(HttpHead head, InputStream in, OutputStream out) throws IOException {
        if (head.chunked()) {
            copyChunked(in, out);
        } else {
            long n = head.contentLength();
            if (n > 0) {
                copyExactly(in, out, n);
            }
        }
    }

    /**
     * Copies a response body to {@code out}.
     *
     * @return false when the body was delimited by the end of the connection (not reusable)
     */
    static boolean copyResponseBody(String requestMethod, HttpHead response, InputStream in, OutputStream out)
            throws IOException {
        int status = response.status();
        if (requestMethod.equals("HEAD") || status / 100 == 1 || status == 204 || status == 304) {
            return true;
        }
        if (response.chunked()) {
            copyChunked(in, out);
            return true;
        }
        long n = response.contentLength();
        if (n >= 0) {
            copyExactly(in, out, n);
            return true;
        }
        in.transferTo(out);
        return false;
    }

    static void copyExactly(InputStream in, OutputStream out, long n) throws IOException {
        byte[] buf = new byte[(int) Math.min(16384, Math.max(1, n))];
        while (n > 0) {
            int r = in.read(buf, 0, (int) Math.min(buf.length, n));
            if (r < 0) {
                throw new EOFException("body ended " + n + " bytes early");
            }
            if (out != null) {
                out.write(buf, 0, r);
            }
            n -= r;
        }
    }

    /** Copies (or, with a null {@code out}, discards) a chunked body verbatim, framing included, through the last chunk and trailers. */
    static void copyChunked(InputStream in, OutputStream out) throws IOException {
        try {
            ChunkedBody.copyFramed(
                    in,
                    out == null ? OutputStream.nullOutputStream() : out,
                    HttpHead.MAX_LINE + 1,
                    HttpHead.MAX_FIELDS);
        } catch (HeadException e) {
            throw new HttpHead.HttpParseException(e.getMessage());
        }
    }
}
