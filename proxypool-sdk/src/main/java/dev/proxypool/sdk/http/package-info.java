/**
 * Adapters that plug a {@link dev.proxypool.sdk.Lease} into HTTP clients: the JDK
 * {@link java.net.http.HttpClient} ({@link dev.proxypool.sdk.http.LeaseHttp}) and Helidon WebClient
 * ({@link dev.proxypool.sdk.http.LeaseWebClient}), with the proxy's credentials taken from the
 * credential store when asked for. They only route and authenticate; they must not report outcomes
 * or close the lease for the caller.
 */
package dev.proxypool.sdk.http;
