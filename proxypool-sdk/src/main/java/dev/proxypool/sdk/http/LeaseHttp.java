package dev.proxypool.sdk.http;

import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.credentials.CredentialStore;
import dev.proxypool.sdk.credentials.Credentials;
import dev.proxypool.sdk.credentials.CredentialsUnavailableException;
import java.net.Authenticator;
import java.net.InetSocketAddress;
import java.net.PasswordAuthentication;
import java.net.ProxySelector;
import java.net.http.HttpClient;

/**
 * Plugs a {@link Lease} into {@link java.net.http.HttpClient}: a {@link ProxySelector} that
 * always answers the leased proxy and an {@link Authenticator} that answers its credentials from
 * the credential store, for proxy challenges only.
 *
 * <pre>{@code
 * try (Lease lease = pool.acquire(Selection.forHost("shop.example").session("s1"))) {
 *     HttpClient client = LeaseHttp.clientBuilder(lease, credentials).build();
 *     HttpResponse<String> r = client.send(request, BodyHandlers.ofString());
 *     lease.succeeded(elapsed);
 * }
 * }</pre>
 *
 * The JDK client speaks HTTP proxies only (no SOCKS): a SOCKS lease is refused here. For HTTPS
 * targets through a proxy that needs Basic auth, the JDK must be allowed to send Basic on tunnels:
 * run with {@code -Djdk.http.auth.tunneling.disabledSchemes=} (empty; the JDK disables it by default).
 */
public final class LeaseHttp {

    private LeaseHttp() {}

    /**
     * A selector that routes every request through the leased proxy.
     *
     * @param lease the lease
     * @return the selector
     */
    public static ProxySelector proxySelector(Lease lease) {
        Proxy p = lease.proxy();
        if (p.protocol() != Protocol.HTTP) {
            throw new IllegalArgumentException("java.net.http.HttpClient supports HTTP proxies only; lease "
                    + lease.proxyId() + " is " + p.protocol().wireName());
        }
        return ProxySelector.of(InetSocketAddress.createUnresolved(p.host(), p.port()));
    }

    /**
     * Answers proxy authentication challenges with the lease's credentials; never answers a
     * server's own challenge. A proxy without a credentialRef gets no credentials.
     *
     * @param lease the lease
     * @param store where the proxy's credentials are resolved
     * @return the authenticator
     * @throws CredentialsUnavailableException when the proxy names credentials the store lacks (fail closed)
     */
    public static Authenticator authenticator(Lease lease, CredentialStore store)
            throws CredentialsUnavailableException {
        Proxy p = lease.proxy();
        if (!p.credentialRef().isPresent()) {
            return null;
        }
        Credentials c = store.resolve(p.credentialRef());
        return new Authenticator() {
            @Override
            protected PasswordAuthentication getPasswordAuthentication() {
                if (getRequestorType() != RequestorType.PROXY) {
                    return null;
                }
                return new PasswordAuthentication(c.username(), c.password().revealChars());
            }
        };
    }

    /**
     * A client builder wired to the lease (proxy and, when needed, proxy credentials).
     *
     * @param lease the lease
     * @param store where the proxy's credentials are resolved
     * @return the client builder
     * @throws CredentialsUnavailableException when the proxy names credentials the store lacks (fail closed)
     */
    public static HttpClient.Builder clientBuilder(Lease lease, CredentialStore store)
            throws CredentialsUnavailableException {
        HttpClient.Builder b = HttpClient.newBuilder().proxy(proxySelector(lease));
        Authenticator auth = authenticator(lease, store);
        if (auth != null) {
            b.authenticator(auth);
        }
        return b;
    }
}
