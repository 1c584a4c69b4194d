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
 * The JDK client speaks HTTP proxies only (no SOCKS): a SOCKS lease is refused here.
 *
 * <p>HTTPS through a proxy that needs Basic auth (a ProxyPool gateway with clients, most vendors):
 * the JDK refuses to send Basic on a {@code CONNECT} tunnel while
 * {@code jdk.http.auth.tunneling.disabledSchemes} names it, which its {@code net.properties} does by
 * default, so every HTTPS request through such a proxy ends in {@code 407}. The JDK reads the property
 * once, when its HTTP client first initialises. This class therefore clears it (sets it empty) when
 * the application has not set it, at class initialisation, which {@code ProxyPool} triggers when it
 * is loaded, before the application's first request in the usual order. An application that sets
 * the property itself keeps its value (a warning says when that value still disables Basic). To be
 * independent of load order, start the JVM with {@code -Djdk.http.auth.tunneling.disabledSchemes=}.
 */
public final class LeaseHttp {

    /** The JDK property naming the proxy auth schemes it refuses on {@code CONNECT} tunnels. */
    public static final String TUNNELING_DISABLED_SCHEMES = "jdk.http.auth.tunneling.disabledSchemes";

    private static final System.Logger LOG = System.getLogger(LeaseHttp.class.getName());

    static {
        allowBasicOnTunnels();
    }

    private LeaseHttp() {}

    /**
     * Lets the JDK's HTTP clients answer a proxy's Basic challenge on {@code CONNECT} (HTTPS through
     * the proxy): clears {@value #TUNNELING_DISABLED_SCHEMES} unless the application set it. Idempotent;
     * it takes effect if it runs before the JDK's HTTP client is first used in this JVM.
     *
     * @return whether Basic is allowed on tunnels as far as the property says
     */
    public static synchronized boolean allowBasicOnTunnels() {
        String value = System.getProperty(TUNNELING_DISABLED_SCHEMES);
        if (value == null) {
            System.setProperty(TUNNELING_DISABLED_SCHEMES, "");
            return true;
        }
        for (String scheme : value.split(",")) {
            if (scheme.strip().equalsIgnoreCase("Basic")) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        TUNNELING_DISABLED_SCHEMES + " disables Basic: HTTPS through a proxy that needs"
                                + " credentials will answer 407 (set it empty to allow Basic on CONNECT)");
                return false;
            }
        }
        return true;
    }

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
        allowBasicOnTunnels();
        HttpClient.Builder b = HttpClient.newBuilder().proxy(proxySelector(lease));
        Authenticator auth = authenticator(lease, store);
        if (auth != null) {
            b.authenticator(auth);
        }
        return b;
    }
}
