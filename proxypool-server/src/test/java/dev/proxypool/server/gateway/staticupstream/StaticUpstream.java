package dev.proxypool.server.gateway.staticupstream;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * One fixed upstream HTTP proxy. {@code toString} shows the id only: never the address or secret.
 *
 * @param id       opaque id reported in {@code X-ProxyPool-Proxy}
 * @param host     proxy host
 * @param port     proxy port
 * @param username proxy username, or {@code null} for none
 * @param password proxy password, or {@code null}
 */
public record StaticUpstream(String id, String host, int port, String username, String password) {

    public StaticUpstream {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("upstream.id must not be blank");
        }
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("upstream.host must not be blank (upstream " + id + ")");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(
                    "upstream.port must be 1..65535, got " + port + " (upstream " + id + ")");
        }
    }

    public static StaticUpstream of(String id, String host, int port) {
        return new StaticUpstream(id, host, port, null, null);
    }

    /** The {@code Proxy-Authorization} value, or {@code null} without credentials. */
    String authorization() {
        if (username == null) {
            return null;
        }
        String pair = username + ":" + (password == null ? "" : password);
        return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "StaticUpstream[" + id + "]";
    }
}
