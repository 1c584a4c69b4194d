package dev.proxypool.server.api.distribution;

import io.helidon.webserver.http.ServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.OptionalLong;

/**
 * Reads a request body of at most {@code limit} bytes, without reading more than {@code limit + 1}
 * of a larger one: a declared {@code Content-Length} above the limit is refused before any byte is
 * read, a chunked body as soon as it passes the limit. The caller then answers with
 * {@code Connection: close}, so the rest is never read.
 */
final class RequestBody {

    /** The body is larger than the limit. */
    static final class TooLarge extends Exception {
        TooLarge() {
            super(null, null, false, false);
        }
    }

    private RequestBody() {
    }

    static byte[] read(ServerRequest req, int limit) throws TooLarge {
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
