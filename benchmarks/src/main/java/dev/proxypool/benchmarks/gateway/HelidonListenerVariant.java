package dev.proxypool.benchmarks.gateway;

import dev.proxypool.server.EchoHandler;
import dev.proxypool.server.GatewayServer;
import dev.proxypool.server.HelidonGatewayMetrics;
import dev.proxypool.server.gateway.Gateway;
import dev.proxypool.server.gateway.GatewayConnectionSelector;
import dev.proxypool.server.gateway.GatewayEngine;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.service.registry.Services;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.metrics.MetricsObserver;
import java.net.InetAddress;

/**
 * Option (a) of GATEWAY-DESIGN.md, kept runnable for the load harness: the gateway protocol on a
 * named Helidon socket ("gateway") through {@link GatewayConnectionSelector}, the REST listener
 * on the default socket. Not used by {@link GatewayServer}.
 */
final class HelidonListenerVariant {

    private HelidonListenerVariant() {}

    /** Starts both sockets; returns the stop action. */
    static Runnable start(GatewayEngine engine, int gatewayPort, int apiPort) {
        MeterRegistry registry = Services.get(MeterRegistry.class);
        Gateway gw = Gateway.builder(engine)
                .metrics(new HelidonGatewayMetrics(registry))
                .build();
        InetAddress loopback = InetAddress.getLoopbackAddress();
        WebServer web = WebServer.builder()
                .address(loopback)
                .port(apiPort)
                .shutdownHook(false)
                .putSocket(
                        "gateway",
                        s -> s.address(loopback)
                                .port(gatewayPort)
                                .protocolsDiscoverServices(false)
                                .connectionOptions(o -> o.tcpNoDelay(true))
                                .addConnectionSelector(new GatewayConnectionSelector(gw)))
                .addFeature(ObserveFeature.just(MetricsObserver.create()))
                .routing(r -> r.get("/v1/echo", new EchoHandler()))
                .build()
                .start();
        return web::stop;
    }
}
