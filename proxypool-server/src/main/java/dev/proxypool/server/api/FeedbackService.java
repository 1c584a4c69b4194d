package dev.proxypool.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.proxypool.sdk.engine.PoolEngine;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * {@code POST /v1/feedback}: a caller reports that a destination banned the proxy it was served
 * through ({@code {"proxy": "<X-ProxyPool-Proxy id>", "domain": "shop.example", "kind": "banned"}}).
 * The proxy is excluded for that domain for the ban period and stays healthy everywhere else.
 * Answers 202 when applied, 404 for an unknown proxy id, 400 naming the bad field, 401 without a
 * valid client token when clients are configured.
 */
public final class FeedbackService implements Handler {

    private static final int MAX_BODY = 8 * 1024;
    private static final Set<String> KEYS = Set.of("proxy", "domain", "kind");

    private final PoolEngine engine;
    private final Function<String, Optional<String>> bearer;
    private final BooleanSupplier required;

    /**
     * @param bearer the client for an {@code Authorization} header value, or empty when it is not
     *               valid; {@code null} when the API is open (no clients configured)
     */
    public FeedbackService(PoolEngine engine, Function<String, Optional<String>> bearer) {
        this(engine, bearer, () -> bearer != null);
    }

    /**
     * @param bearer   the client for an {@code Authorization} header value, or empty when it is not valid
     * @param required asked per request: whether a token is needed now (e.g. while any client has one)
     */
    public FeedbackService(PoolEngine engine, Function<String, Optional<String>> bearer, BooleanSupplier required) {
        this.engine = engine;
        this.bearer = bearer;
        this.required = required;
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        if (bearer != null && required.getAsBoolean()) {
            if (BearerToken.header(req).flatMap(bearer).isEmpty()) {
                BearerToken.challenge(res);
                JsonResponses.error(res, "unauthorized", "a valid client bearer token is required");
                return;
            }
        }
        byte[] body;
        try (var in = req.content().inputStream()) {
            body = in.readNBytes(MAX_BODY + 1);
        } catch (IOException e) {
            res.status(Status.BAD_REQUEST_400);
            JsonResponses.error(res, "invalid_request", "could not read the request body");
            return;
        }
        if (body.length > MAX_BODY) {
            res.status(Status.BAD_REQUEST_400);
            JsonResponses.error(res, "invalid_request", "body is larger than " + MAX_BODY + " bytes");
            return;
        }
        JsonNode o;
        try {
            o = JsonResponses.object(body, "body must be a JSON object {\"proxy\", \"domain\", \"kind\"}");
        } catch (IllegalArgumentException e) {
            res.status(Status.BAD_REQUEST_400);
            JsonResponses.error(res, "invalid_request", e.getMessage());
            return;
        }
        for (Iterator<String> keys = o.fieldNames(); keys.hasNext(); ) {
            String k = keys.next();
            if (!KEYS.contains(k)) {
                res.status(Status.BAD_REQUEST_400);
                JsonResponses.error(res, "invalid_request", "unknown field '" + k + "'");
                return;
            }
        }
        String proxy = JsonResponses.string(o, "proxy");
        String domain = JsonResponses.string(o, "domain");
        String kind = JsonResponses.string(o, "kind");
        if (proxy == null || proxy.isBlank()) {
            res.status(Status.BAD_REQUEST_400);
            JsonResponses.error(res, "invalid_request", "proxy is required (the X-ProxyPool-Proxy id)");
            return;
        }
        if (domain == null || !domain.matches("[A-Za-z0-9.-]{1,253}")) {
            res.status(Status.BAD_REQUEST_400);
            JsonResponses.error(res, "invalid_request", "domain must be a host name such as shop.example");
            return;
        }
        if (kind != null && !kind.equals("banned")) {
            res.status(Status.BAD_REQUEST_400);
            JsonResponses.error(res, "invalid_request", "kind must be 'banned'");
            return;
        }
        if (!engine.reportBan(proxy, domain.toLowerCase(Locale.ROOT))) {
            res.status(Status.NOT_FOUND_404);
            JsonResponses.error(res, "unknown_proxy", "no proxy with that id serves here");
            return;
        }
        res.status(Status.ACCEPTED_202);
        Map<String, String> answer = new LinkedHashMap<>();
        answer.put("proxy", proxy);
        answer.put("domain", domain.toLowerCase(Locale.ROOT));
        answer.put("kind", "banned");
        JsonResponses.send(res, answer);
    }
}
