package dev.proxypool.server.api;

import dev.proxypool.sdk.json.JsonText;
import io.helidon.http.HeaderValues;
import io.helidon.json.JsonObject;
import io.helidon.json.JsonValue;
import io.helidon.json.JsonValueType;
import io.helidon.webserver.http.ServerResponse;

/** Small JSON helpers for the REST handlers: error bodies, string escaping, typed field reads. */
public final class Json {

    private Json() {
    }

    /** Sends {@code body} as {@code application/json}. */
    public static void send(ServerResponse res, String body) {
        res.header(HeaderValues.CONTENT_TYPE_JSON);
        res.send(body);
    }

    /** {@code {"error": code, "message": message}} with the status already set. */
    public static void error(ServerResponse res, String code, String message) {
        send(res, "{\"error\": " + quote(code) + ", \"message\": " + quote(message) + "}");
    }

    /** The string field {@code key}, or {@code null} when absent; a non-string value is an error. */
    public static String string(JsonObject o, String key) {
        JsonValue v = o.value(key, null);
        if (v == null || v.type() == JsonValueType.NULL) {
            return null;
        }
        if (v.type() != JsonValueType.STRING) {
            throw new IllegalStateException(key + " must be a string");
        }
        return v.asString().value();
    }

    /** A JSON string literal. */
    public static String quote(String s) {
        return JsonText.quote(s);
    }
}
