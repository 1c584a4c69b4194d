package dev.proxypool.server.gateway;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * The gateway's access check on {@code Proxy-Authorization}. The server wires the real client
 * store (hashed secrets); {@link #basic(Map)} checks a fixed map for tests and the load harness,
 * and {@link #anonymous()} lets everyone in as "anonymous".
 */
@FunctionalInterface
public interface ProxyAuthenticator {

    /**
     * @param proxyAuthorization the header value, or {@code null} when absent
     * @return the client name, or {@code null} for missing or wrong credentials (answered with 407)
     */
    String authenticate(String proxyAuthorization);

    static ProxyAuthenticator anonymous() {
        return header -> "anonymous";
    }

    /**
     * {@code Basic} credentials checked against a fixed name-to-secret map, in constant time per
     * secret. The username may carry commercial-style options ({@code alice-session-abc}); only
     * an exact name matches here.
     */
    static ProxyAuthenticator basic(Map<String, String> secrets) {
        Map<String, byte[]> copy = new HashMap<>();
        secrets.forEach((k, v) -> copy.put(k, v.getBytes(StandardCharsets.UTF_8)));
        return header -> {
            if (header == null || header.length() < 7 || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
                return null;
            }
            String decoded;
            try {
                decoded = new String(
                        Base64.getDecoder().decode(header.substring(6).strip()), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return null;
            }
            int colon = decoded.indexOf(':');
            if (colon <= 0) {
                return null;
            }
            String name = decoded.substring(0, colon);
            byte[] expected = copy.get(name);
            byte[] given = decoded.substring(colon + 1).getBytes(StandardCharsets.UTF_8);
            return expected != null && MessageDigest.isEqual(expected, given) ? name : null;
        };
    }
}
