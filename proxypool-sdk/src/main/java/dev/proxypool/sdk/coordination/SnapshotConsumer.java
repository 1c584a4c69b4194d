package dev.proxypool.sdk.coordination;

/**
 * Receives every complete content a {@link SnapshotSubscriber} reaches, in version order, one call
 * at a time on the subscriber's thread. A worker wires it to its engine:
 * {@code snapshot -> engine.refresh(snapshot.proxies())}. An exception is logged and does not stop
 * the subscriber (the next version is delivered as usual).
 */
@FunctionalInterface
public interface SnapshotConsumer {

    void accept(ReceivedSnapshot snapshot);
}
