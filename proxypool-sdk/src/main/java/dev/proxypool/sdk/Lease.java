package dev.proxypool.sdk;

import dev.proxypool.core.capacity.HeldUnit;
import dev.proxypool.core.capacity.Reservation;
import dev.proxypool.core.health.Admission;
import dev.proxypool.core.health.FailureEffect;
import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.health.ProxyHealth;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.snapshot.PoolSnapshot;
import dev.proxypool.core.sticky.SessionKey;
import dev.proxypool.core.sticky.StickyDispatch;
import dev.proxypool.core.sticky.StickyPick;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.credentials.CredentialsUnavailableException;
import dev.proxypool.sdk.internal.ProxyPoolInternals;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import javax.net.ssl.SSLException;

/**
 * One proxy's capacity, held for one request or tunnel (docs/design.md#capacity C2, #sticky-sessions S3, #gateway-flow G8). Report the outcome
 * once — {@link #succeeded}, {@link #failed} — and always {@link #close()} (try-with-resources):
 * close releases the capacity exactly once, also when the caller forgets to report or reports
 * twice. A destination's 403/429/captcha is not a failure: call {@link #banned(String)}.
 *
 * <p>Thread-safety: the outcome and the release are CAS-guarded; a lease may be closed from any
 * thread, any number of times.
 *
 * <p>The lease holds its unit of capacity itself ({@link HeldUnit}): the pick reserves the unit in
 * a reusable result and the lease takes it over, so a lease is the one object an acquire allocates
 * for it (besides the answer that carries it).
 */
public final class Lease extends HeldUnit implements AutoCloseable {

    private static final VarHandle REPORTED;

