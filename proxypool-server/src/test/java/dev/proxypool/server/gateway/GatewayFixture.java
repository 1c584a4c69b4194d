package dev.proxypool.server.gateway;

import dev.proxypool.testkit.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;

/** A running gateway on a free loopback port for one test. */
final class GatewayFixture implements AutoCloseable {

    final Gateway gateway;
    final GatewayListener listener;
    final GatewayEngine engine;

    GatewayFixture(GatewayEngine engine) throws IOException {
        this(engine, ProxyAuthenticator.anonymous(), GatewayConfig.DEFAULTS);
    }

    GatewayFixture(GatewayEngine engine, ProxyAuthenticator auth, GatewayConfig config) throws IOException {
        this.engine = engine;
        this.gateway =
                Gateway.builder(engine).authenticator(auth).config(config).build();
        this.listener = GatewayListener.start(gateway, InetAddress.getLoopbackAddress(), 0);
    }

    int port() {
        return listener.port();
    }

    RawClient client() throws IOException {
        return new RawClient(port());
    }

    /** Attempts complete in a finally after the response is flushed: allow that moment. */
    static void awaitInFlightZero(GatewayEngine engine) {
        Await.atMost(Duration.ofSeconds(15))
                .until("the engine's in-flight count to drop to 0 after the test", engine::inFlight, n -> n == 0);
    }

    @Override
    public void close() {
        listener.stop(Duration.ofSeconds(2));
        awaitInFlightZero(engine);
    }
}
