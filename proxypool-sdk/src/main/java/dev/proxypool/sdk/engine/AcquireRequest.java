package dev.proxypool.sdk.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One request for a lease on a routing: who asks, for which destination, in which session.
 *
 * @param client     authenticated client name, "" when anonymous (sticky sessions need a client or
 *                   use "anonymous")
 * @param sessionId  sticky session id from the header or the username, "" when none
 * @param targetHost the destination host: the consistent-hash key and the domain checked for bans
 * @param hashKey    an explicit consistent-hash key (a header value), "" to hash the target host
 * @param excluded   proxy ids already tried by this request (a retry goes to a different proxy)
 * @param labels     extra required labels from the request itself (username options such as
 *                   {@code -country-us}), added to the routing's label filter
 */
public record AcquireRequest(
        String client,
        String sessionId,
        String targetHost,
        String hashKey,
        List<String> excluded,
        Map<String, String> labels) {

    public AcquireRequest {
        client = client == null ? "" : client;
        sessionId = sessionId == null ? "" : sessionId;
        targetHost = targetHost == null ? "" : targetHost;
        hashKey = hashKey == null ? "" : hashKey;
        excluded = excluded == null ? List.of() : List.copyOf(excluded);
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    public AcquireRequest(String client, String sessionId, String targetHost, String hashKey, List<String> excluded) {
        this(client, sessionId, targetHost, hashKey, excluded, Map.of());
    }

    public static AcquireRequest forHost(String host) {
        return new AcquireRequest("", "", host, "", List.of());
    }

    public AcquireRequest excluding(String proxyId) {
        ArrayList<String> ids = new ArrayList<>(excluded);
        ids.add(proxyId);
        return new AcquireRequest(client, sessionId, targetHost, hashKey, ids, labels);
    }
}
