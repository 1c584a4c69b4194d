package dev.proxypool.core.sticky;

/**
 * Identifies one sticky session: the authenticated client, the routing that matched, and the
 * session id the client sent (header or username). Two clients using the same session id never
 * share a binding.
 *
 * @param client    authenticated client name
 * @param routing   routing name
 * @param sessionId the client's session id
 */
public record SessionKey(String client, String routing, String sessionId) {

    /**
     * Checks every part is present.
     *
     * @throws IllegalArgumentException naming the empty part
     */
    public SessionKey {
        require("client", client);
        require("routing", routing);
        require("sessionId", sessionId);
    }

    private static void require(String field, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("sticky session " + field + " must not be empty");
        }
    }

    @Override
    public String toString() {
        return "SessionKey[" + client + "/" + routing + "/" + sessionId + "]";
    }
}
