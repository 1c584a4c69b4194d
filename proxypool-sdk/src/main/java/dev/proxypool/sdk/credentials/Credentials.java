package dev.proxypool.sdk.credentials;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A username and password for one upstream proxy. {@link #toString()} shows neither (a username
 * often names the customer account at a commercial provider).
 *
 * @param username non-empty; without {@code ':'} (HTTP Basic cannot carry it)
 * @param password possibly empty (some providers authenticate by username alone)
 */
public record Credentials(String username, Secret password) {

    public Credentials {
        if (username == null || username.isEmpty()) {
            throw new IllegalArgumentException("credentials username must not be empty");
        }
        if (username.indexOf(':') >= 0) {
            throw new IllegalArgumentException("credentials username must not contain ':' (HTTP Basic cannot carry it)");
        }
        if (username.chars().anyMatch(c -> c < 0x20 || c == 0x7F)) {
            throw new IllegalArgumentException("credentials username must not contain control characters");
        }
        if (password == null) {
            throw new IllegalArgumentException("credentials password must not be null (use Secret.EMPTY)");
        }
    }

    public static Credentials of(String username, String password) {
        return new Credentials(username, Secret.of(password));
    }

    /** The {@code Proxy-Authorization} value for HTTP Basic: {@code Basic base64(user:password)}. */
    public Secret basicAuthorization() {
        String pair = username + ":" + password.reveal();
        return Secret.of("Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public String toString() {
        return "Credentials[***]";
    }
}
