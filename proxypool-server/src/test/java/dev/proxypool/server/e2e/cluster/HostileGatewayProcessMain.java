package dev.proxypool.server.e2e.cluster;

import dev.proxypool.sdk.config.ProxyPoolConfig;
import dev.proxypool.server.GatewayServer;
import dev.proxypool.server.gateway.DirectEngine;
import dev.proxypool.server.gateway.GatewayConfig;
import dev.proxypool.server.tls.ListenerTls;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A gateway process for {@link HostileConnectionsProcessTest}: TLS on the gateway listener
 * ({@code server.gatewayTls} with the given files), a SOCKS5 listener, the given first-request
 * deadline and no practical per-address cap (the test's many connections all come from 127.0.0.1).
 * Prints {@code ready <gatewayPort> <socksPort> <apiPort>}; stops when stdin closes. Args: certificate
 * file, key file, first-request deadline in milliseconds.
 */
public final class HostileGatewayProcessMain {

    private HostileGatewayProcessMain() {}

    public static void main(String[] args) throws Exception {
        ListenerTls tls =
                ListenerTls.of("server.gatewayTls", new ProxyPoolConfig.TlsFiles(Path.of(args[0]), Path.of(args[1])));
        GatewayServer server = GatewayServer.builder(new DirectEngine())
                .gatewayPort(0)
                .apiPort(0)
                .socksPort(0)
                .gatewayTls(tls)
                .config(GatewayConfig.builder()
                        .firstRequestTimeout(Duration.ofMillis(Long.parseLong(args[2])))
                        .maxConnectionsPerAddress(100_000)
                        .build())
                .start();
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        out.println("ready " + server.gatewayPort() + " " + server.socksPort() + " " + server.apiPort());
        while (System.in.read() >= 0) {
            // until the test closes our stdin
        }
        server.stop();
    }
}
