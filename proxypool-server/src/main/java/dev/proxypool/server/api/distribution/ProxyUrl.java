package dev.proxypool.server.api.distribution;

import dev.proxypool.core.model.CredentialRef;
import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.credentials.CredentialStore;
import dev.proxypool.sdk.credentials.Credentials;
import dev.proxypool.sdk.credentials.CredentialsUnavailableException;

/**
 * Builds the URL an extraction hands out: {@code scheme://user:pass@host:port}, the scheme being
 * the protocol's wire name ({@code http}, {@code https}, {@code socks4}, {@code socks5}), an IPv6
 * host in brackets. User and password are percent-encoded (RFC 3986 userinfo): every byte of their
 * UTF-8 form except the unreserved characters {@code A-Z a-z 0-9 - . _ ~}, so {@code :}, {@code @},
 * {@code /}, {@code %} and spaces in a secret can never change how the URL parses.
 */
public final class ProxyUrl {

    private ProxyUrl() {}

    /** Without credentials: the proxy needs none. */
    public static String of(ProxyKey key) {
        return key.protocol().wireName() + "://" + key.authority();
    }

    /** With the credentials as percent-encoded userinfo ({@link Credentials#userInfo()}). */
    public static String of(ProxyKey key, Credentials credentials) {
        return key.protocol().wireName() + "://" + credentials.userInfo() + "@" + key.authority();
    }

    private static final String PLACEHOLDER_START = "{{credential:";
    private static final String PLACEHOLDER_END = "}}@";

    /**
     * The URL as an idempotency record keeps it: the credentials replaced by a reference to them,
     * {@code http://{{credential:vendor-a}}@203.0.113.7:8000}. Braces cannot occur in a real URL's
     * userinfo (they are percent-encoded), so the placeholder is unambiguous.
     */
    static String placeholder(ProxyKey key, CredentialRef ref) {
        return key.protocol().wireName() + "://" + PLACEHOLDER_START + ref.name() + PLACEHOLDER_END + key.authority();
    }

    /** Puts the current credentials back into every placeholder of a stored response body. */
    static String restoreCredentials(String body, CredentialStore store) throws CredentialsUnavailableException {
        int at = body.indexOf(PLACEHOLDER_START);
        if (at < 0) {
            return body;
        }
        StringBuilder sb = new StringBuilder(body.length() + 64);
        int from = 0;
        while (at >= 0) {
            int end = body.indexOf(PLACEHOLDER_END, at);
            if (end < 0) {
                break;
            }
            String ref = body.substring(at + PLACEHOLDER_START.length(), end);
            Credentials c = store.resolve(CredentialRef.of(ref));
            sb.append(body, from, at).append(c.userInfo()).append('@');
            from = end + PLACEHOLDER_END.length();
            at = body.indexOf(PLACEHOLDER_START, from);
        }
        return sb.append(body, from, body.length()).toString();
    }
}
