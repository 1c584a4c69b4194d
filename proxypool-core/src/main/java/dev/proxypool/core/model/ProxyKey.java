package dev.proxypool.core.model;

import java.util.Locale;

/**
 * The dedupe identity of a proxy: (protocol, host, port, credentialRef). Two candidates with the
 * same key are the same proxy whatever source listed them. Host is normalized to lower case.
 *
 * @param protocol      the protocol spoken to the proxy; not null
 * @param host          host name or IP address; trimmed, lower-cased, IPv6 brackets removed
 * @param port          TCP port, 1..65535
 * @param credentialRef the credentials' reference; null becomes {@link CredentialRef#NONE}
 */
public record ProxyKey(Protocol protocol, String host, int port, CredentialRef credentialRef) {

    /**
     * Validates and normalizes the key.
     *
     * @throws IllegalArgumentException if the protocol or host is missing, the host contains
     *     whitespace, '/' or '@', or the port is out of range
     */
    public ProxyKey {
        if (protocol == null) {
            throw new IllegalArgumentException("protocol is missing");
        }
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host is missing");
        }
        host = host.trim().toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isEmpty() || host.chars().anyMatch(c -> c <= ' ' || c == '/' || c == '@')) {
            throw new IllegalArgumentException("host '" + host + "' is not a valid host name or address");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range 1..65535");
        }
        if (credentialRef == null) {
            credentialRef = CredentialRef.NONE;
        }
    }

    /**
     * The address to connect to. Unmasked: never for logs (see {@link AddressMask}).
     *
     * @return {@code host:port}, with IPv6 hosts in brackets
     */
    public String authority() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    @Override
    public String toString() {
        return protocol + "://" + AddressMask.mask(host) + ":" + port;
    }
}
