package dev.proxypool.server.gateway;

import dev.proxypool.core.health.FailureKind;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An engine that connects straight to the target: every request is one attempt on the pseudo
 * proxy "direct". For tests of the wire layer and the load harness's {@code --direct} gateway. It performs no
 * destination check: test code only, never beyond loopback.
 */
public final class DirectEngine implements GatewayEngine {

    private final int connectTimeoutMillis;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger attempts = new AtomicInteger();

    public DirectEngine(int connectTimeoutMillis) {
        if (connectTimeoutMillis <= 0) {
            throw new IllegalArgumentException("connectTimeoutMillis must be positive, got " + connectTimeoutMillis);
        }
        this.connectTimeoutMillis = connectTimeoutMillis;
    }

    public DirectEngine() {
        this(5_000);
    }

    @Override
    public RouteDecision route(RouteRequest request) {
        inFlight.incrementAndGet();
        attempts.incrementAndGet();
        return new Attempt(request.host(), request.port());
    }

    @Override
    public int inFlight() {
        return inFlight.get();
    }

    /** Attempts routed since start. */
    public int attempts() {
        return attempts.get();
    }

    private final class Attempt implements UpstreamAttempt {
        private final String host;
        private final int port;
        private final AtomicBoolean done = new AtomicBoolean();

        Attempt(String host, int port) {
            this.host = host;
            this.port = port;
        }

        @Override
        public String proxyId() {
            return "direct";
        }

        @Override
        public String upstream() {
            return "direct";
        }

        @Override
        public String routing() {
            return "direct";
        }

        @Override
        public UpstreamDial dial() throws UpstreamDialException {
            InetSocketAddress a = new InetSocketAddress(host, port); // may look up: dialBlocks() is true
            if (a.isUnresolved()) {
                throw new UpstreamDialException(FailureKind.UPSTREAM_UNREACHABLE, "destination did not resolve");
            }
            return UpstreamDial.direct(a, connectTimeoutMillis);
        }

        @Override
        public void complete(AttemptOutcome outcome) {
            if (done.compareAndSet(false, true)) {
                inFlight.decrementAndGet();
            }
        }
    }
}
