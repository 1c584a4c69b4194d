package dev.proxypool.server.admin;

import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.rest.ErrorBody;
import dev.proxypool.server.persistence.JsonTree;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;

/** Request bodies in, JSON answers out ({@code Cache-Control: no-store}: answers may name hosts). */
final class AdminJson {

    /** Largest admin request body. */
    static final int MAX_BODY_BYTES = 256 * 1024;

    private AdminJson() {}

    static void send(ServerResponse res, int status, Object tree) {
        sendJson(res, status, JsonTree.write(tree));
    }

    /** {@code {"error": code, "message": message}} ({@link ErrorBody}; no message when it is null). */
    static void error(ServerResponse res, int status, String code, String message) {
        sendJson(res, status, JsonCodec.write(ErrorBody.of(code, message)));
    }

    private static void sendJson(ServerResponse res, int status, String json) {
        res.status(status);
        res.header(HeaderValues.CONTENT_TYPE_JSON);
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        res.send(json.getBytes(StandardCharsets.UTF_8));
    }

    /** The request body as a JSON object; an empty body is refused. */
    static Map<String, Object> object(ServerRequest req) {
        try {
            return JsonTree.parseObject(bytes(req));
        } catch (IllegalArgumentException e) {
            throw AdminException.invalid(e.getMessage());
        }
    }

    /** The request body as a JSON object, or an empty object when there is no body. */
    static Map<String, Object> optionalObject(ServerRequest req) {
        byte[] b = bytes(req);
        if (b.length == 0 || new String(b, StandardCharsets.UTF_8).isBlank()) {
            return Map.of();
        }
        try {
            return JsonTree.parseObject(b);
        } catch (IllegalArgumentException e) {
            throw AdminException.invalid(e.getMessage());
        }
    }

    private static byte[] bytes(ServerRequest req) {
        OptionalLong declared = req.headers().contentLength();
        if (declared.isPresent() && declared.getAsLong() > MAX_BODY_BYTES) {
            throw AdminException.invalid("request body exceeds " + MAX_BODY_BYTES + " bytes");
        }
        if (!req.content().hasEntity()) {
            return new byte[0];
        }
        try (InputStream in = req.content().inputStream()) {
            byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
            if (body.length > MAX_BODY_BYTES) {
                throw AdminException.invalid("request body exceeds " + MAX_BODY_BYTES + " bytes");
            }
            return body;
        } catch (IOException e) {
            throw new UncheckedIOException("reading the request body failed", e);
        }
    }

    static String instant(Instant i) {
        return i.toString();
    }
}
