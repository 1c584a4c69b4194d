package dev.proxypool.server.api;

import dev.proxypool.sdk.json.JsonCodec;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /v1/echo}: the project's own echo endpoint (docs/api.md#get-v1echo), JSON
 * {@code {"ip": "<peer>", "headers": {...}}}. The validator and active health checks request it
 * through a proxy to learn the exit IP and which headers the proxy added (anonymity).
 */
public final class EchoHandler implements Handler {

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header h : req.headers()) {
            headers.merge(h.name(), String.join(", ", h.allValues()), (a, b) -> a + ", " + b);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        // the literal address: over TLS Helidon's host() is a name from a reverse lookup ("localhost")
        body.put(
                "ip",
                req.remotePeer().address() instanceof InetSocketAddress a && a.getAddress() != null
                        ? a.getAddress().getHostAddress()
                        : req.remotePeer().host());
        body.put("headers", headers);
        String json = JsonCodec.write(body);
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.header(HeaderNames.CACHE_CONTROL, "no-store");
        res.send(json);
    }
}
