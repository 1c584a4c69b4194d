package dev.proxypool.server.upstream;

import dev.proxypool.core.health.FailureKind;
import dev.proxypool.server.gateway.AttemptOutcome;
import dev.proxypool.server.gateway.RouteRefusedException;
import dev.proxypool.server.gateway.RouteRequest;
import dev.proxypool.server.gateway.UpstreamAttempt;
import dev.proxypool.server.gateway.UpstreamDial;
import dev.proxypool.server.gateway.UpstreamDialException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code onNoCandidate: direct}: the gateway connects to the destination itself. The engine
 * resolved the name once and the destination policy checked every address; this dials the checked
 * address, so a DNS answer cannot change between the check and the connect (no rebinding). A name
 * that did not resolve ({@code address == null}) fails as an unreachable upstream.
 */
final class DirectAttempt implements UpstreamAttempt {

    static final String DIRECT = "direct";
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;

    private final String routing;
    private final RouteRequest request;
    private volatile InetAddress address;
    /** The engine left the destination's lookup to {@link #dial} (routed on an event loop). */
    private volatile boolean lookUpLater;

    private final PoolGatewayEngine owner;
    private final AtomicBoolean done = new AtomicBoolean();
    private final String consumedHeader;

    DirectAttempt(
            String routing,
            RouteRequest request,
            InetAddress address,
            boolean lookUpLater,
            PoolGatewayEngine owner,
            String consumedHeader) {
        this.lookUpLater = lookUpLater;
        this.consumedHeader = consumedHeader;
        this.routing = routing;
        this.request = request;
        this.address = address;
        this.owner = owner;
    }

    @Override
    public String proxyId() {
        return DIRECT;
    }

    @Override
    public String consumedHeader() {
        return consumedHeader;
    }

    @Override
    public String upstream() {
        return DIRECT;
    }

    @Override
    public String routing() {
        return routing;
    }

    @Override
    public boolean dialBlocks() {
        return lookUpLater;
    }

    /** The lookup {@link PoolGatewayEngine#routeWithoutLookup} left here, once: a name that does not resolve fails later. */
    private void lookUpIfLeft() throws RouteRefusedException {
        if (lookUpLater) {
            address = owner.lookUp(request, routing, true);
            lookUpLater = false;
        }
    }

    @Override
    public UpstreamDial dial() throws IOException {
        lookUpIfLeft(); // else the checked address: no lookup here
        if (address == null) {
            throw new UpstreamDialException(FailureKind.UPSTREAM_UNREACHABLE, "destination did not resolve");
        }
        return UpstreamDial.direct(new InetSocketAddress(address, request.port()), CONNECT_TIMEOUT_MILLIS);
    }

    @Override
    public void complete(AttemptOutcome outcome) {
        if (done.compareAndSet(false, true)) {
            owner.completed();
        }
    }
}
