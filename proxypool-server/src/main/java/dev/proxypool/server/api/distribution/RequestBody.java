package dev.proxypool.server.api.distribution;

import io.helidon.webserver.http.ServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.OptionalLong;

/**
 * Reads a request body of at most {@code limit} bytes, without reading more than {@code limit + 1}
 * of a larger one: a declared {@code Content-Length} above the limit is refused before any byte is
 * read, a chunked body as soon as it passes the limit. The caller then {@link #drain drains} a body
 * of modest size, so the client reads the refusal, or answers with {@code Connection: close}.
 */
public final class RequestBody {

    /** The body is larger than the limit. */
    public static final class TooLarge extends Exception {
        TooLarge() {
            super(null, null, false, false);
        }
    }

    private RequestBody() {}

    /**
     * After a {@link TooLarge}: reads and discards the rest of a body that ends within
     * {@code drainLimit} bytes in all, so the refusal can be answered on a connection whose input is
     * clean. Closing with unread bytes in the socket makes the kernel reset the connection, and the
     * client, still sending, may never see the {@code 413}. True when the whole body was consumed;
     * false (the caller then closes the connection) for a body larger than {@code drainLimit} or
     * one that cannot be read.
     */
    public static boolean drain(ServerRequest req, long drainLimit) {
        OptionalLong declared = req.headers().contentLength();
        if (declared.isPresent() && declared.getAsLong() > drainLimit) {
            return false;
        }
        try {
            InputStream in = req.content().inputStream();
            byte[] sink = new byte[8192];
            long total = 0;
            for (int n; (n = in.read(sink)) >= 0; ) {
                total += n;
                if (total > drainLimit) {
                    return false;
                }
            }
            return true;
        } catch (IOException | UncheckedIOException | IllegalStateException e) {
            return false;
        }
    }

    /** The body, at most {@code limit} bytes; empty when there is none. */
    public static byte[] read(ServerRequest req, int limit) throws TooLarge {
        OptionalLong declared = req.headers().contentLength();
        if (declared.isPresent() && declared.getAsLong() > limit) {
            throw new TooLarge();
        }
        if (!req.content().hasEntity()) {
            return new byte[0];
        }
        InputStream in = req.content().inputStream();
        byte[] body;
        try {
            body = in.readNBytes(limit + 1);
        } catch (IOException e) {
            throw new UncheckedIOException("reading the request body failed", e);
        }
        if (body.length > limit) {
            throw new TooLarge();
        }
        return body;
    }
}
