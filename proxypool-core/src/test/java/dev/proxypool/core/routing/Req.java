package dev.proxypool.core.routing;

import java.util.Map;
import java.util.TreeMap;

/** A test request: headers looked up case-insensitively, as a gateway adapter must. */
record Req(String client, String host, int port, String method, Map<String, String> headers) implements RequestFacts {

    static Req to(String host) {
        return new Req(null, host, 443, "CONNECT", Map.of());
    }

    Req client(String c) {
        return new Req(c, host, port, method, headers);
    }

    Req port(int p) {
        return new Req(client, host, p, method, headers);
    }

    Req method(String m) {
        return new Req(client, host, port, m, headers);
    }

    Req header(String name, String value) {
        TreeMap<String, String> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        h.putAll(headers);
        h.put(name, value);
        return new Req(client, host, port, method, h);
    }

    @Override
    public String header(String name) {
        if (headers instanceof TreeMap<String, String> t) {
            return t.get(name);
        }
        return null;
    }
}
