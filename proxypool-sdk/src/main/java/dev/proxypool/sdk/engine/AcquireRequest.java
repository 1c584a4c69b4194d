package dev.proxypool.sdk.engine;

import dev.proxypool.core.model.Protocol;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One request for a lease on a routing: who asks, for which destination, in which session.
 *
 * @param client      authenticated client name, "" when anonymous (sticky sessions need a client or
 *                    use "anonymous")
 * @param sessionId   sticky session id from the header or the username, "" when none
 * @param targetHost  the destination host: the consistent-hash key and the domain checked for bans
 * @param hashKey     an explicit consistent-hash key (a header value), "" to hash the target host
 * @param excluded    proxy ids already tried by this request (a retry goes to a different proxy)
 * @param labels      extra required labels from the request itself (username options such as
 *                    {@code -country-us}), added to the routing's label filter
 * @param upstreams   when not empty, only proxies of these upstreams (narrowing the routing's own
 *                    upstreams: a name the routing does not allow matches nothing)
 * @param protocols   when not empty, only proxies of these protocols (narrowing the routing's)
 * @param sessionIdle {@code null}: a session follows the routing's sticky policy (and only where it
 *                    enables sessions); else the session lives in a table of its own with this idle
 *                    time, on any routing (the remote acquire API's sessions)
 */
public record AcquireRequest(
        String client,
        String sessionId,
        String targetHost,
        String hashKey,
        List<String> excluded,
        Map<String, String> labels,
        List<String> upstreams,
        Set<Protocol> protocols,
        Duration sessionIdle) {

    public AcquireRequest {
        client = client == null ? "" : client;
        sessionId = sessionId == null ? "" : sessionId;
        targetHost = targetHost == null ? "" : targetHost;
        hashKey = hashKey == null ? "" : hashKey;
        excluded = excluded == null ? List.of() : List.copyOf(excluded);
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        upstreams = upstreams == null ? List.of() : List.copyOf(upstreams);
        protocols = protocols == null || protocols.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(protocols));
        if (sessionIdle != null && (sessionIdle.isNegative() || sessionIdle.isZero())) {
            throw new IllegalArgumentException("sessionIdle must be positive, got " + sessionIdle);
        }
    }

    public AcquireRequest(
            String client,
            String sessionId,
            String targetHost,
            String hashKey,
            List<String> excluded,
            Map<String, String> labels) {
        this(client, sessionId, targetHost, hashKey, excluded, labels, List.of(), Set.of(), null);
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
        return new AcquireRequest(
                client, sessionId, targetHost, hashKey, ids, labels, upstreams, protocols, sessionIdle);
    }

    /** Whether the request narrows the routing's upstreams or protocols. */
    boolean narrows() {
        return !upstreams.isEmpty() || !protocols.isEmpty();
    }
}
