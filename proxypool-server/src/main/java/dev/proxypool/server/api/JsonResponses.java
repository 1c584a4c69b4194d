package dev.proxypool.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.sdk.json.JsonCodec;
import dev.proxypool.sdk.json.MalformedJsonException;
import dev.proxypool.sdk.rest.ErrorBody;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;

/** Small JSON helpers for the REST handlers: bodies written through {@link JsonCodec}, typed field reads. */
public final class JsonResponses {

    private JsonResponses() {}

    /** Sends {@code body} (JSON text) as {@code application/json}. */
    public static void send(ServerResponse res, String body) {
        res.header(HeaderValues.CONTENT_TYPE_JSON);
        res.send(body);
    }

    /** Sends a map (or any value {@link JsonCodec#write(Object)} takes) as {@code application/json}. */
    public static void send(ServerResponse res, Map<String, ?> body) {
        send(res, JsonCodec.write(body));
    }

    /** {@code {"error": code, "message": message}} ({@link ErrorBody}) with the status already set. */
    public static void error(ServerResponse res, String code, String message) {
        send(res, JsonCodec.write(ErrorBody.of(code, message)));
    }

    /**
     * A small request body parsed as a JSON object.
     *
     * @throws IllegalArgumentException naming the repeated key, or with {@code notAnObject} for
     *         anything else that is not one JSON object
     */
    public static JsonNode object(byte[] body, String notAnObject) {
        JsonNode v;
        try {
            v = JsonCodec.read(body, JsonCodec.Nesting.REQUEST);
        } catch (MalformedJsonException e) {
            throw new IllegalArgumentException(
                    e.reason() == MalformedJsonException.Reason.DUPLICATE_KEY
                            ? e.describe("request body")
                            : notAnObject,
                    e);
        }
        if (!v.isObject()) {
            throw new IllegalArgumentException(notAnObject);
        }
        return v;
    }

    /** The string field {@code key}, or {@code null} when absent; a non-string value is an error. */
    public static String string(JsonNode o, String key) {
        JsonNode v = o.get(key);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new IllegalStateException(key + " must be a string");
        }
        return v.textValue();
    }
}
