package dev.proxypool.benchmarks.gateway;

import dev.proxypool.core.time.Ticker;
import dev.proxypool.server.GatewayServer;
import dev.proxypool.server.gateway.DirectEngine;
import dev.proxypool.server.gateway.GatewayEngine;
import dev.proxypool.server.gateway.staticupstream.StaticUpstream;
import dev.proxypool.server.gateway.staticupstream.StaticUpstreamEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The load harness's "bare wire layer" entry point (benchmarks/gateway/run.sh {@code --listeners
 * own}): {@link GatewayServer} over a {@link StaticUpstreamEngine}, to compare against the real
 * {@code proxypool serve}.
 *
 * <pre>
 * --gateway-port 8080 --api-port 9090 --upstream 127.0.0.1:3128[,host:port...] [--pool 256]
 * --direct   (no upstream: connect straight to targets)
 * </pre>
 */
public final class StaticGatewayMain {

    private StaticGatewayMain() {}

    public static void main(String[] args) throws InterruptedException {
        int gatewayPort = 8080;
        int apiPort = 9090;
        int pool = 256;
        boolean direct = false;
        List<StaticUpstream> upstreams = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--gateway-port" -> gatewayPort = Integer.parseInt(args[++i]);
                case "--api-port" -> apiPort = Integer.parseInt(args[++i]);
                case "--pool" -> pool = Integer.parseInt(args[++i]);
                case "--direct" -> direct = true;
                case "--upstream" -> {
                    for (String hp : args[++i].split(",")) {
                        int colon = hp.lastIndexOf(':');
                        upstreams.add(StaticUpstream.of(
                                "p" + (upstreams.size() + 1),
                                hp.substring(0, colon),
                                Integer.parseInt(hp.substring(colon + 1))));
                    }
                }
                default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
            }
        }
        if (!direct && upstreams.isEmpty()) {
            throw new IllegalArgumentException("--upstream host:port (or --direct) is required");
        }
        GatewayEngine engine = direct
                ? new DirectEngine()
                : new StaticUpstreamEngine("static", upstreams, 5_000, pool, Ticker.system());
        GatewayServer server = GatewayServer.builder(engine)
                .gatewayPort(gatewayPort)
                .apiPort(apiPort)
                .start();
        Runnable stop = server::stop;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop.run();
            stopped.countDown();
        }));
        System.out.println("gateway listening on " + gatewayPort + ", api on " + apiPort);
        stopped.await();
    }
}
