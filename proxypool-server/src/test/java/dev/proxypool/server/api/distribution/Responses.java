package dev.proxypool.server.api.distribution;

import io.helidon.json.JsonArray;
import io.helidon.json.JsonObject;
import io.helidon.json.JsonParser;
import io.helidon.json.JsonValue;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/** Reading response bodies in tests. */
final class Responses {

    private Responses() {
    }

    static JsonObject json(HttpResponse<String> r) {
        return JsonParser.create(r.body()).readJsonObject();
    }

    static List<JsonObject> proxies(HttpResponse<String> r) {
        JsonArray a = json(r).arrayValue("proxies").orElseThrow();
        List<JsonObject> out = new ArrayList<>();
        for (JsonValue v : a.values()) {
            out.add(v.asObject());
        }
        return out;
    }

    static List<String> ids(HttpResponse<String> r) {
        List<String> ids = new ArrayList<>();
        for (JsonObject p : proxies(r)) {
            ids.add(p.stringValue("id").orElseThrow());
        }
        return ids;
    }

    static int extracted(HttpResponse<String> r) {
        return json(r).intValue("extracted").orElseThrow();
    }
}
