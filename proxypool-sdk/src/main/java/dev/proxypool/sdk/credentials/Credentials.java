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

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /**
     * Validates the fields.
     *
     * @throws IllegalArgumentException when the username is empty, contains {@code ':'} or a control
     *         character, or the password is null
     */
    public Credentials {
        if (username == null || username.isEmpty()) {
            throw new IllegalArgumentException("credentials username must not be empty");
        }
        if (username.indexOf(':') >= 0) {
            throw new IllegalArgumentException(
                    "credentials username must not contain ':' (HTTP Basic cannot carry it)");
        }
        if (username.chars().anyMatch(c -> c < 0x20 || c == 0x7F)) {
            throw new IllegalArgumentException("credentials username must not contain control characters");
        }
        if (password == null) {
            throw new IllegalArgumentException("credentials password must not be null (use Secret.EMPTY)");
        }
    }

    /**
     * Credentials from plain strings.
     *
     * @param username the username
     * @param password the password, possibly empty
     * @return the credentials
     * @throws IllegalArgumentException as the canonical constructor
     */
    public static Credentials of(String username, String password) {
        return new Credentials(username, Secret.of(password));
    }

    /**
     * The userinfo of a proxy URL ({@code user:password}, or {@code user} for an empty password),
     * each part percent-encoded as RFC 3986 userinfo: every byte of its UTF-8 form except the
     * unreserved characters {@code A-Z a-z 0-9 - . _ ~}, so {@code :}, {@code @}, {@code /},
     * {@code %} and spaces in a secret can never change how the URL parses. A secret: never log it.
     *
     * @return the encoded userinfo, without the trailing {@code @}
     */
    public String userInfo() {
        StringBuilder sb = new StringBuilder(32);
        encode(sb, username);
        if (!password.isEmpty()) {
            sb.append(':');
            encode(sb, password.reveal());
        }
        return sb.toString();
    }

    private static void encode(StringBuilder sb, String s) {
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if ((c >= 'A' && c <= 'Z')
                    || (c >= 'a' && c <= 'z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '.'
                    || c == '_'
                    || c == '~') {
                sb.append((char) c);
            } else {
                sb.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
    }

    /**
     * The {@code Proxy-Authorization} value for HTTP Basic: {@code Basic base64(user:password)}.
     *
     * @return the header value, a secret
     */
    public Secret basicAuthorization() {
        String pair = username + ":" + password.reveal();
        return Secret.of("Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Neither the username nor the password.
     *
     * @return {@code Credentials[***]}
     */
    @Override
    public String toString() {
        return "Credentials[***]";
    }
}
