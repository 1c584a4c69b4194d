package dev.proxypool.sdk.engine;

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
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.credentials.CredentialsUnavailableException;
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
 * The engine's {@link Lease}: one proxy's unit of capacity, held for one request or tunnel.
 *
 * <p>Thread-safety: the outcome and the release are CAS-guarded; a lease may be closed from any
 * thread, any number of times.
 *
 * <p>The lease holds its unit of capacity itself ({@link HeldUnit}): the pick reserves the unit in
 * a reusable result and the lease takes it over, so a lease is the one object an acquire allocates
 * for it (besides the answer that carries it).
 */
public final class EngineLease extends HeldUnit implements Lease {

    private static final VarHandle REPORTED;

    static {
        try {
            REPORTED = MethodHandles.lookup().findVarHandle(EngineLease.class, "reported", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
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

    /**
     * A lease of {@code proxy}'s capacity.
     *
     * @param proxy       the leased proxy
     * @param routing     the routing's name
     * @param reservation the capacity held, RESERVED: the lease takes its unit over (it ends without giving it back)
     * @param admission   the health admission
     * @param health      the proxy's health
     * @param ticker      the monotonic clock
     * @param attempt     1 for a first attempt
     * @param sticky      the routing's sticky dispatch
     * @param session     the sticky session key
     * @param stickyPick  the sticky pick, or null
     * @param snapshot    the snapshot the proxy was picked from
     */
    public EngineLease(
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

    @Override
    public Proxy proxy() {
        return proxy;
    }

    @Override
    public String proxyId() {
        return proxy.id();
    }

    @Override
    public String upstream() {
        return proxy.upstream();
    }

    @Override
    public String routing() {
        return routing;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public boolean isProbe() {
        return admission == Admission.PROBE;
    }

    @Override
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

    @Override
    public void connected() {
        activateUnit();
        if (sticky != null && session != null) {
            sticky.connected(session, stickyPick, snapshot, ticker.read());
        }
    }

    @Override
    public void succeeded(Duration latency) {
        if (REPORTED.compareAndSet(this, false, true)) {
            health.recordSuccess(admission, Math.max(0, latency.toNanos()), ticker.read());
            if (sticky != null && session != null) {
                sticky.succeeded(session, proxy.id());
            }
        }
    }

    @Override
    public void failed(Throwable cause) {
        failed(kindOf(Objects.requireNonNull(cause, "cause")), null);
    }

    /**
     * The failure kind {@link #failed(Throwable)} reports for {@code cause}.
     *
     * @param cause what an attempt threw
     * @return its kind
     */
    public static FailureKind kindOf(Throwable cause) {
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

    @Override
    public void failed(FailureKind kind) {
        failed(kind, null);
    }

    @Override
    public void failed(FailureKind kind, String destination) {
        if (REPORTED.compareAndSet(this, false, true)) {
            health.recordFailure(admission, kind, destination, ticker.read());
            if (sticky != null && session != null && FailureEffect.of(kind) != FailureEffect.TARGET_SIDE) {
                sticky.failed(session, proxy.id());
            }
        }
    }

    @Override
    public void banned(String domain) {
        if (domain != null && !domain.isBlank()) {
            health.banDomain(domain.trim().toLowerCase(Locale.ROOT), ticker.read());
        }
    }

    @Override
    public void close() {
        endUnit(false);
    }

    @Override
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
