package dev.proxypool.sdk.http;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.credentials.CredentialStore;
import dev.proxypool.sdk.credentials.Credentials;
import dev.proxypool.sdk.credentials.CredentialsUnavailableException;

/**
 * Plugs a {@link Lease} into Helidon WebClient: the leased proxy as the client's HTTP proxy, with
 * its credentials from the credential store.
 *
 * <pre>{@code
 * try (Lease lease = pool.acquire(Selection.forHost("shop.example"))) {
 *     WebClient client = WebClient.builder().proxy(LeaseWebClient.proxy(lease, pool.credentials())).build();
 *     String body = client.get("http://shop.example/").requestEntity(String.class);
 *     lease.succeeded(elapsed);
 * }
 * }</pre>
 *
 * Helidon WebClient speaks HTTP proxies; a SOCKS lease is refused here.
 */
public final class LeaseWebClient {

    private LeaseWebClient() {}

    /**
     * The Helidon WebClient proxy for the lease: its address and, when needed, its credentials.
     *
     * @param lease the lease (an HTTP or HTTPS proxy)
     * @param store where the proxy's credentials are resolved
     * @return the WebClient proxy
     * @throws CredentialsUnavailableException when the proxy names credentials the store lacks (fail closed)
     * @throws IllegalArgumentException        for a SOCKS lease
     */
    public static io.helidon.webclient.api.Proxy proxy(Lease lease, CredentialStore store)
            throws CredentialsUnavailableException {
        Proxy p = lease.proxy();
        if (p.protocol() != Protocol.HTTP) {
            throw new IllegalArgumentException("Helidon WebClient supports HTTP proxies only; lease " + lease.proxyId()
                    + " is " + p.protocol().wireName());
        }
        io.helidon.webclient.api.Proxy.Builder b = io.helidon.webclient.api.Proxy.builder()
                .type(io.helidon.webclient.api.Proxy.ProxyType.HTTP)
                .host(p.host())
                .port(p.port());
        if (p.credentialRef().isPresent()) {
            Credentials c = store.resolve(p.credentialRef());
            b.username(c.username()).password(c.password().revealChars());
        }
        return b.build();
    }
}
