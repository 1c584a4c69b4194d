package dev.proxypool.server.fuzz;

import dev.proxypool.server.gateway.AttemptOutcome;
import dev.proxypool.server.gateway.GatewayEngine;
import dev.proxypool.server.gateway.RouteDecision;
import dev.proxypool.server.gateway.RouteRequest;
import dev.proxypool.server.gateway.UpstreamAttempt;
import dev.proxypool.server.gateway.UpstreamDial;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An engine that sends every request, whatever host it names, to one loopback origin: fuzzed
 * requests name arbitrary hosts, and a test talks only to loopback. Counts attempts in flight so a
 * test can prove every attempt was completed.
 */
final class LoopbackEngine implements GatewayEngine {

    private final int port;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger routed = new AtomicInteger();

    LoopbackEngine(int port) {
        this.port = port;
    }

    @Override
    public RouteDecision route(RouteRequest request) {
        inFlight.incrementAndGet();
        routed.incrementAndGet();
        return new Attempt();
    }

    @Override
    public int inFlight() {
        return inFlight.get();
    }

    int routed() {
        return routed.get();
    }

    private final class Attempt implements UpstreamAttempt {
        private final AtomicBoolean done = new AtomicBoolean();

        @Override
        public String proxyId() {
            return "loopback";
        }

        @Override
        public String upstream() {
            return "loopback";
        }

        @Override
        public String routing() {
            return "fuzz";
        }

        @Override
        public UpstreamDial dial() {
            return UpstreamDial.direct(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
        }

        @Override
        public void complete(AttemptOutcome outcome) {
            if (done.compareAndSet(false, true)) {
                inFlight.decrementAndGet();
            }
        }
    }
}
