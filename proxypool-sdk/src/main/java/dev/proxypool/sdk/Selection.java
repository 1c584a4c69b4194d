package dev.proxypool.sdk;

import dev.proxypool.core.routing.RequestFacts;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an in-process caller wants a proxy for: the destination (routing and bans depend on it),
 * an optional sticky session, client name and headers for routing rules. Immutable;
 * {@code Selection.forHost("shop.example").session("s1")}.
 */
public final class Selection implements RequestFacts {

    private final String host;
    private final int port;
    private final String method;
    private final String client;
    private final String session;
    private final String hashKey;
    private final Map<String, String> headers;

    private Selection(
            String host,
            int port,
            String method,
            String client,
            String session,
            String hashKey,
            Map<String, String> headers) {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("selection host must not be empty");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("selection port " + port + " is out of range 1..65535");
        }
        this.host = host.trim().toLowerCase(Locale.ROOT);
        this.port = port;
        this.method = method;
        this.client = client;
        this.session = session;
        this.hashKey = hashKey;
        this.headers = headers;
    }

    /**
     * A selection for an HTTPS destination (port 443, method CONNECT).
     *
     * @param host the destination host
     * @return the selection
     */
    public static Selection forHost(String host) {
        return new Selection(host, 443, "CONNECT", null, "", "", Map.of());
    }

    /**
     * A selection for {@code url}'s host and port ({@code GET} for http, {@code CONNECT} for https).
     *
     * @param url the destination URL
     * @return the selection
     */
    public static Selection forUri(URI url) {
        boolean https = "https".equalsIgnoreCase(url.getScheme());
        int port = url.getPort() > 0 ? url.getPort() : https ? 443 : 80;
        return new Selection(url.getHost(), port, https ? "CONNECT" : "GET", null, "", "", Map.of());
    }

    /**
     * The destination port.
     *
     * @param p 1..65535
     * @return a new selection with this port
     */
    public Selection port(int p) {
        return new Selection(host, p, method, client, session, hashKey, headers);
    }

    /**
     * The request method routing rules match on.
     *
     * @param m the method, e.g. {@code GET}
     * @return a new selection with this method
     */
    public Selection method(String m) {
        return new Selection(host, port, m.toUpperCase(Locale.ROOT), client, session, hashKey, headers);
    }

    /**
     * Sticky session id: the same id keeps its proxy while the proxy qualifies (routing must enable sticky).
     *
     * @param id the session id; null or empty for none
     * @return a new selection with this session
     */
    public Selection session(String id) {
        return new Selection(host, port, method, client, id == null ? "" : id, hashKey, headers);
    }

    /**
     * The client name routing rules match on ({@code match.clients}).
     *
     * @param name the client's name
     * @return a new selection with this client
     */
    public Selection client(String name) {
        return new Selection(host, port, method, name, session, hashKey, headers);
    }

    /**
     * A consistent-hash key other than the host.
     *
     * @param key the key; null or empty for the host
     * @return a new selection with this key
     */
    public Selection hashKey(String key) {
        return new Selection(host, port, method, client, session, key == null ? "" : key, headers);
    }

    /**
     * A request header routing rules match on.
     *
     * @param name  the header's name (case-insensitive)
     * @param value its value
     * @return a new selection with this header
     */
    public Selection header(String name, String value) {
        TreeMap<String, String> h = new TreeMap<>(headers);
        h.put(name.toLowerCase(Locale.ROOT), value);
        return new Selection(host, port, method, client, session, hashKey, Map.copyOf(h));
    }

    @Override
    public String client() {
        return client;
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public String header(String lowerCaseName) {
        return headers.get(lowerCaseName);
    }

    /**
     * The sticky session id.
     *
     * @return the id; empty for none
     */
    public String sessionId() {
        return session;
    }

    /**
     * The consistent-hash key.
     *
     * @return the key; empty for the host
     */
    public String hashKeyValue() {
        return hashKey;
    }

    @Override
    public String toString() {
        return "Selection[" + host + ":" + port + (session.isEmpty() ? "" : " session=" + session) + "]";
    }
}
