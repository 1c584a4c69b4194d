package dev.proxypool.server.gateway;

/**
 * The explainability headers every gateway response carries (docs/design.md#gateway-flow, G4): opaque names only.
 *
 * @param attempts attempts made so far (0 when none was routed)
 */
record Explain(String proxy, String upstream, String routing, int attempts) {

    static final Explain NONE = new Explain("none", "none", "none", 0);

    static Explain of(UpstreamAttempt a, int attempt) {
        return new Explain(a.proxyId(), a.upstream(), a.routing(), attempt);
    }

    /** The same headers as {@link #writeTo}, for a head built as text. */
    void appendTo(StringBuilder sb) {
        HttpProxyHandler.header(sb, "X-ProxyPool-Proxy", proxy);
        HttpProxyHandler.header(sb, "X-ProxyPool-Upstream", upstream);
        HttpProxyHandler.header(sb, "X-ProxyPool-Routing", routing);
        HttpProxyHandler.header(sb, "X-ProxyPool-Attempts", Integer.toString(attempts));
    }
}
