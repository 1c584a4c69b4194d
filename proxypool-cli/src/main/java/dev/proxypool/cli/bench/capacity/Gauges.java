package dev.proxypool.cli.bench.capacity;

import java.util.concurrent.atomic.AtomicInteger;

/** Client connections and tunnels open through the gateway now, and the peak since the last {@link #resetPeaks()}. */
final class Gauges {

    final AtomicInteger connections = new AtomicInteger();
    final AtomicInteger tunnels = new AtomicInteger();
    final AtomicInteger peakConnections = new AtomicInteger();
    final AtomicInteger peakTunnels = new AtomicInteger();

    void connectionOpened() {
        peakConnections.accumulateAndGet(connections.incrementAndGet(), Math::max);
    }

    void connectionClosed() {
        connections.decrementAndGet();
    }

    void tunnelOpened() {
        peakTunnels.accumulateAndGet(tunnels.incrementAndGet(), Math::max);
    }

    void tunnelClosed() {
        tunnels.decrementAndGet();
    }

    void resetPeaks() {
        peakConnections.set(connections.get());
        peakTunnels.set(tunnels.get());
    }
}
