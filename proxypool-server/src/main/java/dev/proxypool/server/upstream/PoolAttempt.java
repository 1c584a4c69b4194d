package dev.proxypool.server.upstream;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.core.model.Protocol;
import dev.proxypool.core.model.Proxy;
import dev.proxypool.core.time.Ticker;
import dev.proxypool.sdk.Lease;
import dev.proxypool.sdk.credentials.Secret;
import dev.proxypool.sdk.dial.DialException;
import dev.proxypool.sdk.dial.DialPolicy;
import dev.proxypool.sdk.dial.UpstreamDialer;
import dev.proxypool.sdk.dial.UpstreamHandshake;
import dev.proxypool.server.gateway.AttemptOutcome;
import dev.proxypool.server.gateway.RouteRefusedException;
import dev.proxypool.server.gateway.RouteRequest;
import dev.proxypool.server.gateway.UpstreamAttempt;
import dev.proxypool.server.gateway.UpstreamDial;
import dev.proxypool.server.gateway.UpstreamDialException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;

/**
 * One try through one leased proxy. Plain HTTP through an HTTP(S) proxy is forwarded in absolute
 * form over a pooled keep-alive link (the proxy's {@code Proxy-Authorization} injected per
 * request); CONNECT, and anything through SOCKS, goes through a fresh tunnel. {@link #complete}
 * reports to health exactly once, with the target host (a target-side failure is judged per
 * destination), and releases the lease: a destination's 403/429, or the proxy's policy refusing a
 * tunnel to it, bans the proxy for that domain only, as soon as it is known ({@link #answered}),
 * before the client sees it.
 */
final class PoolAttempt implements UpstreamAttempt {

    private final Lease lease;
    private final RouteRequest request;
    private final UpstreamDialer dialer;
    private final PoolGatewayEngine owner;
    private final Ticker ticker;
    private final long startNanos;
    private final AtomicBoolean done = new AtomicBoolean();
    private final AtomicBoolean banned = new AtomicBoolean();
    private volatile long dialNanos = -1;
    private final String consumedHeader;
    /** The checked address to send instead of the request's host ({@code resolveDestinations}), or null. */
    private volatile InetAddress resolved;
    /** The engine left the destination's lookup to {@link #dial} (routed on an event loop). */
    private volatile boolean lookUpLater;

    PoolAttempt(
            Lease lease,
            RouteRequest request,
            InetAddress resolved,
            boolean lookUpLater,
            UpstreamDialer dialer,
            PoolGatewayEngine owner,
            Ticker ticker,
            String consumedHeader) {
        this.consumedHeader = consumedHeader;
        this.resolved = resolved;
        this.lookUpLater = lookUpLater;
        this.lease = lease;
        this.request = request;
        this.dialer = dialer;
        this.owner = owner;
        this.ticker = ticker;
        this.startNanos = ticker.read();
    }

    @Override
    public String proxyId() {
        return lease.proxyId();
    }

    @Override
    public String upstream() {
        return lease.upstream();
    }

    @Override
    public String consumedHeader() {
        return consumedHeader;
    }

    @Override
    public String routing() {
        return lease.routing();
    }

    @Override
    public InetAddress resolvedTarget() {
        return resolved;
    }

    @Override
    public boolean dialBlocks() {
        return lookUpLater || !UpstreamDial.isAddressLiteral(lease.proxy().host());
    }

    /** The destination's lookup {@link PoolGatewayEngine#routeWithoutLookup} left here, once. */
    private void lookUpIfLeft() throws RouteRefusedException {
        if (lookUpLater) {
            resolved = owner.lookUp(request, lease.routing(), false);
            lookUpLater = false;
        }
    }

    @Override
    public UpstreamDial dial() throws IOException {
        lookUpIfLeft();
        Proxy p = lease.proxy();
        boolean https = p.protocol() == Protocol.HTTPS;
        boolean forward = !request.tunnel() && (p.protocol() == Protocol.HTTP || https);
        InetSocketAddress address;
        if (UpstreamDial.isAddressLiteral(p.host())) {
            try { // no lookup: an event loop may be calling (dialBlocks() said false)
                address = new InetSocketAddress(InetAddress.ofLiteral(p.host()), p.port());
            } catch (IllegalArgumentException e) {
                throw new UpstreamDialException(FailureKind.UPSTREAM_UNREACHABLE, "proxy address is not an address");
            }
        } else {
            address = new InetSocketAddress(p.host(), p.port()); // off the loop: may resolve
        }
        if (address.isUnresolved()) {
            throw new UpstreamDialException(FailureKind.UPSTREAM_UNREACHABLE, "proxy host did not resolve");
        }
        DialPolicy policy = dialer.policy();
        int connectMillis = (int) Math.max(1, policy.connectTimeout().toMillis());
        SSLContext tls = https ? dialer.proxyTls() : null;
        try {
            if (forward) {
                Secret auth = dialer.forwardingAuthorization(p);
                return new UpstreamDial(
                                address,
                                connectMillis,
                                UpstreamDial.Mode.FORWARD,
                                auth.isEmpty()
                                        ? null
                                        : new UpstreamDial.InjectedHeader("Proxy-Authorization", auth.reveal()),
                                p.id())
                        .withTls(tls, p.host());
            }
            UpstreamHandshake h =
                    dialer.handshake(p, resolved == null ? request.host() : resolved.getHostAddress(), request.port());
            return new UpstreamDial(address, connectMillis, UpstreamDial.Mode.TUNNEL, null, null)
                    .withHandshake(
                            h, (int) Math.max(1, policy.handshakeTimeout().toMillis()))
                    .withTls(tls, p.host());
        } catch (DialException e) {
            throw new UpstreamDialException(e.kind(), e.getMessage());
        }
    }

    @Override
    public void connected(long nanos) {
        dialNanos = nanos;
        lease.connected();
    }

    @Override
    public void answered(int status) {
        if ((status == 403 || status == 429) && banned.compareAndSet(false, true)) {
            lease.banned(request.host());
        }
    }

    @Override
    public void complete(AttemptOutcome outcome) {
        if (!done.compareAndSet(false, true)) {
            return;
        }
        try {
            switch (outcome) {
                case AttemptOutcome.Success ok -> {
                    // Tunnels carry opaque bytes for their whole life: their dial is the proxy's latency.
                    long latency = request.tunnel() && dialNanos >= 0 ? dialNanos : ticker.read() - startNanos;
                    lease.succeeded(Duration.ofNanos(latency));
                    answered(ok.status()); // the wire layer usually told us already
                }
                case AttemptOutcome.Failure f -> lease.failed(f.kind(), request.host());
                case AttemptOutcome.Abandoned a -> {
                    // the client left: not the proxy's fault, nothing to report
                }
            }
        } finally {
            lease.close();
            owner.completed();
        }
    }
}
