package dev.proxypool.sdk;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.Proxy;
import java.time.Duration;

/**
 * One proxy's capacity, held for one request or tunnel (docs/design.md#capacity C2, #sticky-sessions S3, #gateway-flow G8). Report the outcome
 * once — {@link #succeeded}, {@link #failed} — and always {@link #close()} (try-with-resources):
 * close releases the capacity exactly once, also when the caller forgets to report or reports
 * twice. A destination's 403/429/captcha is not a failure: call {@link #banned(String)}.
 *
 * <p>Thread-safety: the outcome and the release are CAS-guarded; a lease may be closed from any
 * thread, any number of times. Leases come from {@link ProxyPool#acquire}; the pool's engine
 * implements this interface.
 */
public interface Lease extends AutoCloseable {

    /**
     * The leased proxy (its address is for dialing only: never log it unmasked).
     *
     * @return the proxy
     */
    Proxy proxy();

    /**
     * The opaque id that goes out in {@code X-ProxyPool-Proxy}.
     *
     * @return the proxy's id
     */
    String proxyId();

    /**
     * The upstream (provider source) the proxy came from.
     *
     * @return the upstream's name
     */
    String upstream();

    /**
     * The routing that chose the proxy.
     *
     * @return the routing's name
     */
    String routing();

    /**
     * 1 for the first attempt of a request, 2 for its first retry, ...
     *
     * @return the attempt number
     */
    int attempt();

    /**
     * Whether this lease is the single recovery probe of a cooled proxy.
     *
     * @return true for a probe
     */
    boolean isProbe();

    /**
     * Remaining life of the proxy at this moment.
     *
     * @return the remaining lifetime; {@code Duration.ZERO} once expired, very long for a proxy that never expires
     */
    Duration remainingTtl();

    /** The upstream connection is up: capacity becomes active and a sticky session binds to this proxy. */
    void connected();

    /**
     * The request/tunnel through this proxy worked; feeds latency and health.
     *
     * @param latency how long the attempt took
     */
    void succeeded(Duration latency);

    /**
     * Reaching or speaking to the proxy failed with {@code cause} (what the HTTP client or socket
     * threw); counts toward moving a sticky session off the proxy. The failure kind health needs is read from the cause chain:
     * unavailable credentials (a {@link ProxyPoolException} of {@link ProxyPool#httpClientBuilder})
     * count as {@link FailureKind#PROXY_AUTH_REJECTED}, a connect timeout as
     * {@link FailureKind#CONNECT_TIMEOUT}, a refused or unroutable connection as
     * {@link FailureKind#CONNECTION_REFUSED}, a TLS failure as {@link FailureKind#TLS_FAILURE}, a
     * response timeout as {@link FailureKind#SLOW_BODY}, a malformed answer as
     * {@link FailureKind#PROTOCOL_ERROR}, anything else (a reset or closed connection) as
     * {@link FailureKind#CONNECTION_RESET}.
     *
     * @param cause what the attempt threw
     */
    void failed(Throwable cause);

    /**
     * Reaching or speaking to the proxy failed; counts toward moving a sticky session off the proxy
     * (docs/design.md#sticky-sessions, S8).
     *
     * @param kind what failed
     */
    void failed(FailureKind kind);

    /**
     * The attempt to {@code destination} failed with {@code kind}. A sticky session moves off the
     * proxy after {@code sticky.switchFailures} such failures in a row or {@code sticky.switchErrorRate}
     * of its recent requests (a target-side kind counts toward neither: the destination failed, not
     * the proxy), or at once when the proxy leaves the pool (docs/design.md#sticky-sessions, S8). Give the
     * destination whenever it is known: a target-side kind ({@link FailureKind#UPSTREAM_UNREACHABLE})
     * is judged per destination, and without one every such failure counts as a different destination.
     *
     * @param kind        what failed
     * @param destination the destination host, or null when unknown
     */
    void failed(FailureKind kind, String destination);

    /**
     * The destination refused traffic through this (working) proxy: exclude it for {@code domain}
     * for the ban period; it stays healthy for every other destination.
     *
     * @param domain the destination's domain; blank is ignored
     */
    void banned(String domain);

    /** Releases the capacity (exactly once, whatever happened before). */
    @Override
    void close();

    /**
     * Whether the capacity is still held.
     *
     * @return true until {@link #close()}
     */
    boolean isHeld();
}
