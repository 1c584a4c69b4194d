package dev.proxypool.server.api.distribution;

import dev.proxypool.core.model.ProxyKey;
import dev.proxypool.sdk.credentials.Credentials;
import java.nio.charset.StandardCharsets;

/**
 * Builds the URL an extraction hands out: {@code scheme://user:pass@host:port}, the scheme being
 * the protocol's wire name ({@code http}, {@code https}, {@code socks4}, {@code socks5}), an IPv6
 * host in brackets. User and password are percent-encoded (RFC 3986 userinfo): every byte of their
 * UTF-8 form except the unreserved characters {@code A-Z a-z 0-9 - . _ ~}, so {@code :}, {@code @},
 * {@code /}, {@code %} and spaces in a secret can never change how the URL parses.
 */
final class ProxyUrl {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private ProxyUrl() {
    }

    /** Without credentials: the proxy needs none. */
    static String of(ProxyKey key) {
        return key.protocol().wireName() + "://" + key.authority();
    }

    static String of(ProxyKey key, Credentials credentials) {
        StringBuilder sb = new StringBuilder(64).append(key.protocol().wireName()).append("://");
        encode(sb, credentials.username());
        if (!credentials.password().isEmpty()) {
            sb.append(':');
            encode(sb, credentials.password().reveal());
        }
        return sb.append('@').append(key.authority()).toString();
    }

    static void encode(StringBuilder sb, String s) {
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '.' || c == '_' || c == '~') {
                sb.append((char) c);
            } else {
                sb.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
    }
}
