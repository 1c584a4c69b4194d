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

    /**
     * What {@link #tryAuthenticate} returns when the check needs a thread that may wait: a password
     * hash to compute (PBKDF2) or a verification slot to wait for. Compared by identity.
     */
    @SuppressWarnings("StringOperationCanBeSimplified") // a distinct instance: no client name is it
    String NEEDS_THREAD = new String("needs a thread");

    /**
     * The same check where it costs no wait, for an event loop: the client name, {@code null} for a
     * 407, or {@link #NEEDS_THREAD} when only {@link #authenticate} on another thread can tell (a
     * secret not yet verified, a failure that must cost what a success costs). Default: {@link
     * #authenticate}, for checks that never wait.
     *
     * @param proxyAuthorization the header value, or {@code null} when absent
     * @return the client name, {@code null}, or {@link #NEEDS_THREAD}
     */
    default String tryAuthenticate(String proxyAuthorization) {
        return authenticate(proxyAuthorization);
    }

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