    static {
        try {
            REPORTED = MethodHandles.lookup().findVarHandle(Lease.class, "reported", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        ProxyPoolInternals.register(Lease::new);
    }

    private final Proxy proxy;
    private final String routing;
    private final Admission admission;
    private final ProxyHealth health;
    private final Ticker ticker;
    private final int attempt;
    private final StickyDispatch sticky;
    private final SessionKey session;
    private final StickyPick stickyPick;
    private final PoolSnapshot snapshot;

    @SuppressWarnings("unused") // through REPORTED
    private volatile boolean reported;

    Lease(
            Proxy proxy,
            String routing,
            Reservation reservation,
            Admission admission,
            ProxyHealth health,
            Ticker ticker,
            int attempt,
            StickyDispatch sticky,
            SessionKey session,
            StickyPick stickyPick,
            PoolSnapshot snapshot) {
        super(null);
        takeUnitFrom(reservation); // the unit moves here: the reservation ends without giving it back
        this.proxy = proxy;
        this.routing = routing;
        this.admission = admission;
        this.health = health;
        this.ticker = ticker;
        this.attempt = attempt;
        this.sticky = sticky;
        this.session = session;
        this.stickyPick = stickyPick;
        this.snapshot = snapshot;
    }

    /**
     * The leased proxy (its address is for dialing only: never log it unmasked).
     *
     * @return the proxy
     */
    public Proxy proxy() {
        return proxy;
    }

    /**
     * The opaque id that goes out in {@code X-ProxyPool-Proxy}.
     *
     * @return the proxy's id
     */
    public String proxyId() {
        return proxy.id();
    }

    /**
     * The upstream (provider source) the proxy came from.
     *
     * @return the upstream's name
     */
    public String upstream() {
        return proxy.upstream();
    }

    /**
     * The routing that chose the proxy.
     *
     * @return the routing's name
     */
    public String routing() {
        return routing;
    }

    /**
     * 1 for the first attempt of a request, 2 for its first retry, ...
     *
     * @return the attempt number
     */
    public int attempt() {
        return attempt;
    }

    /**
     * Whether this lease is the single recovery probe of a cooled proxy.
     *
     * @return true for a probe
     */
    public boolean isProbe() {
        return admission == Admission.PROBE;
    }

    /**
     * Remaining life of the proxy at this moment.
     *
     * @return the remaining lifetime; {@code Duration.ZERO} once expired, very long for a proxy that never expires
     */
    public Duration remainingTtl() {
        long slot = snapshot.slotOf(proxy.id());
        if (slot < 0) {
            return Duration.ZERO;
        }
        long deadline = snapshot.deadlineNanos((int) slot);
        if (deadline == PoolSnapshot.NO_DEADLINE) {
            return Duration.ofSeconds(Long.MAX_VALUE / 4);
        }
        return Duration.ofNanos(Math.max(0, deadline - ticker.read()));
    }

    /** The upstream connection is up: capacity becomes active and a sticky session binds to this proxy. */
    public void connected() {
        activateUnit();
        if (sticky != null && session != null) {
            sticky.connected(session, stickyPick, snapshot, ticker.read());
        }
    }

    /**
     * The request/tunnel through this proxy worked; feeds latency and health.
     *
     * @param latency how long the attempt took
     */
    public void succeeded(Duration latency) {
        if (REPORTED.compareAndSet(this, false, true)) {
            health.recordSuccess(admission, Math.max(0, latency.toNanos()), ticker.read());
            if (sticky != null && session != null) {
                sticky.succeeded(session, proxy.id());
            }
        }
    }

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
    public void failed(Throwable cause) {
        failed(kindOf(Objects.requireNonNull(cause, "cause")), null);
    }

    /**
     * The failure kind {@link #failed(Throwable)} reports for {@code cause}.
     *
     * @param cause what an attempt threw
     * @return its kind
     */
    static FailureKind kindOf(Throwable cause) {
        if (has(cause, CredentialsUnavailableException.class)) {
            return FailureKind.PROXY_AUTH_REJECTED;
        }
        if (has(cause, HttpConnectTimeoutException.class) || has(cause, SocketTimeoutException.class)) {
            return FailureKind.CONNECT_TIMEOUT;
        }
        if (has(cause, HttpTimeoutException.class)) {
            return FailureKind.SLOW_BODY;
        }
        if (has(cause, ConnectException.class)
                || has(cause, NoRouteToHostException.class)
                || has(cause, UnknownHostException.class)) {
            return FailureKind.CONNECTION_REFUSED;
        }
        if (has(cause, SSLException.class)) {
            return FailureKind.TLS_FAILURE;
        }
        if (has(cause, ProtocolException.class)) {
            return FailureKind.PROTOCOL_ERROR;
        }
        return FailureKind.CONNECTION_RESET;
    }

    private static boolean has(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Reaching or speaking to the proxy failed; counts toward moving a sticky session off the proxy
     * (docs/design.md#sticky-sessions, S8).
     *
     * @param kind what failed
     */
    public void failed(FailureKind kind) {
        failed(kind, null);
    }

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
    public void failed(FailureKind kind, String destination) {
        if (REPORTED.compareAndSet(this, false, true)) {
            health.recordFailure(admission, kind, destination, ticker.read());
            if (sticky != null && session != null && FailureEffect.of(kind) != FailureEffect.TARGET_SIDE) {
                sticky.failed(session, proxy.id());
            }
        }
    }

    /**
     * The destination refused traffic through this (working) proxy: exclude it for {@code domain}
     * for the ban period; it stays healthy for every other destination.
     *
     * @param domain the destination's domain; blank is ignored
     */
    public void banned(String domain) {
        if (domain != null && !domain.isBlank()) {
            health.banDomain(domain.trim().toLowerCase(Locale.ROOT), ticker.read());
        }
    }

    /** Releases the capacity (exactly once, whatever happened before). */
    @Override
    public void close() {
        endUnit(false);
    }

    /**
     * Whether the capacity is still held.
     *
     * @return true until {@link #close()}
     */
    public boolean isHeld() {
        return holdsUnit();
    }

    /**
     * The proxy's opaque id, upstream, routing and attempt; never its address.
     *
     * @return a description safe for logs
     */
    @Override
    public String toString() {
        return "Lease[" + proxy.id() + " upstream=" + proxy.upstream() + " routing=" + routing + " attempt=" + attempt
                + "]";
    }
}
