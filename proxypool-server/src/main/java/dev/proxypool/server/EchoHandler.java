package dev.proxypool.server;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code GET /v1/echo}: the project's own echo endpoint (docs/api.md#get-v1echo), JSON
 * {@code {"ip": "<peer>", "headers": {...}}}. The validator and active health checks request it
 * through a proxy to learn the exit IP and which headers the proxy added (anonymity).
 */
public final class EchoHandler implements Handler {

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        StringBuilder json = new StringBuilder(512).append("{\"ip\":");
        Json.string(json, req.remotePeer().host());
        json.append(",\"headers\":{");
        boolean first = true;
        for (Header h : req.headers()) {
            if (!first) {
                json.append(',');
            }
            first = false;
            Json.string(json, h.name());
            json.append(':');
            Json.string(json, String.join(", ", h.allValues()));
        }
        json.append("}}");
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        res.send(json.toString());
    }
}
