/**
 * The {@code proxypool} command line: {@code serve}, the admin, extraction, provider and benchmark
 * commands, and the demo. It reaches the server, SDK and core packages exported to it, no others.
 */
module dev.proxypool.cli {
    requires dev.proxypool.server;
    requires dev.proxypool.sdk;
    requires info.picocli;
    requires io.helidon.config;
    requires java.net.http;
    requires jdk.httpserver;

    opens dev.proxypool.cli to
            info.picocli;
    opens dev.proxypool.cli.admin to
            info.picocli;
    opens dev.proxypool.cli.bench to
            info.picocli;
    opens dev.proxypool.cli.bench.capacity to
            info.picocli;
    opens dev.proxypool.cli.demo to
            info.picocli;
}
