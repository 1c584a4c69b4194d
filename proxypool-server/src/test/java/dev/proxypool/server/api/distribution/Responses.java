package dev.proxypool.server.api.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.sdk.json.JsonCodec;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/** Reading response bodies in tests. */
final class Responses {

    private Responses() {}

    static JsonNode json(HttpResponse<String> r) {
        return JsonCodec.read(r.body(), JsonCodec.Nesting.FEED);
    }

    static List<JsonNode> proxies(HttpResponse<String> r) {
        JsonNode a = json(r).get("proxies");
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode v : a) {
            out.add(v);
        }
        return out;
    }

    static List<String> ids(HttpResponse<String> r) {
        List<String> ids = new ArrayList<>();
        for (JsonNode p : proxies(r)) {
            ids.add(p.get("id").asText());
        }
        return ids;
    }

    static int extracted(HttpResponse<String> r) {
        return json(r).get("extracted").asInt();
    }
}
